// Tests of operations whose outcome depends on inputs: a CompareAndSwap
// that compares values of inputs, refused; a TryLock, whose outcome its
// preset decides, branches on inputs being events of its local
// configuration.

package unfold_test

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/weft-go/weft"
	"github.com/weft-go/weft/strategy/unfold"
	"github.com/weft-go/weft/trace"
)

// casInput: T1 stores an input in x; T2 swaps x from 1 to 5 and fails if
// it did. The CAS after T1's store compares the input with 1, a branch of
// its step (in == 1) whose true side fails.
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

// TestCASOnInputRefused: a CompareAndSwap whose comparison depends on
// inputs is refused when the first execution makes it: its event would be
// one of two (the write done or not) with the comparison's constraint, and
// the net has one, the branch after it coming too late. Explore returns
// the error, wrapping ErrUnmodelled, after that one execution (the CAS is
// its last step: it ran to its end).
func TestCASOnInputRefused(t *testing.T) {
	s := unfold.New(withZ3(t, unfold.Options{}))
	defer s.Close()
	r, err := weft.Explore(casInput, weft.WithCustomStrategy(s), weft.KeepGoing(), weft.NoReplayFiles())
	if !errors.Is(err, unfold.ErrUnmodelled) || !strings.Contains(err.Error(), "CompareAndSwap whose outcome depends on inputs") ||
		!strings.Contains(err.Error(), "use concolic-optimal") {
		t.Errorf("error %v", err)
	}
	if r == nil || r.Executions != 1 || r.Exhausted || len(r.Failures) != 0 || !errors.Is(s.Err(), unfold.ErrUnmodelled) {
		t.Errorf("Result %+v, Err %v; want one execution, not exhausted, the refusal", r, s.Err())
	}
}

// TestTryLockOnInput: unfold reaches the failure that depends on an input
// through a TryLock, with the events of every interleaving for every
// input in [-2, 2]: 5 events (T1's two sides and its Lock; T2's TryLock of
// mu free and held), 2 tests, the second solving in > 0 and failing, and a
// third execution for the deadlock the search finds (T1 waiting for the
// mutex T2's TryLock took: a leak).
func TestTryLockOnInput(t *testing.T) {
	r, s := exploreSym(t, tryLockInput, unfold.Options{})
	sameAsBrute(t, "trylock", tryLockInput, s, 1, -2, -1, 0, 1, 2)
	st := s.Stats()
	if st.Events != 5 || r.Executions != 3 || st.DeadlockTests != 1 || st.Unexpected != 0 || st.Pending != 0 || s.Err() != nil {
		t.Errorf("%d executions, %+v, err %v; want 5 events, 3 tests, one for a deadlock", r.Executions, st, s.Err())
	}
	var kinds []trace.FailureKind
	for _, f := range r.Failures {
		kinds = append(kinds, f.Kind)
		if f.Kind == trace.Assertion && (len(f.Inputs) != 1 || f.Inputs[0].Value == 0 || int64(f.Inputs[0].Value) > 2) {
			t.Errorf("the assertion with inputs %v; want one, positive", f.Inputs)
		}
	}
	if want := []trace.FailureKind{trace.Assertion, trace.Leak}; !slices.Equal(kinds, want) {
		t.Errorf("failures %v, want %v", kinds, want)
	}
}
