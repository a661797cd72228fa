// This file tests goid, the number of the running goroutine read from its
// stack trace.

package engine

import (
	"runtime"
	"strings"
	"testing"
)

// TestGoid checks that goid returns the number the goroutine's own stack
// trace starts with, in the test's goroutine and in 100 new ones, and
// allocates once (the buffer the runtime writes the trace into).
func TestGoid(t *testing.T) {
	check := func() {
		buf := make([]byte, 256)
		want := StackGoid(string(buf[:runtime.Stack(buf, false)]))
		if got := goid(); got != want || got <= 0 {
			t.Errorf("goid() = %d, want %d", got, want)
		}
	}
	check()
	done := make(chan bool)
	for range 100 {
		go func() { check(); done <- true }()
		<-done
	}
	if n := testing.AllocsPerRun(100, func() { goid() }); n != 1 {
		t.Errorf("goid allocates %v times, want 1", n)
	}
	if got := StackGoid("goroutine 18 [running]:\nmain.main()"); got != 18 {
		t.Errorf("StackGoid = %d, want 18", got)
	}
	if got := StackGoid(strings.Repeat("x", 40)); got != 0 {
		t.Errorf("StackGoid of a non-trace = %d, want 0", got)
	}
}
