// This file tests the summary of a strategy that aims at a coverage goal
// (strategy.Covering): con2 finishing is no proof that there is no
// deadlock.

package weft_test

import (
	"errors"
	"testing"

	"github.com/weft-go/weft"
	"github.com/weft-go/weft/solver"
	"github.com/weft-go/weft/trace"
)

// abba is a body whose two threads lock two mutexes in opposite orders: it
// deadlocks when each takes its first lock before the other's second.
func abba(w *weft.T) {
	var a, b weft.Mutex
	w.Go(func() {
		a.Lock()
		b.Lock()
		b.Unlock()
		a.Unlock()
	})
	b.Lock()
	a.Lock()
	a.Unlock()
	b.Unlock()
}

// TestCoveringSummary: optimal finds abba's deadlock; con2, which has no
// branch to cover in it, finishes without running into it, and its
// Result and summary line say what it covered and that it is not a
// deadlock search, not that it explored everything.
func TestCoveringSummary(t *testing.T) {
	r, err := weft.Explore(abba, weft.NoReplayFiles())
	if err != nil {
		t.Fatal(err)
	}
	if r.FailureCounts[trace.Deadlock] != 1 || r.Covers != "" {
		t.Fatalf("optimal: failures %v, covers %q; want one deadlock and no goal", r.FailureCounts, r.Covers)
	}
	r, err = weft.Explore(abba, weft.WithStrategy("con2"), weft.WithInterferences(1), weft.NoReplayFiles())
	if errors.Is(err, solver.ErrUnavailable) {
		t.Skipf("no Z3: %v", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	if !r.Exhausted || r.Failed() {
		t.Fatalf("con2: exhausted %v, failures %v; want it to finish without one", r.Exhausted, r.FailureCounts)
	}
	const covers = "every branch side reachable with at most 1 interferences"
	if r.Covers != covers {
		t.Errorf("con2: Covers = %q, want %q", r.Covers, covers)
	}
	const end = ": covered " + covers + " (the strategy finished; it is not a deadlock search: a deadlock, or a failure that only a plain Go if leads to, is found only when an execution runs into it)"
	if got := weft.SummaryOf(r); len(got) < len(end) || got[len(got)-len(end):] != end {
		t.Errorf("con2: summary %q; want it to end with %q", got, end)
	}
}

// racyAssert has no input and two threads: T1 writes x, T2 asserts it
// reads x's initial value, which fails when T1's write comes first.
func racyAssert(w *weft.T) {
	x := weft.NewVar[int]("x")
	w.Go(func() { x.Store(1) })
	w.Go(func() { w.Assert(x.Load() == 0, "T2 read T1's write") })
}

// TestCoveringPlainAssert: con2's goal holds the sides of a plain
// w.Assert: it reports racyAssert's failure, which needs one
// interference, rather than finishing after its 3 initial runs as if it
// had covered everything (with k = 0 it does finish so: the failing side
// needs an interference).
func TestCoveringPlainAssert(t *testing.T) {
	for k, want := range []struct{ executions, failures int }{{3, 0}, {4, 1}, {4, 1}} {
		r, err := weft.Explore(racyAssert, weft.WithStrategy("con2"), weft.WithInterferences(k), weft.KeepGoing(), weft.NoReplayFiles())
		if errors.Is(err, solver.ErrUnavailable) {
			t.Skipf("no Z3: %v", err)
		}
		if err != nil {
			t.Fatal(err)
		}
		if !r.Exhausted || r.Executions != want.executions || r.FailureCounts[trace.Assertion] != want.failures {
			t.Errorf("k=%d: exhausted %v, %d executions, failures %v; want %d executions, %d assertion failures",
				k, r.Exhausted, r.Executions, r.FailureCounts, want.executions, want.failures)
		}
	}
}
