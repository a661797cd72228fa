// This file checks the count of distinct final states (Result.FinalStates).

package weft_test

import (
	"testing"

	"github.com/weft-go/weft"
)

// TestFinalStatesMergedKeys checks that a variable created by the body and
// reached by different threads in different executions counts once: x is
// first touched by T1 or T2 apart in some executions and by both in others,
// where the runtime merges its two keys (one final state was once reported
// as 2 to 4).
func TestFinalStatesMergedKeys(t *testing.T) {
	oneState := func(w *weft.T) {
		var x weft.Var[int]
		f := weft.NewVar[int]("f")
		a := w.Go(func() {
			if f.Load() == 0 {
				x.Store(1)
			}
		})
		b := w.Go(func() { f.Store(1); x.Store(1) })
		a.Join()
		b.Join()
		x.Store(3)
	}
	twoStates := func(w *weft.T) {
		var x weft.Var[int]
		f := weft.NewVar[int]("f")
		a := w.Go(func() {
			if f.Load() == 0 {
				x.Store(1)
			}
		})
		b := w.Go(func() { f.Store(1); x.Store(2) })
		a.Join()
		b.Join()
	}
	cases := []struct {
		name string
		body func(*weft.T)
		want int
	}{
		{"one", oneState, 1},
		{"two", twoStates, 2},
	}
	for _, c := range cases {
		for _, name := range []string{"exhaustive", "optimal", "dpor", "random", "pct"} {
			for seed := int64(1); seed <= 5; seed++ {
				r, err := weft.Explore(c.body, weft.WithStrategy(name), weft.WithSeed(seed), weft.KeepGoing(), weft.NoReplayFiles(), weft.WithMaxRuns(100))
				if err != nil {
					t.Fatal(err)
				}
				if r.FinalStates != c.want {
					t.Errorf("%s, %s, seed %d: %d final states in %d executions, want %d", c.name, name, seed, r.FinalStates, r.Executions, c.want)
				}
			}
		}
	}
}
