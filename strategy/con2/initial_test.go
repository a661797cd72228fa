// Tests of the initial phase of Alg. 1 on addAll (Farzan et al. 2013, Figs. 6, 7).

package con2

import (
	"errors"
	"testing"
	"time"

	"github.com/weft-go/weft"
	"github.com/weft-go/weft/programs"
	"github.com/weft-go/weft/solver"
	"github.com/weft-go/weft/solver/z3"
)

// TestAddAllInitialPhase: the initial runs of addAll are the body's
// thread alone (it starts T and T' and blocks on its join) and each of T
// and T' alone from its fork (Alg. 1 lines 6-9). Each thread alone takes
// line 4's branch and the assertion, leaving two dangling nodes (Fig. 6:
// d1, d2): W^0 then holds 4 ISCs of branches, none other.
func TestAddAllInitialPhase(t *testing.T) {
	z, err := z3.New(z3.WithTimeout(10 * time.Second))
	if errors.Is(err, solver.ErrUnavailable) {
		t.Skipf("no Z3: %v", err)
	}
	s := New(Options{K: 1}, z)
	r, err := weft.Explore(programs.Lookup("addall").MustBody(nil), weft.WithCustomStrategy(s), weft.NoReplayFiles(), weft.WithMaxRuns(3))
	if err != nil {
		t.Fatal(err)
	}
	if r.Executions != 3 || r.Cut != 3 {
		t.Fatalf("%d executions (%d cut), want 3 cut", r.Executions, r.Cut)
	}
	var branches, others int
	for d, q := range s.work.w {
		for _, c := range q {
			if c.kind == iscBranch && d == 0 {
				branches++
			} else {
				others++
			}
		}
	}
	if branches != 4 || others != 0 {
		t.Errorf("W holds %d branch ISCs of degree 0 and %d others; want 4 and 0", branches, others)
	}
}
