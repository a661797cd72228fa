package weft_test

import (
	"strings"
	"testing"

	"github.com/weft-go/weft"
	"github.com/weft-go/weft/trace"
)

// TestUnrepeatableFailure checks that a failure found after the first
// execution of a body that keeps state between executions (a map made
// outside it, as a Test function makes one before its subtests) is marked
// as possibly no failure of the program's, and that Check reports its
// test as inconclusive, not failed; a failure of a deterministic body in
// its second execution (raceBody's) is not marked, and fails the test.
func TestUnrepeatableFailure(t *testing.T) {
	keeps := func() func(w *weft.T) {
		seen := map[int]bool{}
		return func(w *weft.T) {
			var x weft.Var[int]
			w.Go(func() { x.Store(1) })
			x.Store(2)
			seen[len(seen)] = true
			w.Assert(len(seen) == 1, "the body ran %d times", len(seen))
		}
	}
	r, err := weft.Explore(keeps(), weft.WithStrategy("exhaustive"), weft.NoReplayFiles())
	if err != nil || len(r.Failures) != 1 || r.Failures[0].Execution != 2 || r.Failures[0].Kind != trace.Assertion {
		t.Fatalf("Explore: %v, failures %v; want one assertion, in execution 2", err, r.Failures)
	}
	const why = "execution 1, which completed, failed (assertion) when run again after this one under the same schedule"
	if f := r.Failures[0]; f.Unrepeatable != why || !strings.Contains(f.Message, "This failure may be no failure of the program's: "+why) {
		t.Errorf("Unrepeatable %q, message %q; want %q, said in the message", f.Unrepeatable, f.Message, why)
	}

	r, err = weft.Explore(raceBody, weft.WithStrategy("exhaustive"), weft.NoReplayFiles())
	if err != nil || len(r.Failures) != 1 || r.Failures[0].Execution != 2 || r.Failures[0].Unrepeatable != "" {
		t.Fatalf("raceBody: %v, failures %v; want one failure, in execution 2, not marked unrepeatable", err, r.Failures)
	}

	t.Chdir(t.TempDir())
	ft := &fakeTB{TB: t, name: "TestKeeps"}
	weft.Check(ft, keeps(), weft.WithStrategy("exhaustive"))
	if len(ft.errors) != 0 || len(ft.fatals) != 0 || len(ft.skips) != 1 ||
		!strings.HasPrefix(ft.skips[0], weft.Inconclusive+": the only failure found may be no failure of the program's: "+why) {
		t.Errorf("Check: errors %q, fatals %q, skips %q; want the test inconclusive", ft.errors, ft.fatals, ft.skips)
	}
	ft = &fakeTB{TB: t, name: "TestRace"}
	weft.Check(ft, raceBody, weft.WithStrategy("exhaustive"))
	if len(ft.errors) != 1 || len(ft.skips) != 0 {
		t.Errorf("Check of raceBody: errors %q, skips %q; want the test failed", ft.errors, ft.skips)
	}
}
