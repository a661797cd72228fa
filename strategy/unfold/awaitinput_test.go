// Tests of w.Await in programs that read inputs: awaits whose conditions
// branch on inputs or not make brute force's unfolding over the inputs'
// values, and the failures and deadlocks are found.

package unfold_test

import (
	"strings"
	"testing"

	"github.com/weft-go/weft"
	"github.com/weft-go/weft/strategy/unfold"
	"github.com/weft-go/weft/trace"
)

// TestAwaitWithInputs pins small programs whose threads read inputs and
// wait in a w.Await whose condition reads concrete variables (and, in
// one, loads a variable that holds an input without branching on it):
// unfold makes brute force's events over inputs in [-1, 3], with its
// numbers of events and tests, and finds the failure that needs a
// positive input after the await.
func TestAwaitWithInputs(t *testing.T) {
	zero := weft.Const[int64](0)
	for _, c := range []struct {
		name          string
		body          func(*weft.T)
		events, tests int
		fails         bool
	}{
		// T1 stores the input to x, then sets the flag; T2 waits for
		// the flag and fails if x > 0: T1's two stores, T2's await
		// (after the flag's store), its load of x and the two sides of
		// its branch; the first test takes the input's default 0 (false
		// side), the second solves x > 0 and fails. 6 events, 2 tests.
		{"flag after an input", func(w *weft.T) {
			flag, x := weft.NewVar[int]("flag"), weft.NewVar[weft.SInt]("x")
			w.Go(func() { x.Store(w.Input("a")); flag.Store(1) })
			w.Go(func() {
				w.Await(func() bool { return flag.Load() != 0 })
				if w.If(x.Load().Gt(zero)) {
					w.Fail("x > 0")
				}
			})
		}, 6, 2, true},
		// The condition loads x too, whose concrete value is the
		// input's, and does not branch on it: its outcome is the same
		// for every input. T1 stores the flag, then x: x's store comes
		// before T2's await, between the await and T2's load of x, or
		// after that load (3 events); the await reads x stored or not
		// (2); T2 loads x initial, 0 (no branch), or stored (2 loads
		// after the store, each with two sides): 13 events, 5 tests.
		{"condition loads an input", func(w *weft.T) {
			flag, x := weft.NewVar[int]("flag"), weft.NewVar[weft.SInt]("x")
			w.Go(func() { flag.Store(1); x.Store(w.Input("a")) })
			w.Go(func() {
				w.Await(func() bool { _ = x.Load(); return flag.Load() != 0 })
				if w.If(x.Load().Gt(zero)) {
					w.Fail("x > 0")
				}
			})
		}, 13, 5, true},
		// The input decides which flag T1 sets; T2 waits for either:
		// the two sides of T1's branch, each with its store, and T2's
		// await after either store (its evaluation on the initial flags
		// is false): 6 events, 2 tests.
		{"a flag chosen by an input", func(w *weft.T) {
			f, g := weft.NewVar[int]("f"), weft.NewVar[int]("g")
			w.Go(func() {
				if w.If(w.Input("a").Gt(zero)) {
					f.Store(1)
				} else {
					g.Store(1)
				}
			})
			w.Go(func() { w.Await(func() bool { return f.Load()+g.Load() != 0 }) })
		}, 6, 2, false},
	} {
		r, s := exploreSym(t, c.body, unfold.Options{})
		sameAsBrute(t, c.name, c.body, s, 1, -1, 0, 1, 2, 3)
		st := s.Stats()
		if s.Err() != nil || st.Events != c.events || st.Tests != c.tests || st.Unexpected != 0 || st.Pending != 0 {
			t.Errorf("%s: Err %v, %+v; want %d events, %d tests", c.name, s.Err(), st, c.events, c.tests)
		}
		if failed := r.FailureCounts[trace.Assertion] > 0; failed != c.fails || len(r.FailureCounts) > 1 {
			t.Errorf("%s: failures %v; want an assertion %v", c.name, r.FailureCounts, c.fails)
		}
	}
}

// TestAwaitBranchingOnInputs pins programs whose w.Await's condition
// branches on inputs: unfold makes brute force's events over inputs in
// [-1, 3], with its numbers of events, tests and probes, and reports the
// deadlocks of the inputs for which the condition never holds.
func TestAwaitBranchingOnInputs(t *testing.T) {
	zero, one, two, four := weft.Const[int64](0), weft.Const[int64](1), weft.Const[int64](2), weft.Const[int64](4)
	for _, c := range []struct {
		name                          string
		body                          func(*weft.T)
		events, tests, probes, blocks int
	}{
		{"a stored input and the waiter's", func(w *weft.T) {
			x := weft.NewVar[weft.SInt]("x")
			b := w.Input("b")
			w.Go(func() { x.Store(w.Input("a")) })
			w.Await(func() bool { return w.If(x.Load().Gt(zero)) && w.If(b.Eq(one)) })
		}, 2, 3, 2, 2},
		{"holds for some inputs", func(w *weft.T) {
			x := weft.NewVar[int]("x")
			n := w.Input("n")
			w.Go(func() { x.Store(1) })
			w.Await(func() bool { return x.Load() == 1 && w.If(n.Gt(two)) })
		}, 2, 2, 1, 1},
		{"a value computed from an input", func(w *weft.T) {
			x := weft.NewVar[weft.SInt]("x")
			w.Go(func() {
				if a := w.Input("a"); w.If(a.Gt(zero)) {
					x.Store(a.Mul(two))
				} else {
					x.Store(weft.Const[int64](5))
				}
			})
			w.Await(func() bool { return w.If(x.Load().Eq(four)) })
		}, 5, 3, 1, 2},
	} {
		r, s := exploreSym(t, c.body, unfold.Options{})
		sameAsBrute(t, c.name, c.body, s, 2, -1, 0, 1, 2, 3)
		st := s.Stats()
		if s.Err() != nil || st.Events != c.events || st.Tests != c.tests || st.Probes != c.probes || st.Unexpected != 0 || st.Pending != 0 {
			t.Errorf("%s: Err %v, %+v; want %d events, %d tests, %d probes", c.name, s.Err(), st, c.events, c.tests, c.probes)
		}
		if r.FailureCounts[trace.Deadlock] != c.blocks || len(r.FailureCounts) != 1 {
			t.Errorf("%s: failures %v; want %d deadlocks", c.name, r.FailureCounts, c.blocks)
		}
		// One await event, whose export names its path's constraint.
		var awaits []string
		for _, e := range s.Unfolding().Events {
			if strings.HasPrefix(e.Op, "await") {
				awaits = append(awaits, e.Op)
			}
		}
		if len(awaits) != 1 || !strings.Contains(awaits[0], " if [") {
			t.Errorf("%s: await events %q; want one, with its path", c.name, awaits)
		}
	}
}
