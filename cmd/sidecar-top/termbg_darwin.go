package main

import "golang.org/x/sys/unix"

// flushInput drops what the terminal fd has sent that no one has read (FREAD: the input queue).
func flushInput(fd int) { _ = unix.IoctlSetPointerInt(fd, unix.TIOCFLUSH, 1) }
