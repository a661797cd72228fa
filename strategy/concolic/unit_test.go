// Tests of units of work: concolic explorations divided into units
// (strategytest.Divide) against undivided ones, and bytes that are no
// unit or handback of the strategy.

package concolic_test

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"testing"
	"time"

	"github.com/weft-go/weft"
	"github.com/weft-go/weft/programs"
	"github.com/weft-go/weft/solver"
	"github.com/weft-go/weft/solver/z3"
	"github.com/weft-go/weft/strategy"
	"github.com/weft-go/weft/strategy/concolic"
	"github.com/weft-go/weft/strategy/replay"
	"github.com/weft-go/weft/strategy/strategytest"
	"github.com/weft-go/weft/trace"
)

// unitProgram is a program of the tests of units: body returns a fresh
// body for each exploration.
type unitProgram struct {
	name string
	body func() func(w *weft.T)
}

// registered returns the program of package programs called name.
func registered(name string) unitProgram {
	return unitProgram{name, func() func(w *weft.T) { return programs.Lookup(name).MustBody(nil) }}
}

// local returns a program of this file.
func local(name string, body func(w *weft.T)) unitProgram {
	return unitProgram{name, func() func(w *weft.T) { return body }}
}

// unitPrograms are the programs with inputs of package programs and of the
// tests of this package.
var unitPrograms = []unitProgram{
	registered("jcute"),
	registered("unfold-fig1"),
	registered("unfold-fig9"),
	registered("addall"),
	registered("lincomb"),
	local("independent", independent),
	local("selecting", selecting),
	local("two-inputs", twoInputs),
	local("channel", channel),
	local("deadlock", deadlock),
	local("branchy", branchy),
}

// branchy: two threads, each with two branches on its own input and the
// shared value it read, and a check on the sum: many subtrees, some
// nested in others.
func branchy(w *weft.T) {
	x := weft.NewVar[weft.SInt]("x")
	in := []weft.SInt{w.InputRange("a", -3, 3), w.InputRange("b", -3, 3)}
	x.Store(weft.Const[int64](0))
	var ts []*weft.Thread
	for i, v := range in {
		ts = append(ts, w.Go(func() {
			l := x.Load()
			if w.If(v.Gt(l)) {
				l = l.Add(v)
				x.Store(l)
			}
			if w.If(l.Eq(weft.Const(int64(i + 1)))) {
				x.Store(l.Add(weft.Const[int64](1)))
			}
		}))
	}
	for _, t := range ts {
		t.Join()
	}
	if w.If(x.Load().Eq(weft.Const[int64](4))) {
		w.Fail("x == 4")
	}
}

// twoInputs: two threads branch on their own inputs; the body checks a sum
// that needs both branches' then-sides and one order of the writes.
func twoInputs(w *weft.T) {
	x := weft.NewVar[weft.SInt]("x")
	a, b := w.InputRange("a", -2, 2), w.InputRange("b", -2, 2)
	x.Store(weft.Const[int64](0))
	t1 := w.Go(func() {
		if w.If(a.Gt(weft.Const[int64](0))) {
			x.Store(a)
		}
	})
	t2 := w.Go(func() {
		v := x.Load()
		if w.If(b.Lt(v)) {
			x.Store(v.Add(b))
		}
	})
	t1.Join()
	t2.Join()
	if w.If(x.Load().Eq(weft.Const[int64](3))) {
		w.Fail("x == 3")
	}
}

// channel: two senders on an unbuffered channel, so that the first
// receive has two alternatives, and nested branches on what it received.
func channel(w *weft.T) {
	a, b := w.InputRange("a", 0, 3), w.InputRange("b", 0, 3)
	ch := weft.MakeChan[weft.SInt](0)
	w.Go(func() { ch.Send(a) })
	w.Go(func() { ch.Send(b.Add(weft.Const[int64](1))) })
	v, u := ch.Recv(), ch.Recv()
	if w.If(v.Eq(weft.Const[int64](3))) && w.If(u.Lt(v)) {
		w.Fail("u < v == 3")
	}
}

// deadlock: a lock-order deadlock that needs z == 1 and one schedule.
func deadlock(w *weft.T) {
	var m1, m2 weft.Mutex
	z := w.InputRange("z", 0, 2)
	w.Go(func() {
		if w.If(z.Eq(weft.Const[int64](1))) {
			m1.Lock()
			m2.Lock()
			m2.Unlock()
			m1.Unlock()
		}
	})
	w.Go(func() {
		m2.Lock()
		m1.Lock()
		m1.Unlock()
		m2.Unlock()
	})
}

// execRecorder records each execution a strategy runs, in order (its
// schedule, inputs and end), and the symbolic branch sides they take (the
// condition, as a solver key, and the side).
type execRecorder struct {
	strategy.Strategy
	execs []string
	sides map[string]bool
}

func (r *execRecorder) Finish(tr *trace.Trace, end trace.End) {
	r.execs = append(r.execs, fmt.Sprintf("%s %v %v/%v", replay.Encode(replay.FromTrace(tr, nil)), tr.InputModel(), end.Status, end.Kind))
	for _, b := range tr.Branches {
		r.sides[fmt.Sprint(b.Taken, solver.Key([]solver.Expr{b.Cond}))] = true
	}
	r.Strategy.Finish(tr, end)
}

// Unwrap implements strategy.Wrapper.
func (r *execRecorder) Unwrap() strategy.Strategy { return r.Strategy }

// unitRun is what an exploration, divided or not, did.
type unitRun struct {
	r     *weft.Result
	stats concolic.Stats
	execs []string
	sides map[string]bool
	units strategytest.UnitStats
}

// newZ3 returns a Z3 solver, skipping the test without Z3.
func newZ3(t *testing.T) solver.Solver {
	t.Helper()
	z, err := z3.New(z3.WithTimeout(10 * time.Second))
	if errors.Is(err, solver.ErrUnavailable) {
		t.Skipf("no Z3: %v", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	return z
}

// exploreUnits explores p to the end under a concolic strategy with the
// inner strategy called inner, divided as o says (undivided if o is nil).
func exploreUnits(t *testing.T, p unitProgram, inner string, o *strategytest.UnitOptions) unitRun {
	t.Helper()
	s := concolic.New(inners[inner], newZ3(t))
	rec := &execRecorder{Strategy: s, sides: map[string]bool{}}
	var d *strategytest.Divided
	if o != nil {
		d = strategytest.Divide(s, *o)
		rec.Strategy = d
	}
	r, err := weft.Explore(p.body(), weft.WithCustomStrategy(rec), weft.KeepGoing(), weft.NoReplayFiles(), weft.WithMaxRuns(10000))
	if err != nil {
		t.Fatal(err)
	}
	if !r.Exhausted {
		t.Fatalf("not exhausted after %d executions", r.Executions)
	}
	run := unitRun{r: r, stats: s.Stats(), execs: rec.execs, sides: rec.sides}
	if d != nil {
		if err := d.Err(); err != nil {
			t.Fatalf("divided: %v", err)
		}
		run.units = d.Stats()
	}
	return run
}

// solverCounts are the solver's counters but its time.
func solverCounts(s solver.Stats) solver.Stats {
	s.SolverTime = 0
	return s
}

// unitOptions are the divisions TestUnits checks.
var unitOptions = []strategytest.UnitOptions{{Every: 1}, {Every: 2}, {Every: 1, Delay: 3}, {Every: 2, Delay: 3}}

// TestUnits: the programs with inputs, explored divided into units, under
// each inner strategy. A unit explored and joined at once (Delay 0) gives
// the undivided exploration: the same executions in the same order (the
// unit is the subtree Next would have taken next), the same counts, the
// same counters of the strategy (joined) and of the solver (shared: the
// same queries, in the same order, with the same answers). Units that
// wait (Delay 3) reach the same failure kinds, final states and symbolic
// branch sides; some executions run twice.
func TestUnits(t *testing.T) {
	// The executions of the undivided explorations under exhaustive, dpor
	// and optimal (measured; the explorations are deterministic, given
	// Z3's answers; those other tests pin are the same).
	want := map[string][3]int{
		"jcute":       {4, 4, 4},
		"unfold-fig1": {8, 8, 6},
		"unfold-fig9": {4, 4, 3},
		"addall":      {156, 28, 12},
		"lincomb":     {8, 4, 4},
		"independent": {6, 2, 2},
		"selecting":   {6, 6, 8},
		"two-inputs":  {13, 8, 8},
		"channel":     {6, 6, 10},
		"deadlock":    {7, 5, 4},
		"branchy":     {99, 64, 63},
	}
	// The units made and the executions run, over every program and
	// inner strategy, for each of unitOptions (measured). The undivided
	// explorations run 580 executions; divided with Delay 3,
	// some run twice.
	wantUnits := [...]int{142, 71, 155, 73}
	wantExecs := [...]int{580, 580, 612, 584}
	var units, execs [len(wantUnits)]int
	for _, p := range unitPrograms {
		for i, inner := range []string{"exhaustive", "dpor", "optimal"} {
			t.Run(p.name+"/"+inner, func(t *testing.T) {
				whole := exploreUnits(t, p, inner, nil)
				if n := want[p.name][i]; whole.r.Executions != n {
					t.Errorf("undivided: %d executions, want %d", whole.r.Executions, n)
				}
				for j, o := range unitOptions {
					got := exploreUnits(t, p, inner, &o)
					units[j] += got.units.Units
					execs[j] += got.r.Executions
					if o.Every == 1 && got.units.Units == 0 {
						t.Errorf("every %d, delay %d: no unit was made", o.Every, o.Delay)
					}
					checkUnits(t, o, whole, got)
				}
			})
		}
	}
	if t.Failed() || t.Skipped() {
		return
	}
	t.Logf("units %v, executions %v (%v)", units, execs, unitOptions)
	if units != wantUnits || execs != wantExecs {
		t.Errorf("units %v, executions %v; want %v, %v", units, execs, wantUnits, wantExecs)
	}
}

// checkUnits compares got, an exploration divided as o says, with whole.
func checkUnits(t *testing.T, o strategytest.UnitOptions, whole, got unitRun) {
	t.Helper()
	w, g := whole.r, got.r
	if o.Delay > 0 {
		if !slices.Equal(slices.Sorted(maps.Keys(g.FailureCounts)), slices.Sorted(maps.Keys(w.FailureCounts))) || g.FinalStates != w.FinalStates {
			t.Errorf("every %d, delay %d: failures %v, %d final states; undivided: %v, %d",
				o.Every, o.Delay, g.FailureCounts, g.FinalStates, w.FailureCounts, w.FinalStates)
		}
		if !maps.Equal(got.sides, whole.sides) {
			t.Errorf("every %d, delay %d: %d symbolic branch sides, undivided %d", o.Every, o.Delay, len(got.sides), len(whole.sides))
		}
		// Every execution of the undivided exploration runs (measured:
		// not a guarantee, as a node reached first through another
		// interleaving of its causal past gets its prefix in that order).
		ran := map[string]bool{}
		for _, e := range got.execs {
			ran[e] = true
		}
		for _, e := range whole.execs {
			if !ran[e] {
				t.Errorf("every %d, delay %d: the execution %s of the undivided exploration did not run", o.Every, o.Delay, e)
			}
		}
		return
	}
	if g.Executions != w.Executions || g.Complete != w.Complete || g.Cut != w.Cut ||
		!maps.Equal(g.FailureCounts, w.FailureCounts) || g.FinalStates != w.FinalStates {
		t.Errorf("every %d: %d executions (%d complete, %d cut), failures %v, %d final states; undivided: %d (%d, %d), %v, %d",
			o.Every, g.Executions, g.Complete, g.Cut, g.FailureCounts, g.FinalStates, w.Executions, w.Complete, w.Cut, w.FailureCounts, w.FinalStates)
	}
	if !slices.Equal(got.execs, whole.execs) {
		t.Errorf("every %d: the executions differ from the undivided ones:\n%q\nundivided:\n%q", o.Every, got.execs, whole.execs)
	}
	if got.stats != whole.stats {
		t.Errorf("every %d: stats %+v, undivided %+v", o.Every, got.stats, whole.stats)
	}
	if gs, ws := solverCounts(g.Solver), solverCounts(w.Solver); gs != ws {
		t.Errorf("every %d: solver %+v, undivided %+v", o.Every, gs, ws)
	}
}
