// This file tests the fairness rule: a busy-wait loop that yields without
// blocking (its turn does more than load) gives way to the thread it
// waits for, so no strategy explores it to the step bound; a loop that no
// fair schedule ends is still a livelock.

package weft_test

import (
	"maps"
	"testing"

	"github.com/weft-go/weft"
	"github.com/weft-go/weft/trace"
)

// lockedSpin is a waiter that spins, each turn taking the mutex to read a
// flag and yielding, until a setter, which takes the mutex too, sets it:
// runtime.Gosched in a loop, the shape of x/sync's semaphore test that
// weft once reported as a livelock at its first execution.
func lockedSpin(w *weft.T) {
	var mu weft.Mutex
	done := weft.NewVar[bool]("done")
	w.GoNamed("waiter", func() {
		for {
			mu.Lock()
			d := done.Load()
			mu.Unlock()
			if d {
				return
			}
			w.Yield()
		}
	})
	w.GoNamed("setter", func() {
		mu.Lock()
		done.Store(true)
		mu.Unlock()
	})
}

// TestFairSpin checks that every strategy explores lockedSpin without a
// livelock: each waiter turn yields, and after FairYields of them the
// setter runs. The systematic strategies explore every fair schedule to
// the end (counts pinned), random and pct find no failure.
func TestFairSpin(t *testing.T) {
	for _, c := range []struct {
		strategy   string
		executions int
	}{
		{"exhaustive", 7}, {"optimal", 8}, {"dpor+sleep", 7}, {"dpor-cr+sleep", 7},
		{"flip+sleep", 7}, {"dpor", 7}, {"flip", 7}, {"random", 0}, {"pct", 0},
	} {
		opts := []weft.Option{weft.WithStrategy(c.strategy), weft.KeepGoing()}
		if c.executions == 0 {
			opts = append(opts, weft.WithMaxRuns(200), weft.WithSeed(1))
		}
		r, err := weft.Explore(lockedSpin, opts...)
		if err != nil {
			t.Fatalf("%s: %v", c.strategy, err)
		}
		if r.Failed() || (c.executions != 0 && (r.Executions != c.executions || !r.Exhausted)) {
			t.Errorf("%s: %d executions, exhausted %v, failures %v; want %d, exhausted, none",
				c.strategy, r.Executions, r.Exhausted, r.FailureCounts, c.executions)
		}
	}
}

// TestFairLivelock checks that a loop no fair schedule ends still reaches
// the step bound: two threads that each yield until the other's flag is
// set, which nobody sets. Every execution reaches it, and the exploration,
// which goes on after a bound hit, stops at the tenth (MaxBoundHits),
// inconclusive.
func TestFairLivelock(t *testing.T) {
	body := func(w *weft.T) {
		var mu weft.Mutex
		for range 2 {
			flag := weft.NewVar[bool]("flag")
			w.Go(func() {
				for {
					mu.Lock()
					d := flag.Load()
					mu.Unlock()
					if d {
						return
					}
					w.Yield()
				}
			})
		}
	}
	for _, s := range []string{"exhaustive", "optimal", "dpor+sleep", "random", "pct"} {
		r, err := weft.Explore(body, weft.WithStrategy(s), weft.WithMaxSteps(2000), weft.WithSeed(1))
		if err != nil {
			t.Fatalf("%s: %v", s, err)
		}
		if r.Executions != 10 || !maps.Equal(r.FailureCounts, map[trace.FailureKind]int{trace.Livelock: 10}) || !r.StepBounded() || r.Exhausted {
			t.Errorf("%s: %d executions, failures %v, step bounded %v, exhausted %v; want 10 executions, each at the step bound, inconclusive", s, r.Executions, r.FailureCounts, r.StepBounded(), r.Exhausted)
		}
	}
}
