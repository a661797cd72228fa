package timing

import (
	"runtime"
	"sync/atomic"
	"testing"
	"time"
)

// TestFetchTimeout gives 10ms of work a timeout of 50ms.
func TestFetchTimeout(t *testing.T) {
	if v, err := Fetch(50 * time.Millisecond); err != nil {
		t.Fatalf("Fetch = %q, %v; want the value", v, err)
	}
}

// TestWatchdog waits a second at most for a quick operation.
func TestWatchdog(t *testing.T) {
	done := make(chan int)
	go func() { done <- 1 + 1 }()
	select {
	case <-done:
	case <-time.After(time.Second):
		t.Fatal("the operation did not finish within a second")
	}
}

// TestSpin spins on the clock for 5ms.
func TestSpin(t *testing.T) {
	start := time.Now()
	for time.Since(start) < 5*time.Millisecond {
	}
	if d := time.Since(start); d != 5*time.Millisecond {
		t.Errorf("spun for %v", d)
	}
}

// TestSpinGosched spins on the clock for 5ms, yielding at each turn.
func TestSpinGosched(t *testing.T) {
	start := time.Now()
	for time.Since(start) < 5*time.Millisecond {
		runtime.Gosched()
	}
}

// TestPollUntil polls a flag that a goroutine sets, for a second at most.
func TestPollUntil(t *testing.T) {
	var ready atomic.Bool
	go ready.Store(true)
	if !WaitUntil(ready.Load, time.Second) {
		t.Fatal("not ready within a second")
	}
}

// TestTimerDuringSpin spins on the clock until a deadline after that of a
// timer, which must have fired by then.
func TestTimerDuringSpin(t *testing.T) {
	fired := make(chan struct{})
	time.AfterFunc(2*time.Millisecond, func() { close(fired) })
	deadline := time.Now().Add(5 * time.Millisecond)
	for time.Until(deadline) > 0 {
	}
	select {
	case <-fired:
	default:
		t.Fatal("the timer of 2ms has not fired after 5ms")
	}
}
