// This file pins, as data, the smallest programs of event loops on which
// a strategy disagreed with exhaustive search in sweeps of
// TestDifferentialLoops, with what exhaustive search reaches that the
// strategy misses.

package weft_test

import (
	"maps"
	"slices"
	"testing"

	"github.com/weft-go/weft"
	"github.com/weft-go/weft/internal/gen"
	"github.com/weft-go/weft/internal/gen/genweft"
)

// The statements of the pinned programs.
var (
	// tk := newTimer(1); for range 2 { select { case <-tk.C: v0.Add(1);
	// tk.Reset(1); case x := <-c0: v0.Store(x) } }; tk.Stop()
	tickOrRecv = gen.Stmt{Kind: gen.TickLoop, Val: 1, Val2: 2, Body: []gen.Stmt{{Kind: gen.Add, Val: 1}}, Cases: []gen.Case{{Chan: 0}}}
)

// loopsPinned are the pinned disagreements: on program p, with time mode
// mode, each of strategies misses the finding (a failure kind or a final
// state, as findings names them) that exhaustive search reaches. skip,
// if not empty, says why the test is skipped: a known bug, to be unskipped
// once it is fixed.
var loopsPinned = []struct {
	name       string
	p          *gen.Program
	mode       weft.TimeMode
	strategies []string
	finding    string
	skip       string
}{
	{
		// One thread: the buffered c0 holds 9, and a ticker of period 1
		// runs two iterations of a select between its tick and c0. Two
		// ticks in a row (the clock advances to 1, the tick is taken
		// and the timer reset to 2, the clock advances to 2, the tick is
		// taken again: v0 = 2) need the clock's second advance before
		// the second select, while c0 is ready.
		name:       "two ticks beside a ready channel",
		p:          &gen.Program{Vars: 1, Chans: []int{1}, Fill: true, Main: []gen.Stmt{tickOrRecv}},
		mode:       weft.TimeAnyStep,
		strategies: []string{"optimal"},
		finding:    "final v0=2 ",
		skip:       "optimal misses the final state v0=2 with time at any step (3 executions; exhaustive search: 12, dpor+sleep 9): a known bug of optimal's any-step time",
	},
}

// TestDifferentialLoopsPinned checks that exhaustive search reaches each
// pinned finding, and then, unless the case is skipped, that each of its
// strategies reaches it too, and exactly exhaustive search's findings.
func TestDifferentialLoopsPinned(t *testing.T) {
	for _, c := range loopsPinned {
		t.Run(c.name, func(t *testing.T) {
			ref, err := exploreRecorded(genweft.Body(c.p), "exhaustive", loopsRefRuns, weft.WithTime(c.mode))
			if err != nil || !ref.exhausted {
				t.Fatalf("exhaustive: %v (exhausted %t)", err, err == nil && ref.exhausted)
			}
			want := findings(ref)
			if !want[c.finding] {
				t.Fatalf("exhaustive search no longer reaches %q: %v\n%v", c.finding, slices.Sorted(maps.Keys(want)), c.p)
			}
			if c.skip != "" {
				t.Skip(c.skip)
			}
			for _, name := range c.strategies {
				got, err := exploreRecorded(genweft.Body(c.p), name, 2*ref.executions+1000, weft.WithTime(c.mode))
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				have := findings(got)
				if m, e := missingFrom(want, have), missingFrom(have, want); len(m)+len(e) > 0 || !got.exhausted {
					t.Errorf("%s, time %v: %v (exhausted %t)\n%v", name, c.mode, loopsDisagreement{m, e}, got.exhausted, c.p)
				}
			}
		})
	}
}
