// This file reads the processor time the test process has used, on Unix.

//go:build unix

package weft_test

import (
	"syscall"
	"time"
)

// cpuTime returns the user and system processor time the process has used
// so far, or 0 if it cannot be read.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
