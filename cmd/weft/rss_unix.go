// This file implements the peak memory measure on Unix systems: the maximum
// resident set size from getrusage.

//go:build unix

package main

import (
	"runtime"
	"syscall"
)

// peakRSS returns the peak resident set size of the process in bytes, or 0 if
// it is unknown.
func peakRSS() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	if runtime.GOOS == "darwin" || runtime.GOOS == "ios" {
		return int64(ru.Maxrss) // bytes
	}
	return int64(ru.Maxrss) * 1024 // kilobytes elsewhere
}
