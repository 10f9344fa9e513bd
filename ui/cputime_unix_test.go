//go:build unix

package ui

import (
	"syscall"
	"time"
)

// cpuTime is the CPU time the process has used, user and system, all threads: on a busy
// machine it says more about a benchmark's cost than the wall clock does.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
