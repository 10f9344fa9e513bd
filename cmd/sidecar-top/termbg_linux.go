package main

import "golang.org/x/sys/unix"

// flushInput drops what the terminal fd has sent that no one has read.
func flushInput(fd int) { _ = unix.IoctlSetInt(fd, unix.TCFLSH, unix.TCIFLUSH) }
