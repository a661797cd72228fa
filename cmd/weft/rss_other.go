// This file implements the peak memory measure where getrusage is missing:
// the memory the Go runtime has obtained from the system, a lower bound.

//go:build !unix

package main

import "runtime/metrics"

// peakRSS returns the memory mapped by the Go runtime in bytes, or 0.
func peakRSS() int64 {
	s := []metrics.Sample{{Name: "/memory/classes/total:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return int64(s[0].Value.Uint64())
}
