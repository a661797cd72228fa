// Tests of symbolic inputs (Kähkönen et al. 2014, §4.3, Example 2): branch events with
// their constraints, targets solved for their inputs or dropped as
// unsatisfiable, deadlocks filtered by the solver, and the refusal of a
// program that needs a solver without one.

package unfold_test

import (
	"errors"
	"testing"
	"time"

	"github.com/weft-go/weft"
	"github.com/weft-go/weft/solver"
	"github.com/weft-go/weft/solver/z3"
	"github.com/weft-go/weft/strategy/unfold"
	"github.com/weft-go/weft/trace"
)

// withZ3 returns o with a Z3 solver, or skips the test without Z3 (a
// build without cgo).
func withZ3(t testing.TB, o unfold.Options) unfold.Options {
	t.Helper()
	z, err := z3.New()
	if errors.Is(err, solver.ErrUnavailable) {
		t.Skipf("no Z3: %v", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	z.Close()
	o.NewSolver = func() (solver.Solver, error) { return z3.New(z3.WithTimeout(10 * time.Second)) }
	return o
}

// exploreSym runs unfold with Z3 on body and closes its solver.
func exploreSym(t *testing.T, body func(*weft.T), o unfold.Options) (*weft.Result, *unfold.Strategy) {
	t.Helper()
	r, s := explore(t, body, withZ3(t, o))
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	return r, s
}

// small are input values for the brute force of sameAsBrute: every
// branch of the tests' programs has both sides among them.
var small = []int64{-1, 0, 1, 2, 3}

// sameAsBrute checks that the unfolding s built of body is the one of every
// interleaving for every vector of n inputs with values in values: each
// event unfold made, an execution makes, and unfold made each event an
// execution makes.
func sameAsBrute(t *testing.T, name string, body func(*weft.T), s *unfold.Strategy, n int, values ...int64) {
	t.Helper()
	want, _ := bruteSigs(t, body, 0, n, values...)
	got := unfold.Signatures(s)
	if d := unfold.Diff(got, want, "unfold", "brute force"); d != "" {
		t.Errorf("%s: %d events, brute force %d:\n%s", name, len(got), len(want), d)
	}
}

// bruteSigs returns the signatures of the events of every interleaving of
// body for every vector of n inputs with values in values, and whether
// the brute force ran them all within maxRuns executions (0: no bound).
func bruteSigs(t *testing.T, body func(*weft.T), maxRuns, n int, values ...int64) (map[uint64]string, bool) {
	t.Helper()
	vs := [][]uint64{nil}
	for range n {
		var next [][]uint64
		for _, v := range vs {
			for _, x := range values {
				next = append(next, append(v[:len(v):len(v)], uint64(x)))
			}
		}
		vs = next
	}
	obs, sigs := unfold.NewObserverInputs(false, vs...)
	r, err := weft.Explore(body, weft.WithCustomStrategy(obs), weft.KeepGoing(), weft.NoReplayFiles(), weft.WithMaxRuns(maxRuns))
	if err != nil {
		t.Fatal(err)
	}
	want, err := sigs()
	if err != nil {
		t.Fatal(err)
	}
	return want, r.Exhausted
}

// fig9 is Kähkönen et al. 2014's Example 2 as the paper has it: x starts at 0 (its
// zero value, no store); T1 reads x and fails if it read more than 0; T2
// reads x, then writes an input to it.
func fig9(w *weft.T) {
	zero := weft.Const[int64](0)
	x := weft.NewVar[weft.SInt]("x")
	w.Go(func() {
		if a := x.Load(); w.If(a.Gt(zero)) {
			w.Fail("T1 read a = %d > 0", a.Value())
		}
	})
	w.Go(func() {
		_ = x.Load()
		x.Store(w.Input("input"))
	})
}

// TestFig9Symbolic is Example 2 (Fig. 9) with its input: test 1 adds
// events 1 to 3 (T1's read, T2's read and write) and leaves extension 4
// (T2's write before T1's read); test 2 runs T2's two steps, then T1
// reads the input (0, its default) and branches: events 4, 5 (the read),
// 6 (the false side of a > 0) and extension 7 (its true side); test 3
// solves input > 0 and fails. 7 events, 3 tests, the failure in the
// third. Program unfold-fig9 stores x = 0 first: one more event.
func TestFig9Symbolic(t *testing.T) {
	for _, c := range []struct {
		name   string
		body   func(*weft.T)
		events int
	}{
		{"paper", fig9, 7},
		{"unfold-fig9", body("unfold-fig9", nil), 8},
	} {
		r, s := exploreSym(t, c.body, unfold.Options{})
		sameAsBrute(t, c.name, c.body, s, 1, small...)
		st := s.Stats()
		if st.Events != c.events || r.Executions != 3 || st.Targets != 2 || st.Infeasible != 0 || st.Unexpected != 0 || st.Pending != 0 {
			t.Errorf("%s: %d executions, %+v; want %d events, 3 tests", c.name, r.Executions, st, c.events)
		}
		if len(r.Failures) != 1 || r.Failures[0].Execution != 3 || r.Failures[0].Kind != trace.Assertion ||
			len(r.Failures[0].Inputs) != 1 || int64(r.Failures[0].Inputs[0].Value) <= 0 {
			t.Errorf("%s: failures %+v; want one, in test 3, with input > 0", c.name, r.Failures)
		}
	}
}

// TestFig1: Kähkönen et al. 2014's Fig. 1 as reconstructed (programs/unfoldfig1.go):
// the inputs of both threads, a write on one side of thread 1's branch
// that races with thread 2's read, thread 2's branch on both inputs. 13
// events: the two sides of thread 1's branch, its write before and after
// thread 2's read, its read after its false side and after each write,
// thread 2's read of the initial x and of the write before it, and the
// two sides of thread 2's branch after each read. 5 tests; no side is
// infeasible (b == a == 4 is thread 2's true side after the write).
func TestFig1(t *testing.T) {
	b := body("unfold-fig1", nil)
	r, s := exploreSym(t, b, unfold.Options{})
	sameAsBrute(t, "fig 1", b, s, 2, -1, 0, 4, 5)
	st := s.Stats()
	if r.Executions != 5 || st.Events != 13 || st.Infeasible != 0 || st.Unexpected != 0 || st.Pending != 0 || len(r.Failures) != 0 {
		t.Errorf("%d executions, %+v, failures %v; want 5 tests, 13 events", r.Executions, st, r.Failures)
	}
}

// TestSymbolicNaive: the naive possible extensions make the same
// unfoldings, branch events included.
func TestSymbolicNaive(t *testing.T) {
	for _, c := range []struct {
		name   string
		body   func(*weft.T)
		events int
	}{
		{"fig 9", fig9, 7},
		{"unfold-fig1", body("unfold-fig1", nil), 13},
	} {
		_, eff := exploreSym(t, c.body, unfold.Options{})
		_, naive := exploreSym(t, c.body, unfold.Options{Naive: true})
		want, got := unfold.Signatures(eff), unfold.Signatures(naive)
		if d := unfold.Diff(got, want, "naive", "efficient"); d != "" || len(got) != c.events {
			t.Errorf("%s: naive %d events, efficient %d, want %d:\n%s", c.name, len(got), len(want), c.events, d)
		}
	}
}

// TestUnsatCut is §4.3's example: T1 writes x = 1 if a == 2, T2 writes
// x = 2 if b != 2, a and b one input. Ignoring the constraints the writes
// are concurrent, so each has an extension after the other; both path
// constraints (a == 2 and a != 2) are unsatisfiable and the two are cut.
// With the default input 0 first: 2 tests, 6 events (two branch events a
// thread, two writes).
func TestUnsatCut(t *testing.T) {
	two := weft.Const[int64](2)
	prog := func(w *weft.T) {
		x := weft.NewVar[int]("x")
		a := w.Input("a")
		w.Go(func() {
			if w.If(a.Eq(two)) {
				x.Store(1)
			}
		})
		w.Go(func() {
			if w.If(a.Ne(two)) {
				x.Store(2)
			}
		})
	}
	r, s := exploreSym(t, prog, unfold.Options{})
	sameAsBrute(t, "unsat", prog, s, 1, small...)
	st := s.Stats()
	if r.Executions != 2 || st.Events != 6 || st.Infeasible != 2 || st.Unexpected != 0 || st.Pending != 0 || len(r.Failures) != 0 {
		t.Errorf("%d executions, %+v, failures %v; want 2 tests, 6 events, 2 cut", r.Executions, st, r.Failures)
	}
	if c := r.Counters[len(r.Counters)-1]; c.Name != "net infeasible" || c.Value != 2 {
		t.Errorf("last counter %+v; want net infeasible 2", c)
	}
}

// TestDeadlockFilter: deadlocks whose path constraints are unsatisfiable
// are dropped (Fig. 11's FilterUnsat), the others reached with solved
// inputs. T1 locks a then b if in > 0; T2 locks b then a if in > lo: the
// deadlock needs in > max(0, lo). With lo = 0 it is found, in a test whose
// input is positive; with lo = 1<<62 too; with T2's condition in <= 0 it
// is cut. Targets are cut where the two conditions contradict each other
// (a Join, a Lock, after the other thread's side that the path excludes):
// 2, 1 and 3 of them.
func TestDeadlockFilter(t *testing.T) {
	zero := weft.Const[int64](0)
	prog := func(second func(weft.SInt) weft.SBool) func(*weft.T) {
		return func(w *weft.T) {
			a, b := weft.NewMutex("a"), weft.NewMutex("b")
			in := w.Input("in")
			t1 := w.Go(func() {
				if w.If(in.Gt(zero)) {
					a.Lock()
					b.Lock()
					b.Unlock()
					a.Unlock()
				}
			})
			t2 := w.Go(func() {
				if w.If(second(in)) {
					b.Lock()
					a.Lock()
					a.Unlock()
					b.Unlock()
				}
			})
			t1.Join()
			t2.Join()
		}
	}
	for _, c := range []struct {
		name                 string
		second               func(weft.SInt) weft.SBool
		tests, deadlocks     int
		targetsCut, deadsCut int
	}{
		{"in > 0", func(in weft.SInt) weft.SBool { return in.Gt(zero) }, 3, 1, 2, 0},
		{"in > 1<<62", func(in weft.SInt) weft.SBool { return in.Gt(weft.Const[int64](1 << 62)) }, 4, 1, 1, 0},
		{"in <= 0", func(in weft.SInt) weft.SBool { return in.Le(zero) }, 2, 0, 3, 1},
	} {
		r, s := exploreSym(t, prog(c.second), unfold.Options{})
		sameAsBrute(t, c.name, prog(c.second), s, 1, append(small, 1<<62+1)...)
		st := s.Stats()
		if r.Executions != c.tests+c.deadlocks || st.Deadlocks != c.deadlocks || st.Infeasible != c.targetsCut+c.deadsCut || st.DeadlockTests != c.deadlocks || r.FailureCounts[trace.Deadlock] != c.deadlocks {
			t.Errorf("%s: %d executions, %+v, failures %v; want %d tests, %d deadlocks, %d + %d cut", c.name, r.Executions, st, r.FailureCounts, c.tests, c.deadlocks, c.targetsCut, c.deadsCut)
		}
		_, s = exploreSym(t, prog(c.second), unfold.Options{NoDeadlocks: true})
		if st := s.Stats(); st.Infeasible != c.targetsCut {
			t.Errorf("%s without the deadlock search: %+v; want %d targets cut", c.name, st, c.targetsCut)
		}
	}
}

// TestNoSolver: without a solver, a program whose target has a path
// constraint is refused when that target comes, with an error that says
// how to get one; a program that reads inputs but never branches on them
// needs none.
func TestNoSolver(t *testing.T) {
	s := unfold.New(unfold.Options{})
	r, err := weft.Explore(body("unfold-fig9", nil), weft.WithCustomStrategy(s), weft.KeepGoing(), weft.NoReplayFiles())
	if !errors.Is(err, unfold.ErrNoSolver) || !errors.Is(s.Err(), unfold.ErrNoSolver) || r.Executions != 2 {
		t.Errorf("unfold-fig9 without a solver: %d executions, error %v; want 2 and ErrNoSolver", r.Executions, err)
	}
	r, s = explore(t, func(w *weft.T) {
		x := weft.NewVar[weft.SInt]("x")
		in := w.Input("in")
		w.Go(func() { x.Store(in) })
		w.Go(func() { _ = x.Load() })
	}, unfold.Options{})
	if st := s.Stats(); s.Err() != nil || r.Executions != 2 || st.Events != 4 {
		t.Errorf("an input no branch reads, without a solver: %d executions, %+v, error %v; want 2 tests, 4 events", r.Executions, st, s.Err())
	}
}
