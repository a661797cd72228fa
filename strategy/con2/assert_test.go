// Tests of assertions on values con2 does not see: a plain w.Assert is a
// branch whose failing side con2 covers too.

package con2_test

import (
	"testing"

	"github.com/weft-go/weft"
	"github.com/weft-go/weft/strategy/con2"
	"github.com/weft-go/weft/trace"
)

// racyAssert has no input: T1 writes x, T2 asserts it reads x's initial
// value, which fails when T1's write comes first. The assertion's
// condition is a plain bool: no expression tells con2 what it depends on.
func racyAssert(w *weft.T) {
	x := weft.NewVar[int]("x")
	w.Go(func() { x.Store(1) })
	w.Go(func() { w.Assert(x.Load() == 0, "T2 read T1's write") })
}

// TestPlainAssert: with k = 0 con2 covers the assertion's passing side
// only, in the 3 executions of its initial phase (the body, then T1 and
// T2 alone); with k = 1 it also covers the failing side, which needs T2
// to read T1's write, and finds the failure.
func TestPlainAssert(t *testing.T) {
	for k, want := range []struct{ executions, failures int }{{3, 0}, {4, 1}} {
		s := newCon2(t, con2.Options{K: k})
		r, err := weft.Explore(racyAssert, weft.WithCustomStrategy(s), weft.KeepGoing(), weft.NoReplayFiles())
		if err != nil {
			t.Fatal(err)
		}
		if !r.Exhausted || r.Executions != want.executions || r.FailureCounts[trace.Assertion] != want.failures {
			t.Errorf("k=%d: exhausted %v, %d executions, failures %v; want %d executions, %d assertion failures",
				k, r.Exhausted, r.Executions, r.FailureCounts, want.executions, want.failures)
		}
	}
}
