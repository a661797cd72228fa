// This file implements the CPU time measure on Unix systems: the user and
// system time of the process from getrusage.

//go:build unix

package main

import (
	"syscall"
	"time"
)

// cpuTime returns the CPU time the process has used so far (user and
// system), or 0 if it is unknown.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
