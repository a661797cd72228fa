// Tests of units of work: concolic explorations divided into units
// (strategytest.Divide) against undivided ones, and bytes that are no
// unit or handback of the strategy.

package concolic_test

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/weft-go/weft"
	"github.com/weft-go/weft/programs"
	"github.com/weft-go/weft/solver"
	"github.com/weft-go/weft/solver/z3"
	"github.com/weft-go/weft/strategy"
	"github.com/weft-go/weft/strategy/concolic"
	"github.com/weft-go/weft/strategy/dpor"
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
	newZ3(t).Close() // skip the test without Z3
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
	var mu sync.Mutex // guards units and execs
	t.Run("programs", func(t *testing.T) {
		for _, p := range unitPrograms {
			for i, inner := range []string{"exhaustive", "dpor", "optimal"} {
				t.Run(p.name+"/"+inner, func(t *testing.T) {
					t.Parallel()
					whole := exploreUnits(t, p, inner, nil)
					if n := want[p.name][i]; whole.r.Executions != n {
						t.Errorf("undivided: %d executions, want %d", whole.r.Executions, n)
					}
					for j, o := range unitOptions {
						got := exploreUnits(t, p, inner, &o)
						mu.Lock()
						units[j] += got.units.Units
						execs[j] += got.r.Executions
						mu.Unlock()
						if o.Every == 1 && got.units.Units == 0 {
							t.Errorf("every %d, delay %d: no unit was made", o.Every, o.Delay)
						}
						checkUnits(t, o, whole, got)
					}
				})
			}
		}
	})
	if t.Failed() {
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

// nopSolver is a solver that is never asked: the tests of bad units need
// none.
type nopSolver struct{}

func (nopSolver) Check(context.Context, []solver.Expr) (solver.Result, error) {
	return solver.Result{}, errors.New("nopSolver: asked")
}

func (nopSolver) CheckCore(context.Context, []solver.Expr) (solver.Result, []int, error) {
	return solver.Result{}, nil, errors.New("nopSolver: asked")
}

func (nopSolver) Stats() solver.Stats { return solver.Stats{} }
func (nopSolver) Close() error        { return nil }

// exhaustiveTag is the tag of the units of a concolic strategy with inner
// strategy exhaustive.
const exhaustiveTag = "concolic/*exhaustive.Strategy"

// TestBadUnits: Resume refuses bytes that are no unit of the strategy
// (corrupt, of another strategy, a handback, or a unit whose subtree
// cannot be), and Join bytes that are no handback, with errors wrapping
// strategy.ErrBadUnit. It needs no solver.
func TestBadUnits(t *testing.T) {
	s := concolic.New(inners["exhaustive"], nopSolver{})
	defer s.Close()
	if _, ok := s.Split(); ok {
		t.Error("Split before the exploration began: a unit")
	}
	if h := s.Handback(); h != nil {
		t.Errorf("Handback of a strategy not resumed: %q, want nil", h)
	}
	type step struct {
		Thread int32
		Alt    int32
		Kind   uint8
	}
	bad := func(tag, what string, payload any) []byte {
		t.Helper()
		var b []byte
		var err error
		if what == "unit" {
			b, err = strategy.EncodeUnit(tag, payload)
		} else {
			b, err = strategy.EncodeHandback(tag, payload)
		}
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	for _, tc := range []struct {
		name string
		b    []byte
	}{
		{"nil", nil},
		{"garbage", []byte("not a unit of work")},
		{"another strategy", bad("dpor", "unit", 1)},
		{"another inner strategy", bad("concolic/*optimal.Strategy", "unit", struct{ Root bool }{true})},
		{"a handback", bad(exhaustiveTag, "handback", struct{ LastError string }{"x"})},
		{"another payload", bad(exhaustiveTag, "unit", "a string")},
		{"a negative thread", bad(exhaustiveTag, "unit", struct{ Prefix []step }{[]step{{Thread: -1}}})},
		{"a negative alternative", bad(exhaustiveTag, "unit", struct{ Prefix []step }{[]step{{Alt: -2}}})},
		{"a root with a prefix", bad(exhaustiveTag, "unit", struct {
			Prefix []step
			Root   bool
		}{[]step{{}}, true})},
		{"a negative branch", bad(exhaustiveTag, "unit", struct{ Ord int }{-1})},
	} {
		if r, err := s.Resume(tc.b); !errors.Is(err, strategy.ErrBadUnit) {
			t.Errorf("Resume of %s: %v, %v; want an error wrapping ErrBadUnit", tc.name, r, err)
		}
	}
	for _, tc := range []struct {
		name string
		b    []byte
	}{
		{"nil", nil},
		{"garbage", []byte("not a handback")},
		{"another strategy", bad("dpor", "handback", 1)},
		{"another inner strategy", bad("concolic/*optimal.Strategy", "handback", struct{ LastError string }{"x"})},
		{"a unit", bad(exhaustiveTag, "unit", struct{ Root bool }{true})},
		{"negative tries", bad(exhaustiveTag, "handback", struct {
			Knowledge struct{ Tries map[string]int }
		}{struct{ Tries map[string]int }{map[string]int{"q": -1}}})},
	} {
		if us, err := s.Join(tc.b); !errors.Is(err, strategy.ErrBadUnit) || us != nil {
			t.Errorf("Join of %s: %v, %v; want an error wrapping ErrBadUnit", tc.name, us, err)
		}
	}
	if got := s.Stats(); got != (concolic.Stats{}) {
		t.Errorf("stats %+v after bad units and handbacks, want none", got)
	}

	// The units of the root, resumed: a strategy that explores it.
	r, err := s.Resume(bad(exhaustiveTag, "unit", struct{ Root bool }{true}))
	if err != nil || r == nil {
		t.Fatalf("Resume of a root unit: %v", err)
	}
	if h := r.Handback(); h == nil {
		t.Error("Handback of a resumed strategy: nil")
	} else if us, err := s.Join(h); err != nil || us != nil {
		t.Errorf("Join of its handback: %v, %v; want nil, nil", us, err)
	}

	// A strategy that could not be set up resumes nothing.
	f := concolic.Failed(errors.New("no solver"))
	if _, err := f.Resume(bad(exhaustiveTag, "unit", struct{ Root bool }{true})); err == nil {
		t.Error("Resume on a failed strategy: no error")
	}
	if _, ok := f.Split(); ok {
		t.Error("Split of a failed strategy: a unit")
	}
}

// TestJoinStats: Join adds every counter of a handback's Stats to the
// strategy's.
func TestJoinStats(t *testing.T) {
	var st concolic.Stats
	v := reflect.ValueOf(&st).Elem()
	for i := range v.NumField() {
		v.Field(i).SetInt(int64(i + 1))
	}
	h, err := strategy.EncodeHandback(exhaustiveTag, struct{ Stats concolic.Stats }{st})
	if err != nil {
		t.Fatal(err)
	}
	s := concolic.New(inners["exhaustive"], nopSolver{})
	defer s.Close()
	for range 2 {
		if _, err := s.Join(h); err != nil {
			t.Fatal(err)
		}
	}
	got := reflect.ValueOf(s.Stats())
	for i := range v.NumField() {
		if n := got.Field(i).Int(); n != int64(2*(i+1)) {
			t.Errorf("%s: %d after joining %d twice", v.Type().Field(i).Name, n, i+1)
		}
	}
}

// splitting is a concolic strategy that splits off a unit after each
// execution and keeps it, unexplored.
type splitting struct {
	*concolic.Strategy
	units []strategy.Unit
}

func (s *splitting) Finish(tr *trace.Trace, end trace.End) {
	s.Strategy.Finish(tr, end)
	if u, ok := s.Strategy.Split(); ok {
		s.units = append(s.units, u)
	}
}

// TestResumeElsewhere: a unit of jcute's exploration (the subtree of
// z = 1), resumed on another strategy with the same options and explored
// in another exploration (as another process would), explores that
// subtree: its execution fails, and it runs no other. (Before object keys
// were canonical, the node keys of another exploration differed, the sides
// the unit's knowledge says are covered matched nothing, and it opened
// the other side of its own branch too, which the splitter covered.) The
// splitter, which went on without the unit, joins its handback. A strategy with another inner
// strategy, a corrupt unit, and a unit given to Join are refused.
func TestResumeElsewhere(t *testing.T) {
	sp := &splitting{Strategy: concolic.New(inners["exhaustive"], newZ3(t))}
	r, err := weft.Explore(programs.Lookup("jcute").MustBody(nil), weft.WithCustomStrategy(sp), weft.KeepGoing(), weft.NoReplayFiles())
	if err != nil {
		t.Fatal(err)
	}
	if r.Executions != 3 || r.Failed() || len(sp.units) != 1 {
		t.Fatalf("%d executions, failures %v, %d units; want 3 executions (the root's), no failure, 1 unit", r.Executions, r.FailureCounts, len(sp.units))
	}
	u := sp.units[0]

	other := concolic.New(inners["exhaustive"], newZ3(t))
	defer other.Close()
	ru, err := other.Resume(u)
	if err != nil {
		t.Fatal(err)
	}
	rec := &execRecorder{Strategy: ru, sides: map[string]bool{}}
	rr, err := weft.Explore(programs.Lookup("jcute").MustBody(nil), weft.WithCustomStrategy(rec), weft.KeepGoing(), weft.NoReplayFiles())
	if err != nil {
		t.Fatal(err)
	}
	if rr.Executions != 1 || rr.FailureCounts[trace.Assertion] != 1 || !rr.Exhausted || !strings.HasSuffix(rec.execs[0], "{z=1} failed/assertion") {
		t.Errorf("the unit: executions %q; want 1, with z = 1 and failing", rec.execs)
	}
	if got := other.Stats(); got != (concolic.Stats{}) {
		t.Errorf("the strategy resumed on: stats %+v, want none (Resume does not change it)", got)
	}
	before := sp.Stats()
	if us, err := sp.Join(ru.Handback()); err != nil || us != nil {
		t.Fatalf("Join: %v, %v; want nil, nil", us, err)
	}
	if got := sp.Stats(); got.Subtrees != before.Subtrees+1 || got.Executions != 4 {
		t.Errorf("joined: stats %+v; want one more subtree (%d), 4 executions", got, before.Subtrees+1)
	}

	d := concolic.New(inners["dpor"], nopSolver{})
	defer d.Close()
	if _, err := d.Resume(u); !errors.Is(err, strategy.ErrBadUnit) {
		t.Errorf("Resume with another inner strategy: %v, want an error wrapping ErrBadUnit", err)
	}
	if _, err := other.Resume(u[:len(u)/2]); !errors.Is(err, strategy.ErrBadUnit) {
		t.Errorf("Resume of a truncated unit: %v, want an error wrapping ErrBadUnit", err)
	}
	if _, err := sp.Join(strategy.Handback(u)); !errors.Is(err, strategy.ErrBadUnit) {
		t.Errorf("Join of a unit: %v, want an error wrapping ErrBadUnit", err)
	}
}

// TestUnitTagOptions: the tag of a unit names the options of a dpor inner
// strategy: a strategy whose inner strategy has other options refuses
// it, one with the same options takes it.
func TestUnitTagOptions(t *testing.T) {
	withSleep := func() strategy.Strategy {
		return dpor.New(dpor.Options{Algorithm: dpor.VectorClocks, Relation: trace.Plain, Rule: dpor.Initials, Sleep: true})
	}
	sp := &splitting{Strategy: concolic.New(inners["dpor"], newZ3(t))}
	if _, err := weft.Explore(programs.Lookup("jcute").MustBody(nil), weft.WithCustomStrategy(sp), weft.KeepGoing(), weft.NoReplayFiles()); err != nil {
		t.Fatal(err)
	}
	if len(sp.units) == 0 {
		t.Fatal("no unit")
	}
	same := concolic.New(inners["dpor"], nopSolver{})
	defer same.Close()
	if _, err := same.Resume(sp.units[0]); err != nil {
		t.Errorf("Resume with the same options: %v", err)
	}
	other := concolic.New(withSleep, nopSolver{})
	defer other.Close()
	if _, err := other.Resume(sp.units[0]); !errors.Is(err, strategy.ErrBadUnit) {
		t.Errorf("Resume with sleep sets: %v, want an error wrapping ErrBadUnit", err)
	}
}
