// Tests of concolic values, inputs and the concolic strategies.

package weft_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/weft-go/weft"
	_ "github.com/weft-go/weft/concolic" // the concolic strategies
	"github.com/weft-go/weft/programs"
	"github.com/weft-go/weft/solver"
	"github.com/weft-go/weft/strategy"
	"github.com/weft-go/weft/strategy/concolic"
	"github.com/weft-go/weft/strategy/exhaustive"
	"github.com/weft-go/weft/strategy/replay"
	"github.com/weft-go/weft/trace"
)

// concolicOrSkip explores body with the concolic strategy, skipping the
// test when Z3 is not available.
func concolicOrSkip(t *testing.T, body func(w *weft.T), opts ...weft.Option) *weft.Result {
	t.Helper()
	r, err := weft.Explore(body, append([]weft.Option{weft.WithStrategy("concolic")}, opts...)...)
	if errors.Is(err, solver.ErrUnavailable) {
		t.Skipf("no Z3: %v", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestSymSemantics checks every operator against Go's on random inputs:
// the concrete value is Go's, and the expression evaluates to it under the
// inputs' model.
func TestSymSemantics(t *testing.T) {
	var bad []string
	body := func(w *weft.T) {
		x, y := w.Input("x"), w.Input("y")
		x32, y32 := weft.InputOf[int32](w, "x32"), weft.InputOf[int32](w, "y32")
		u, v := weft.InputOf[uint8](w, "u"), weft.InputRangeOf[uint8](w, "v", 0, 9)
		m := solver.Model{"x": uint64(x.Value()), "y": uint64(y.Value()),
			"x32": uint64(uint32(x32.Value())), "y32": uint64(uint32(y32.Value())),
			"u": uint64(u.Value()), "v": uint64(v.Value())}
		check := func(name string, e solver.Expr, want uint64) {
			got, err := solver.Eval(e, m)
			if err != nil || got != want {
				bad = append(bad, fmt.Sprintf("%s: %v: eval %d (%v), want %d", name, m, got, err, want))
			}
		}
		i64 := func(name string, s weft.SInt, want int64) {
			if s.Value() != want {
				bad = append(bad, fmt.Sprintf("%s: value %d, want %d", name, s.Value(), want))
			}
			check(name, s.Expr(), uint64(want))
		}
		i32 := func(name string, s weft.SInt32, want int32) {
			if s.Value() != want {
				bad = append(bad, fmt.Sprintf("%s: value %d, want %d", name, s.Value(), want))
			}
			check(name, s.Expr(), uint64(uint32(want)))
		}
		u8 := func(name string, s weft.Sym[uint8], want uint8) {
			if s.Value() != want {
				bad = append(bad, fmt.Sprintf("%s: value %d, want %d", name, s.Value(), want))
			}
			check(name, s.Expr(), uint64(want))
		}
		b := func(name string, s weft.SBool, want bool) {
			if s.Value() != want {
				bad = append(bad, fmt.Sprintf("%s: value %v, want %v", name, s.Value(), want))
			}
			var w uint64
			if want {
				w = 1
			}
			check(name, s.Expr(), w)
		}
		a, c := x.Value(), y.Value()
		i64("add", x.Add(y), a+c)
		i64("sub", x.Sub(y), a-c)
		i64("mul", x.Mul(y), a*c)
		i64("neg", x.Neg(), -a)
		i64("and", x.And(y), a&c)
		i64("or", x.Or(y), a|c)
		i64("xor", x.Xor(y), a^c)
		i64("not", x.Not(), ^a)
		if c != 0 {
			i64("div", x.Div(y), a/c)
			i64("rem", x.Rem(y), a%c)
		}
		i64("minint/-1", weft.Const[int64](-1<<63).Div(weft.Const[int64](-1).Add(y.Sub(y))), -1<<63)
		sh := weft.Convert[int64](v) // 0..9, and 9*8 = 72 > 64 below
		i64("shl", x.Shl(sh.Mul(weft.Const[int64](8))), a<<(sh.Value()*8))
		i64("shr", x.Shr(sh.Mul(weft.Const[int64](8))), a>>(sh.Value()*8))
		b("eq", x.Eq(y), a == c)
		b("lt", x.Lt(y), a < c)
		b("le", x.Le(y), a <= c)
		b("gt", x.Gt(y), a > c)
		b("ge", x.Ge(y), a >= c)
		b("ne", x.Ne(y), a != c)
		b("and/or/not", x.Lt(y).And(y.Gt(x)).Or(x.Eq(y).Not()), (a < c && c > a) || a != c)
		p, q := x32.Value(), y32.Value()
		i32("add32", x32.Add(y32), p+q)
		i32("mul32", x32.Mul(y32), p*q)
		if q != 0 {
			i32("div32", x32.Div(y32), p/q)
			i32("rem32", x32.Rem(y32), p%q)
		}
		i32("trunc", weft.Convert[int32](x), int32(a))
		i64("sext", weft.Convert[int64](x32), int64(p))
		b("lt32", x32.Lt(y32), p < q)
		uu, vv := u.Value(), v.Value()
		u8("add8", u.Add(v), uu+vv)
		u8("div8", u.Div(v.Add(weft.Const[uint8](1))), uu/(vv+1))
		u8("shr8", u.Shr(v), uu>>vv)
		u8("shl8", u.Shl(v), uu<<vv)
		b("lt8", u.Lt(v), uu < vv)
		i64("zext", weft.Convert[int64](u), int64(uu))
		if vv > 9 {
			bad = append(bad, fmt.Sprintf("v = %d outside its range [0, 9]", vv))
		}
	}
	r, err := weft.Explore(body, weft.WithStrategy("random"), weft.WithSeed(3), weft.WithMaxRuns(300))
	if err != nil {
		t.Fatal(err)
	}
	if r.Failed() {
		t.Fatal(r.Failures[0].Report(""))
	}
	if r.Executions != 300 {
		t.Errorf("%d executions, want 300: every one checks every operator", r.Executions)
	}
	for _, s := range bad[:min(len(bad), 10)] {
		t.Error(s)
	}
}

// TestConcreteStaysConcrete: values that depend on no input carry no
// expression, and If records nothing for them.
func TestConcreteStaysConcrete(t *testing.T) {
	x := weft.Const[int64](6).Mul(weft.Const[int64](7))
	if x.Symbolic() || x.Value() != 42 {
		t.Errorf("6*7 = %v, want concrete 42", x)
	}
	if x.Eq(weft.Const[int64](42)).Symbolic() {
		t.Error("a comparison of constants is symbolic")
	}
}

// TestJCute: z = 1, and T1's write between T2's write and T2's read.
func TestJCute(t *testing.T) {
	r := concolicOrSkip(t, jcuteBody())
	if len(r.Failures) != 1 {
		t.Fatalf("failures = %d, want 1", len(r.Failures))
	}
	f := r.Failures[0]
	if f.Kind != trace.Assertion || !slices.Equal(f.Record.Inputs, []uint64{1}) {
		t.Fatalf("failure %v with inputs %v, want an assertion with z = 1", f.Kind, f.Record.Inputs)
	}
	var sched []trace.ThreadID
	for _, s := range f.Record.Steps {
		sched = append(sched, s.Thread)
	}
	if want := []trace.ThreadID{2, 1, 2}; !slices.Equal(sched, want) {
		t.Errorf("schedule %v, want %v (T2 writes, T1 writes, T2 reads)", sched, want)
	}
	// With z = 0: T1, T2, T2 reads 2 (2z+1 == 2: unsat, pruned); T2, T1,
	// T2 reads 3 (2z+1 == 3: z = 1), whose subtree (its prefix is the
	// three events) fails in its first execution.
	if r.Executions != 3 || r.Solver.Unsat != 1 || r.Solver.Sat != 1 {
		t.Errorf("executions %d, solver %+v; want 3 executions, 1 sat, 1 unsat", r.Executions, r.Solver)
	}
}

// jcuteBody is the built-in jcute program (programs/jcute.go).
func jcuteBody() func(w *weft.T) { return programs.Lookup("jcute").MustBody(nil) }

// TestJCuteReplay: the token carries the input, and replaying it fails
// the same way; a record without the input diverges.
func TestJCuteReplay(t *testing.T) {
	body := jcuteBody()
	r := concolicOrSkip(t, body)
	f := r.Failures[0]
	rec, err := replay.Decode(f.Token)
	if err != nil || !slices.Equal(rec.Inputs, []uint64{1}) {
		t.Fatalf("decoded inputs %v (%v), want [1]", rec.Inputs, err)
	}
	rr, err := weft.Replay(body, f.Token)
	if err != nil || len(rr.Failures) != 1 || rr.Failures[0].Kind != trace.Assertion || rr.Failures[0].Token != f.Token {
		t.Fatalf("replay: %v, %+v; want the same assertion and token", err, rr)
	}
	rec.Inputs = []uint64{0}
	rr, err = weft.Replay(body, replay.Encode(rec))
	if err != nil || rr.Failed() {
		t.Fatalf("replay with z = 0: %v, failed %v; want no failure", err, rr.Failed())
	}
}

// TestBranchCoverage: nested ifs on one thread have exactly 5 paths, one
// execution each.
func TestBranchCoverage(t *testing.T) {
	paths := map[string]bool{}
	body := func(w *weft.T) {
		x, y := w.InputRange("x", -100, 100), w.Input("y")
		k := func(v int64) weft.SInt { return weft.Const(v) }
		p := ""
		if w.If(x.Gt(k(10))) {
			p = "a"
			if w.If(y.Eq(x.Add(k(1)))) {
				p += "b"
			} else if w.If(y.Lt(k(0))) {
				p += "c"
			}
		} else if w.If(x.Lt(k(-5))) {
			p = "d"
		} else {
			p = "e"
		}
		paths[p] = true
	}
	r := concolicOrSkip(t, body)
	if len(paths) != 5 || r.Executions != 5 || !r.Exhausted {
		t.Errorf("paths %v in %d executions (exhausted %v), want 5 in 5", paths, r.Executions, r.Exhausted)
	}
}

// TestUnsatPruned: x > 5 && x < 3 is infeasible: one unsat query, and the
// failure is never reached.
func TestUnsatPruned(t *testing.T) {
	body := func(w *weft.T) {
		x := w.Input("x")
		if w.If(x.Gt(weft.Const[int64](5))) {
			if w.If(x.Lt(weft.Const[int64](3))) {
				w.Fail("unreachable")
			}
		}
	}
	r := concolicOrSkip(t, body)
	if r.Failed() || r.Executions != 2 || r.Solver.Queries != 2 || r.Solver.Sat != 1 || r.Solver.Unsat != 1 {
		t.Errorf("failed %v, executions %d, solver %+v; want 2 executions, 1 sat and 1 unsat query", r.Failed(), r.Executions, r.Solver)
	}
}

// TestDivideByZero: the divisor check is a branch, so concolic testing
// finds the input that makes it zero.
func TestDivideByZero(t *testing.T) {
	body := func(w *weft.T) {
		x := w.Input("x")
		_ = weft.Const[int64](100).Div(x.Sub(weft.Const[int64](7)))
	}
	r := concolicOrSkip(t, body)
	if len(r.Failures) != 1 || r.Failures[0].Kind != trace.DivideByZero || !slices.Equal(r.Failures[0].Record.Inputs, []uint64{7}) {
		t.Fatalf("failures %+v, want a division by zero with x = 7", r.Failures)
	}
	// x = 0 passes the check; its other side, x - 7 == 0, is one sat
	// query, whose execution fails.
	if r.Executions != 2 || r.Solver.Queries != 1 || r.Solver.Sat != 1 {
		t.Errorf("%d executions, solver %+v; want 2 executions, 1 sat query", r.Executions, r.Solver)
	}
}

// timeoutSolver answers every query with a timeout.
type timeoutSolver struct{ stats solver.Stats }

func (s *timeoutSolver) Check(ctx context.Context, cs []solver.Expr) (solver.Result, error) {
	r, _, err := s.CheckCore(ctx, cs)
	return r, err
}

func (s *timeoutSolver) CheckCore(context.Context, []solver.Expr) (solver.Result, []int, error) {
	s.stats.Queries++
	s.stats.Unknown++
	s.stats.Timeouts++
	return solver.Result{}, nil, fmt.Errorf("fake: %w", solver.ErrTimeout)
}

func (s *timeoutSolver) Stats() solver.Stats { return s.stats }
func (s *timeoutSolver) Close() error        { return nil }

// TestSolverTimeout: a timeout is reported, never taken for unsat, and the
// query is asked again (up to concolic.MaxTries) when another schedule
// produces it.
func TestSolverTimeout(t *testing.T) {
	x := weft.NewVar[int]("x")
	body := func(w *weft.T) {
		z := w.Input("z")
		w.Go(func() { x.Store(1) })
		w.Go(func() { x.Store(2) })
		if w.If(z.Eq(weft.Const[int64](42))) {
			w.Fail("z == 42")
		}
	}
	s := concolic.New(func() strategy.Strategy { return exhaustive.New() }, &timeoutSolver{})
	r, err := weft.Explore(body, weft.WithCustomStrategy(s))
	if err != nil {
		t.Fatal(err)
	}
	st := s.Stats()
	// The body's branch comes first in every one of the 2 schedules: the
	// same query, asked twice (MaxTries), never answered.
	if r.Failed() || r.Executions != 2 || r.Solver.Timeouts != concolic.MaxTries || r.Solver.Unsat != 0 ||
		st.TimedOut != concolic.MaxTries || st.Pruned != 0 {
		t.Errorf("failed %v, executions %d, solver %+v, strategy %+v; want 2 executions, %d timeouts, no unsat",
			r.Failed(), r.Executions, r.Solver, st, concolic.MaxTries)
	}
}

// TestSetupError: a concolic strategy that could not be set up makes
// Explore fail with its error.
func TestSetupError(t *testing.T) {
	_, err := weft.Explore(func(*weft.T) {}, weft.WithCustomStrategy(concolic.Failed(solver.ErrUnavailable)))
	if !errors.Is(err, solver.ErrUnavailable) {
		t.Fatalf("err = %v, want one wrapping solver.ErrUnavailable", err)
	}
}

// TestCASOnInput: a CompareAndSwap of a concolic variable compares values
// and, when they depend on inputs, records the comparison as a branch of
// its step (trace.BranchEvent.OfStep): the body stores an input in x, then
// swaps x from 1 and fails if it did; each concolic strategy finds the
// input 1 (== on Sym compared expressions too: no input made it fail).
func TestCASOnInput(t *testing.T) {
	body := func(w *weft.T) {
		x := weft.NewVar[weft.SInt]("x")
		x.Store(w.InputRange("in", -2, 2))
		if x.CompareAndSwap(weft.Const[int64](1), weft.Const[int64](5)) {
			w.Fail("x was 1")
		}
	}
	for _, name := range []string{"concolic", "concolic-dpor", "concolic-optimal"} {
		r := concolicOrSkip(t, body, weft.WithStrategy(name), weft.KeepGoing())
		if len(r.Failures) != 1 || r.Failures[0].Kind != trace.Assertion || len(r.Failures[0].Inputs) != 1 || r.Failures[0].Inputs[0].Value != 1 {
			t.Errorf("%s: failures %+v; want one assertion, with in = 1", name, r.Failures)
		}
	}
}
