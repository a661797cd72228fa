// Tests of the refusal of primitives outside reach's model.

package reach_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/weft-go/weft"
	"github.com/weft-go/weft/strategy/reach"
)

// TestRefusalSymbolic: a branch on an input needs a solver for its race
// set: without one (Options.NewSolver), the run that took one ends the
// exploration with an error wrapping ErrNoSolver.
func TestRefusalSymbolic(t *testing.T) {
	s := reach.New(reach.Options{})
	r, err := weft.Explore(func(w *weft.T) {
		x := w.Input("x")
		w.Go(func() {})
		if w.If(x.Gt(weft.Const[int64](3))) {
			w.Fail("big")
		}
	}, weft.WithCustomStrategy(s), weft.KeepGoing(), weft.NoReplayFiles())
	if !errors.Is(err, reach.ErrNoSolver) || !strings.Contains(err.Error(), "import _ \"github.com/weft-go/weft/concolic\"") {
		t.Errorf("error %v", err)
	}
	if r == nil || r.Executions != 1 || r.Complete != 1 || len(r.Failures) != 0 || r.Exhausted {
		t.Errorf("Result %+v; want one execution, complete, no failure, not exhausted", r)
	}
}

// TestRefusalAssume: a run that an assumption ended (w.Assume) is no
// SYN-sequence: the first one ends the exploration with the refusal.
func TestRefusalAssume(t *testing.T) {
	s := reach.New(reach.Options{})
	r, err := weft.Explore(func(w *weft.T) {
		c := weft.MakeChan[int](1)
		w.Go(func() { c.Send(1) })
		w.Assume(c.Recv() == 2)
	}, weft.WithCustomStrategy(s), weft.KeepGoing(), weft.NoReplayFiles())
	if !errors.Is(err, reach.ErrUnmodelled) || !strings.Contains(err.Error(), "reach does not model assumptions") {
		t.Errorf("error %v", err)
	}
	if r == nil || r.Executions != 1 || r.Assumed != 1 || len(r.Failures) != 0 || r.Exhausted {
		t.Errorf("Result %+v; want one execution, assumed away, no failure, not exhausted", r)
	}
}
