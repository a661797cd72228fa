// Tests of executions whose failure cuts short the local code of another
// thread's step: a thread that fails in its first local code, after a
// branch on an input, before the thread that started it starts the next
// ones and reaches its next operation.

package unfold_test

import (
	"maps"
	"testing"

	"github.com/weft-go/weft"
	"github.com/weft-go/weft/strategy/unfold"
	"github.com/weft-go/weft/trace"
)

// cutShort returns a body that starts T1, which fails at once if the
// input a is 0 (eq) or positive (not eq), else stores 1 to x; then T2,
// which stores 2; then stores 3 itself. With step, the body stores 9
// first, so that the threads start in the local code of a step rather
// than before the first one; with nested, T1 starts a thread of its own
// that branches and fails, and stores after it.
func cutShort(eq, step, nested bool) func(*weft.T) {
	zero := weft.Const[int64](0)
	return func(w *weft.T) {
		x := weft.NewVar[int]("x")
		a := w.Input("a")
		if step {
			x.Store(9)
		}
		fail := func() {
			c := a.Gt(zero)
			if eq {
				c = a.Eq(zero)
			}
			if w.If(c) {
				w.Fail("a fails T1")
			}
		}
		w.Go(func() {
			if nested {
				w.Go(fail)
			} else {
				fail()
			}
			x.Store(1)
		})
		w.Go(func() { x.Store(2) })
		x.Store(3)
	}
}

// TestCutShort: the execution that fails starts fewer threads than the
// others, and leaves the body (and, nested, T1) without a next operation;
// unfold took that for a divergence, whether the first execution failed
// (eq: input 0) or a later one (a > 0). Now the step's event, or the
// initial marking, is completed by the executions that complete its
// local code: the same events as every interleaving for every input in
// [-1, 1] gives (the stores of the three threads in every order, 15, the
// two sides of the branch, and the body's first store, after a step),
// the same failure kinds; 7 tests (the 6 orders of the three stores and
// the failure), with the efficient, the naive and a random free part.
func TestCutShort(t *testing.T) {
	for _, c := range []struct {
		name             string
		eq, step, nested bool
		events, tests    int
	}{
		{"a > 0", false, false, false, 17, 7},
		{"a == 0", true, false, false, 17, 7},
		{"a > 0 after a step", false, true, false, 18, 7},
		{"a == 0 after a step", true, true, false, 18, 7},
		{"a > 0 nested", false, false, true, 17, 7},
		{"a == 0 nested", true, false, true, 17, 7},
		{"a == 0 nested after a step", true, true, true, 18, 7},
	} {
		body := cutShort(c.eq, c.step, c.nested)
		vs := [][]uint64{}
		for _, v := range []int64{-1, 0, 1} {
			vs = append(vs, []uint64{uint64(v)})
		}
		obs, sigs := unfold.NewObserverInputs(false, vs...)
		br, err := weft.Explore(body, weft.WithCustomStrategy(obs), weft.KeepGoing(), weft.NoReplayFiles())
		if err != nil {
			t.Fatal(err)
		}
		want, err := sigs()
		if err != nil {
			t.Fatalf("%s: brute force: %v", c.name, err)
		}
		for i, o := range []unfold.Options{{}, {Naive: true}, {Seed: 3}} {
			r, s := exploreSym(t, body, o)
			got := unfold.Signatures(s)
			if d := unfold.Diff(got, want, "unfold", "brute force"); d != "" || s.Err() != nil || s.Diverged() != nil || !r.Exhausted || !maps.Equal(kinds(r), kinds(br)) || r.FailureCounts[trace.Assertion] == 0 {
				t.Errorf("%s %+v: %d events (brute force %d), %d tests, failures %v (brute force %v), err %v, diverged %v\n%s", c.name, o, len(got), len(want), r.Executions, r.FailureCounts, br.FailureCounts, s.Err(), s.Diverged(), d)
			}
			if i == 0 && (len(got) != c.events || r.Executions != c.tests) {
				t.Errorf("%s: %d events, %d tests; want %d, %d", c.name, len(got), r.Executions, c.events, c.tests)
			}
		}
	}
}
