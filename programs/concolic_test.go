// Tests of the concolic programs: each failure is found by the concolic
// strategies with the inputs and schedule it needs.

package programs

import (
	"errors"
	"slices"
	"testing"

	"github.com/weft-go/weft"
	_ "github.com/weft-go/weft/concolic" // the concolic strategies
	"github.com/weft-go/weft/solver"
	"github.com/weft-go/weft/strategy"
	"github.com/weft-go/weft/strategy/exhaustive"
	"github.com/weft-go/weft/trace"
)

// exploreConcolic runs program name under strategy, skipping without Z3.
func exploreConcolic(t *testing.T, name, strategy string) *weft.Result {
	t.Helper()
	r, err := weft.Explore(Lookup(name).MustBody(nil), weft.WithStrategy(strategy))
	if errors.Is(err, solver.ErrUnavailable) {
		t.Skipf("no Z3: %v", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Failures) != 1 || r.Failures[0].Kind != trace.Assertion {
		t.Fatalf("%s under %s: failures %v, want one assertion", name, strategy, r.FailureCounts)
	}
	return r
}

// The inputs that make each program fail (addall's: see
// TestAddAllFailingInputs).
var (
	jcuteInputs = func(in []uint64) bool { return len(in) == 1 && in[0] == 1 }
	fig9Inputs  = func(in []uint64) bool { return len(in) == 1 && int64(in[0]) > 0 }
	// u.cnt >= 6: 20 < u + (10 + u) after the other thread's append.
	addAllInputs  = func(in []uint64) bool { return len(in) == 1 && in[0] >= 6 && in[0] <= 10 }
	linCombInputs = func(in []uint64) bool {
		return len(in) == 4 && int64(3*in[0]+5*in[1]+7*in[2]-11*in[3]) == LinCombTarget
	}
)

func TestConcolicPrograms(t *testing.T) {
	for _, tc := range []struct {
		program, strategy string
		executions        int
		check             func(in []uint64) bool
		sat, unsat        int64 // the solver's answers (measured; all sat or unsat)
	}{
		// The combined tree (strategy/concolic): executions up to the
		// failure, under each inner strategy. jcute: 2z+1 == 2 is unsat,
		// 2z+1 == 3 sat (TestJCute); the others measured.
		{"jcute", "concolic", 3, jcuteInputs, 1, 1},
		{"jcute", "concolic-dpor", 3, jcuteInputs, 1, 1},
		{"jcute", "concolic-optimal", 3, jcuteInputs, 1, 1},
		{"unfold-fig9", "concolic", 4, fig9Inputs, 1, 0},
		{"unfold-fig9", "concolic-dpor", 4, fig9Inputs, 1, 0},
		{"unfold-fig9", "concolic-optimal", 3, fig9Inputs, 1, 0},
		{"addall", "concolic", 83, addAllInputs, 3, 9},
		{"addall", "concolic-dpor", 8, addAllInputs, 3, 9},
		{"addall", "concolic-optimal", 6, addAllInputs, 3, 9},
		{"lincomb", "concolic", 2, linCombInputs, 1, 0},
		{"lincomb", "concolic-dpor", 2, linCombInputs, 1, 0},
		{"lincomb", "concolic-optimal", 2, linCombInputs, 1, 0},
	} {
		t.Run(tc.program+"/"+tc.strategy, func(t *testing.T) {
			r := exploreConcolic(t, tc.program, tc.strategy)
			f := r.Failures[0]
			if !tc.check(f.Record.Inputs) {
				t.Errorf("inputs %v do not make the failure", f.Record.Inputs)
			}
			if r.Executions != tc.executions {
				t.Errorf("executions %d, want %d", r.Executions, tc.executions)
			}
			if s := r.Solver; s.Sat != tc.sat || s.Unsat != tc.unsat || s.Queries != tc.sat+tc.unsat || s.Unknown != 0 || s.Timeouts != 0 {
				t.Errorf("solver %+v; want %d sat, %d unsat, nothing else", s, tc.sat, tc.unsat)
			}
			rr, err := weft.Replay(Lookup(tc.program).MustBody(nil), f.Token)
			if err != nil || len(rr.Failures) != 1 || rr.Failures[0].Kind != trace.Assertion {
				t.Errorf("replay: %v, %v; want the assertion again", err, rr.FailureCounts)
			}
		})
	}
}

// TestLinCombRandom: 1000 random executions do not find lincomb's failure,
// which needs 3a+5b+7c-11d to hit one 64-bit value.
func TestLinCombRandom(t *testing.T) {
	r, err := weft.Explore(Lookup("lincomb").MustBody(nil), weft.WithStrategy("random"), weft.WithSeed(1), weft.WithMaxRuns(1000))
	if err != nil {
		t.Fatal(err)
	}
	if r.Failed() || r.Executions != 1000 {
		t.Errorf("random: %d executions, failures %v; want 1000 and none", r.Executions, r.FailureCounts)
	}
}

// TestUnfoldFig9Schedule: T2's write precedes T1's read.
func TestUnfoldFig9Schedule(t *testing.T) {
	r := exploreConcolic(t, "unfold-fig9", "concolic")
	var order []trace.ThreadID
	for _, s := range r.Failures[0].Record.Steps {
		order = append(order, s.Thread)
	}
	// body stores x; T2 loads and stores; T1 loads.
	want := []trace.ThreadID{0, 2, 2, 1}
	if len(order) != len(want) {
		t.Fatalf("schedule %v, want %v", order, want)
	}
	for i := range want {
		if order[i] != want[i] {
			t.Fatalf("schedule %v, want %v", order, want)
		}
	}
}

// TestUnfoldFig1: Kähkönen et al. 2014's Fig. 1 explored to the end. The first
// execution (inputs 0) takes thread 1's false side and thread 2's true side
// of b == 0. Four sides are opened, one sat query each: thread 1's true
// side (a = 4); the false side of b == 0, under thread 1's false side and
// again under its true side (the path holds thread 1's branch); the true
// side of b == a after thread 1's write. The schedules below them are
// those the inner strategy explores (the two reads commute for optimal
// only, whose relation is trace.CR).
func TestUnfoldFig1(t *testing.T) {
	for _, tc := range []struct {
		strategy   string
		executions int
	}{
		{"concolic", 8},
		{"concolic-dpor", 8},
		{"concolic-optimal", 6},
	} {
		t.Run(tc.strategy, func(t *testing.T) {
			r, err := weft.Explore(Lookup("unfold-fig1").MustBody(nil), weft.WithStrategy(tc.strategy), weft.KeepGoing())
			if errors.Is(err, solver.ErrUnavailable) {
				t.Skipf("no Z3: %v", err)
			}
			if err != nil {
				t.Fatal(err)
			}
			if r.Executions != tc.executions || r.Complete != tc.executions || r.Failed() || !r.Exhausted ||
				r.Solver.Queries != 4 || r.Solver.Sat != 4 {
				t.Errorf("%d executions (%d complete, failures %v, exhausted %v), solver %+v; want %d complete, 4 sat queries",
					r.Executions, r.Complete, r.FailureCounts, r.Exhausted, r.Solver, tc.executions)
			}
		})
	}
}

// fixedInput explores every schedule with one value for every input.
type fixedInput struct {
	strategy.Strategy
	v uint64
}

func (f fixedInput) Input(*strategy.State, strategy.InputRequest) uint64 { return f.v }

// TestAddAllFailingInputs recomputes, by brute force, the inputs for which
// addall can fail (Farzan et al. 2013's addAll; the set addAllInputs and the
// program's doc give): every schedule of every u.cnt in its range [0, 100]
// under exhaustive search. The assertion fails for u.cnt 6 to 10 only.
func TestAddAllFailingInputs(t *testing.T) {
	body := Lookup("addall").MustBody(nil)
	var failing []uint64
	for u := range uint64(101) {
		r, err := weft.Explore(body, weft.WithCustomStrategy(fixedInput{exhaustive.New(), u}), weft.KeepGoing(), weft.WithMaxRuns(0))
		if err != nil {
			t.Fatal(err)
		}
		if !r.Exhausted {
			t.Fatalf("u.cnt = %d: exhaustive search did not finish", u)
		}
		if r.Failed() {
			failing = append(failing, u)
		}
		if addAllInputs([]uint64{u}) != r.Failed() {
			t.Errorf("u.cnt = %d: failed %v (%v), addAllInputs says %v", u, r.Failed(), r.FailureCounts, addAllInputs([]uint64{u}))
		}
	}
	if want := []uint64{6, 7, 8, 9, 10}; !slices.Equal(failing, want) {
		t.Errorf("failing inputs %v, want %v", failing, want)
	}
}
