// Tests of operations whose outcome depends on inputs: a CompareAndSwap
// of a concolic variable, a branch event after its step; a TryLock, whose
// outcome its preset decides, branches on inputs being events of its
// local configuration.

package unfold_test

import (
	"slices"
	"testing"

	"github.com/weft-go/weft"
	"github.com/weft-go/weft/strategy/unfold"
	"github.com/weft-go/weft/trace"
)

// casInput: T1 stores an input in x; T2 swaps x from 1 to 5 and fails if
// it did. The CAS after T1's store compares the input with 1: a branch
// (in == 1), whose true side fails.
func casInput(w *weft.T) {
	x := weft.NewVar[weft.SInt]("x")
	in := w.InputRange("in", -2, 2)
	w.Go(func() { x.Store(in) })
	w.Go(func() {
		if x.CompareAndSwap(weft.Const[int64](1), weft.Const[int64](5)) {
			w.Fail("x was 1")
		}
	})
}

// tryLockInput: T1 locks mu if its input is positive and keeps it; T2's
// TryLock fails after T1's Lock, and T2 then fails. A TryLock that
// succeeds keeps mu too: T1 then waits for it forever.
func tryLockInput(w *weft.T) {
	mu := weft.NewMutex("mu")
	in := w.InputRange("in", -2, 2)
	w.Go(func() {
		if w.If(in.Gt(weft.Const[int64](0))) {
			mu.Lock()
		}
	})
	w.Go(func() {
		if !mu.TryLock() {
			w.Fail("mu held")
		}
	})
}

// TestOutcomeOnInput: unfold reaches the failures that depend on inputs
// through a CompareAndSwap and a TryLock, with the events of every
// interleaving for every input in [-2, 2]. casInput: 6 events (T1's
// store; T2's CAS before it, and after it with its two branch sides), 3
// tests, the third solving in == 1 and failing. tryLockInput: 5 events
// (T1's two sides and its Lock; T2's TryLock of mu free and held), 2
// tests, the second solving in > 0 and failing, and a third execution
// for the deadlock the search finds (T1 waiting for the mutex T2's
// TryLock took: a leak).
func TestOutcomeOnInput(t *testing.T) {
	for _, c := range []struct {
		name          string
		body          func(*weft.T)
		events, tests int
		kinds         []trace.FailureKind
	}{
		{"cas", casInput, 6, 3, []trace.FailureKind{trace.Assertion}},
		{"trylock", tryLockInput, 5, 3, []trace.FailureKind{trace.Assertion, trace.Leak}},
	} {
		r, s := exploreSym(t, c.body, unfold.Options{})
		sameAsBrute(t, c.name, c.body, s, 1, -2, -1, 0, 1, 2)
		st := s.Stats()
		if st.Events != c.events || r.Executions != c.tests || st.Unexpected != 0 || st.Pending != 0 || s.Err() != nil {
			t.Errorf("%s: %d executions, %+v, err %v; want %d events, %d tests", c.name, r.Executions, st, s.Err(), c.events, c.tests)
		}
		var kinds []trace.FailureKind
		for _, f := range r.Failures {
			kinds = append(kinds, f.Kind)
			if f.Kind == trace.Assertion && (len(f.Inputs) != 1 || f.Inputs[0].Value == 0 || int64(f.Inputs[0].Value) > 2) {
				t.Errorf("%s: the assertion with inputs %v; want one, positive", c.name, f.Inputs)
			}
		}
		if !slices.Equal(kinds, c.kinds) {
			t.Errorf("%s: failures %v, want %v", c.name, kinds, c.kinds)
		}
	}
}
