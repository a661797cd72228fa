// This file pins the exact counts of the flip strategies on the gen
// programs where flip once missed a trace.

package flip_test

import (
	"testing"

	"github.com/weft-go/weft/internal/checktest"
	"github.com/weft-go/weft/internal/gen"
	"github.com/weft-go/weft/internal/gen/genweft"
)

// TestFlipGenCounts checks the executions and distinct maximal traces of
// flip and flip+sleep on gen programs (objects allocated once) in given
// exploration orders, against exhaustive search's trace count.
//
// Gen seed 948: T1 closes c1, T2 receives from c1 then stores v1, T3 locks
// m0, CASes v1, unlocks, loads v0 and receives from c1, and main adds to v0
// and joins T2 and T3 (6 traces, 999 executions of exhaustive search). T2's
// store races with T3's CAS where T2, blocked on its receive until T1's
// close, cannot run; the reversal's initial is T1. In random order 1 flip
// flipped that race with any thread not postponed there (main, or none): it
// ran 27 executions for 5 traces. Flagging an initial of the reversal
// (dpor.Reversal) it runs 27 for all 6; in thread order, 44 instead of 49.
// runs is a number of complete and cut executions.
type runs struct{ complete, cut int }

// maxExhaustive bounds the exhaustive search of a program compared.
const maxExhaustive = 20_000

func TestFlipGenCounts(t *testing.T) {
	tests := []struct {
		seed     uint64
		order    int64
		strategy string
		runs     runs
		traces   int // distinct maximal traces; exhaustive search's count
	}{
		{948, 0, "flip", runs{44, 0}, 6},
		{948, 1, "flip", runs{27, 0}, 6},
		{948, 2, "flip", runs{37, 0}, 6},
		{948, 0, "flip+sleep", runs{6, 2}, 6},
		{948, 1, "flip+sleep", runs{6, 2}, 6},
	}
	want := map[uint64]int{}
	for _, tc := range tests {
		p := gen.NewWith(tc.seed, gen.V1)
		p.Local = false
		body := genweft.Body(p)
		if _, ok := want[tc.seed]; !ok {
			ref, rc := checktest.ExploreTraces(t, body, "exhaustive", 0, maxExhaustive)
			if !ref.Exhausted {
				t.Fatalf("gen program %d: exhaustive search did not finish", tc.seed)
			}
			want[tc.seed] = len(rc.Maximal)
		}
		if want[tc.seed] != tc.traces {
			t.Errorf("gen program %d: exhaustive search finds %d traces, the table says %d", tc.seed, want[tc.seed], tc.traces)
		}
		r, c := checktest.ExploreTraces(t, body, tc.strategy, tc.order, maxExhaustive)
		got := runs{r.Complete, r.Cut}
		if !r.Exhausted || got != tc.runs || len(c.Maximal) != tc.traces {
			t.Errorf("gen program %d under %s, order %d: %+v executions (finished %v), %d traces; want %+v, %d",
				tc.seed, tc.strategy, tc.order, got, r.Exhausted, len(c.Maximal), tc.runs, tc.traces)
		}
	}
}
