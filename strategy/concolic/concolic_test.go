// Tests of the combined tree: its subtrees, prefixes, rehearsals and
// counters on small programs.

package concolic_test

import (
	"errors"
	"maps"
	"testing"
	"time"

	"github.com/weft-go/weft"
	"github.com/weft-go/weft/programs"
	"github.com/weft-go/weft/solver"
	"github.com/weft-go/weft/solver/z3"
	"github.com/weft-go/weft/strategy"
	"github.com/weft-go/weft/strategy/concolic"
	"github.com/weft-go/weft/strategy/dpor"
	"github.com/weft-go/weft/strategy/exhaustive"
	"github.com/weft-go/weft/strategy/optimal"
	"github.com/weft-go/weft/trace"
)

// inners are the inner strategies of the tests, by name.
var inners = map[string]func() strategy.Strategy{
	"exhaustive": func() strategy.Strategy { return exhaustive.New() },
	"dpor": func() strategy.Strategy {
		return dpor.New(dpor.Options{Algorithm: dpor.VectorClocks, Relation: trace.Plain, Rule: dpor.Process})
	},
	"optimal": func() strategy.Strategy { return optimal.New() },
}

// explore runs body to the end under a concolic strategy with the inner
// strategy called inner, skipping the test without Z3.
func explore(t *testing.T, inner string, body func(w *weft.T)) (*weft.Result, concolic.Stats) {
	t.Helper()
	z, err := z3.New(z3.WithTimeout(10 * time.Second))
	if errors.Is(err, solver.ErrUnavailable) {
		t.Skipf("no Z3: %v", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	s := concolic.New(inners[inner], z)
	r, err := weft.Explore(body, weft.WithCustomStrategy(s), weft.KeepGoing(), weft.NoReplayFiles())
	if err != nil {
		t.Fatal(err)
	}
	if !r.Exhausted {
		t.Fatalf("%s: not exhausted after %d executions", inner, r.Executions)
	}
	return r, s.Stats()
}

// TestJCuteSubtrees: jcute's tree under each inner strategy, to the end.
// The root runs the three schedules with z = 0 (all three under DPOR and
// optimal too: each pair of the three steps is dependent). Where T2 reads
// 2, 2z+1 == 2 is pruned (twice: T1's write before T2's, or after T2's
// read; the second answer is reused); where it reads 3, z = 1 opens one
// subtree, whose prefix is the three events: one execution, which fails.
// Optimal's subtree rehearses its prefix once more and leaves it (its races
// reach the prefix's events).
func TestJCuteSubtrees(t *testing.T) {
	for _, tc := range []struct {
		inner                string
		executions, deviated int
	}{
		{"exhaustive", 4, 0},
		{"dpor", 4, 0},
		{"optimal", 4, 1},
	} {
		t.Run(tc.inner, func(t *testing.T) {
			r, st := explore(t, tc.inner, programs.Lookup("jcute").MustBody(nil))
			if r.Executions != tc.executions || st.Subtrees != 2 || st.Negations != 2 || st.Pruned != 2 || st.Reused != 1 ||
				r.FailureCounts[trace.Assertion] != 1 || st.Deviated != tc.deviated || st.Diverged != 0 || st.Repeated != 0 {
				t.Errorf("%d executions, failures %v, stats %+v; want %d executions, 1 failure, 2 subtrees, 2 negations, 2 pruned (1 reused), %d deviated",
					r.Executions, r.FailureCounts, st, tc.executions, tc.deviated)
			}
		})
	}
}

// independent: T1 writes y twice; T2 writes x, then branches on z == 5
// and, on the then side, writes x again.
func independent(w *weft.T) {
	x, y := weft.NewVar[int]("x"), weft.NewVar[int]("y")
	_ = x
	z := w.InputRange("z", 0, 9)
	w.Go(func() { y.Store(1); y.Store(2) })
	w.Go(func() {
		x.Store(0)
		if w.If(z.Eq(weft.Const[int64](5))) {
			x.Store(1)
		}
	})
}

// TestCausalPrefix: the branch's causal past is T2's first write only, so
// the three schedules of the root (where T2's write comes before, between
// or after T1's) reach one node and ask one query; its subtree replays that
// write alone and lets its inner strategy order T1's writes with T2's
// second one (exhaustively: three more schedules). Under DPOR, T1 is
// independent of T2: one execution per subtree.
func TestCausalPrefix(t *testing.T) {
	for _, tc := range []struct {
		inner      string
		executions int
	}{
		{"exhaustive", 6},
		{"dpor", 2},
		{"optimal", 2},
	} {
		t.Run(tc.inner, func(t *testing.T) {
			r, st := explore(t, tc.inner, independent)
			if r.Executions != tc.executions || st.Subtrees != 2 || st.Negations != 1 || st.Reused != 0 || st.Diverged != 0 {
				t.Errorf("%d executions, stats %+v; want %d executions, 2 subtrees, 1 negation", r.Executions, st, tc.executions)
			}
		})
	}
}

// selecting: a select between two channels whose senders send the input
// and the input plus one: a prefix through the select has a step with two
// alternatives.
func selecting(w *weft.T) {
	a := w.InputRange("a", 0, 2)
	c1, c2 := weft.MakeChan[weft.SInt](0), weft.MakeChan[weft.SInt](1)
	w.Go(func() { c1.Send(a) })
	w.Go(func() { c2.Send(a.Add(weft.Const[int64](1))) })
	var got weft.SInt
	weft.Select(weft.OnRecv(c1, func(v weft.SInt, _ bool) { got = v }), weft.OnRecv(c2, func(v weft.SInt, _ bool) { got = v }))
	if w.If(got.Eq(weft.Const[int64](2))) {
		w.Fail("got 2")
	}
	weft.Select(weft.OnRecv(c1, func(weft.SInt, bool) {}), weft.OnRecv(c2, func(weft.SInt, bool) {}))
}

// TestRepeatedSchedule: optimal, shown a select of the prefix with one
// alternative, backtracks into the prefix without the rehearsal seeing it
// and runs a schedule of the subtree again, which ends the subtree; the
// failure (a = 2 from c1, a = 1 from c2) is found either way.
func TestRepeatedSchedule(t *testing.T) {
	for _, tc := range []struct {
		inner                string
		executions, repeated int
		// failing is the number of failing executions (measured; the
		// exploration is deterministic): optimal's two repeated
		// schedules fail again.
		failing int
	}{
		{"exhaustive", 6, 0, 3},
		{"dpor", 6, 0, 3},
		{"optimal", 8, 2, 5},
	} {
		t.Run(tc.inner, func(t *testing.T) {
			r, st := explore(t, tc.inner, selecting)
			want := map[trace.FailureKind]int{trace.Assertion: tc.failing}
			if r.Executions != tc.executions || st.Repeated != tc.repeated || !maps.Equal(r.FailureCounts, want) {
				t.Errorf("%d executions, failures %v, stats %+v; want %d executions, %d repeated, failures %v",
					r.Executions, r.FailureCounts, st, tc.executions, tc.repeated, want)
			}
		})
	}
}
