// This file stands in for the processor time of the test process where
// Unix's getrusage is missing.

//go:build !unix

package weft_test

import "time"

// cpuTime returns 0: the processor time is not known here.
func cpuTime() time.Duration { return 0 }
