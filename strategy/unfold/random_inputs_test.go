// The differential test with inputs: on random programs whose threads
// branch on two inputs, read and write them through shared variables,
// lock, try to lock and compare-and-swap a flag, unfold makes exactly the
// events that brute force over the inputs' ranges and every interleaving
// makes.

package unfold_test

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/weft-go/weft"
	"github.com/weft-go/weft/internal/long"
	"github.com/weft-go/weft/strategy/unfold"
	"github.com/weft-go/weft/trace"
)

// inOp is a statement of a random program with inputs.
type inOp struct {
	kind int   // inRead, inWrite, inCAS (of the flag), inLock, inTryLock, inBranch
	v    int   // the shared variable
	src  int   // inWrite: 0 the local, 1 local+input, 2 c, 3 the input
	in   int   // the input used
	c    int64 // a constant
	cmp  int   // inBranch: 0 local < c, 1 local == input+c, 2 input > c
	then []inOp
	fail bool // inBranch: the true side fails; inCAS: a swap fails
}

const (
	inRead = iota
	inWrite
	inCAS
	inLock
	inTryLock
	inBranch
)

// genInProgram draws 2 or 3 threads of 1 to 3 statements over 1 or 2
// variables.
func genInProgram(r *rand.Rand) (threads [][]inOp, vars int) {
	vars = 1 + r.IntN(2)
	var gen func(depth int) inOp
	gen = func(depth int) inOp {
		c := int64(r.IntN(5) - 2)
		switch x := r.IntN(12); {
		case x < 3:
			return inOp{kind: inRead, v: r.IntN(vars)}
		case x < 6:
			return inOp{kind: inWrite, v: r.IntN(vars), src: r.IntN(4), in: r.IntN(2), c: c}
		case x < 8:
			return inOp{kind: inCAS, c: 7 * int64(r.IntN(2)), fail: r.IntN(2) == 0}
		case x < 9 && depth == 0:
			return inOp{kind: inLock, then: []inOp{gen(1)}}
		case x < 10 && depth == 0:
			return inOp{kind: inTryLock, then: []inOp{gen(1)}}
		default:
			op := inOp{kind: inBranch, cmp: r.IntN(3), in: r.IntN(2), c: c}
			if r.IntN(3) == 0 {
				op.fail = true
			} else if depth == 0 {
				op.then = []inOp{gen(1)}
			}
			return op
		}
	}
	for range 2 + r.IntN(2) {
		var th []inOp
		for range 1 + r.IntN(3) {
			th = append(th, gen(0))
		}
		threads = append(threads, th)
	}
	return threads, vars
}

// showIn prints a program, for failure messages.
func showIn(threads [][]inOp) string {
	var b strings.Builder
	var show func(ops []inOp, ind string)
	show = func(ops []inOp, ind string) {
		for _, o := range ops {
			switch o.kind {
			case inRead:
				fmt.Fprintf(&b, "%sl = v%d\n", ind, o.v)
			case inWrite:
				src := [...]string{"l", fmt.Sprintf("l+i%d", o.in), fmt.Sprint(o.c), fmt.Sprintf("i%d", o.in)}[o.src]
				fmt.Fprintf(&b, "%sv%d = %s\n", ind, o.v, src)
			case inCAS:
				fmt.Fprintf(&b, "%sif cas(flag, %d, %d) { fail: %v }\n", ind, o.c, 7-o.c, o.fail)
			case inLock, inTryLock:
				fmt.Fprintf(&b, "%s%s {\n", ind, [...]string{inLock: "lock", inTryLock: "if trylock"}[o.kind])
				show(o.then, ind+"  ")
				fmt.Fprintf(&b, "%s} unlock\n", ind)
			case inBranch:
				cond := [...]string{fmt.Sprintf("l < %d", o.c), fmt.Sprintf("l == i%d+%d", o.in, o.c), fmt.Sprintf("i%d > %d", o.in, o.c)}[o.cmp]
				fmt.Fprintf(&b, "%sif %s { fail: %v\n", ind, cond, o.fail)
				show(o.then, ind+"  ")
				fmt.Fprintf(&b, "%s}\n", ind)
			}
		}
	}
	for i, th := range threads {
		fmt.Fprintf(&b, "T%d:\n", i+1)
		show(th, "  ")
	}
	return b.String()
}

// inBody returns the body of a program: it reads inputs i0 and i1 in
// [-2, 2], then starts the threads, each with a local value starting at 0.
// The flag is a plain integer: a CompareAndSwap of a concolic variable
// that holds an input is refused (TestCASOnInputRefused).
func inBody(threads [][]inOp, vars int) func(*weft.T) {
	return func(w *weft.T) {
		k := weft.Const[int64]
		vs := make([]*weft.Var[weft.SInt], vars)
		for i := range vs {
			vs[i] = weft.NewVar[weft.SInt](fmt.Sprint("v", i))
		}
		mu := weft.NewMutex("mu")
		flag := weft.NewVar[int64]("flag")
		in := []weft.SInt{w.InputRange("i0", -2, 2), w.InputRange("i1", -2, 2)}
		var run func(ops []inOp, l *weft.SInt)
		run = func(ops []inOp, l *weft.SInt) {
			for _, o := range ops {
				switch o.kind {
				case inRead:
					*l = vs[o.v].Load()
				case inWrite:
					vs[o.v].Store([...]weft.SInt{*l, l.Add(in[o.in]), k(o.c), in[o.in]}[o.src])
				case inCAS:
					if flag.CompareAndSwap(o.c, 7-o.c) && o.fail {
						w.Fail("flag was %d", o.c)
					}
				case inLock:
					mu.Lock()
					run(o.then, l)
					mu.Unlock()
				case inTryLock:
					if mu.TryLock() {
						run(o.then, l)
						mu.Unlock()
					}
				case inBranch:
					cond := [...]weft.SBool{l.Lt(k(o.c)), l.Eq(in[o.in].Add(k(o.c))), in[o.in].Gt(k(o.c))}[o.cmp]
					if !w.If(cond) {
						continue
					}
					if o.fail {
						w.Fail("branch")
					}
					run(o.then, l)
				}
			}
		}
		for _, th := range threads {
			w.Go(func() {
				l := k(0)
				run(th, &l)
			})
		}
	}
}

// TestGeneratedInputs: on 10 random programs with inputs (40 with WEFT_LONG=1,
// from seed 0; a program with too many executions for brute force is
// replaced by the next seed), unfold's unfolding is the one brute force
// over the inputs' ranges and every interleaving gives: every event an
// execution reaches, unfold covers, and no other. The tests and events of
// all the programs are pinned (measured; the explorations are
// deterministic, given Z3's answers).
func TestGeneratedInputs(t *testing.T) {
	t.Parallel()
	n, wantTests, wantEvents := 40, 367, 1320
	if !long.Enabled() {
		n, wantTests, wantEvents = 10, 178, 674
	}
	checked, tests, events := 0, 0, 0
	for seed := uint64(0); checked < n && seed < uint64(2*n); seed++ {
		threads, vars := genInProgram(rand.New(rand.NewPCG(seed, 11)))
		body := inBody(threads, vars)
		want, ok := bruteSigs(t, body, 20000, 2, -2, -1, 0, 1, 2)
		if !ok {
			continue // too many executions for brute force
		}
		checked++
		r, s := exploreSym(t, body, unfold.Options{})
		got := unfold.Signatures(s)
		st := s.Stats()
		if d := unfold.Diff(got, want, "unfold", "brute force"); d != "" || s.Err() != nil || st.Unexpected != 0 {
			t.Errorf("seed %d: %d events, brute force %d; %d unexpected; err %v\n%s\n%s", seed, len(got), len(want), st.Unexpected, s.Err(), d, showIn(threads))
		}
		tests += r.Executions
		events += st.Events
	}
	if checked < n {
		t.Errorf("checked %d programs, want %d", checked, n)
	}
	if tests != wantTests || events != wantEvents {
		t.Errorf("%d programs: %d tests, %d events; want %d, %d", checked, tests, events, wantTests, wantEvents)
	}
}

// TestRetry: generated program 579, whose third thread fails in its
// initial local code whatever the inputs (after a branch on i1, or at l <
// 1), so that a target's test fails before reaching it; the target is
// taken again with the failing side avoided (Stats.Retried), which
// makes its path constraint unsatisfiable. 2 events, as brute force; 2
// tests, 2 targets cut.
func TestRetry(t *testing.T) {
	threads, vars := genInProgram(rand.New(rand.NewPCG(579, 11)))
	body := inBody(threads, vars)
	want, _ := bruteSigs(t, body, 0, 2, -2, -1, 0, 1, 2)
	r, s := exploreSym(t, body, unfold.Options{})
	got := unfold.Signatures(s)
	st := s.Stats()
	if d := unfold.Diff(got, want, "unfold", "brute force"); d != "" || len(got) != 2 || r.Executions != 2 || st.Retried != 1 || st.Infeasible != 2 || s.Err() != nil {
		t.Errorf("%d events, %d tests, %+v, err %v; want 2 events (brute force %d), 2 tests, 1 retried, 2 cut\n%s\n%s", len(got), r.Executions, st, s.Err(), len(want), d, showIn(threads))
	}
}

// TestRetryChain: a thread fails in the local code after its store of x
// when two branches on inputs in a row take their true sides (a > 0,
// then b > 0); another thread loads x and, if it read the store, branches
// on the same conditions. Its true sides after that load need a > 0 and
// b > 0, where the first thread fails before the load: the path
// constraint of that target avoids the failure through both branches
// (fatalPaths), and the target is cut as unsatisfiable (it was run to
// that failure before reaching it, and the strategy stopped: "the test
// did not reach its target"). The store before or after the load (2),
// the 4 branch events after each, the loads (2), the second thread's
// sides of a > 0 (2) and the false side of b > 0: 15 events, brute
// force's; 6 tests, 1 target cut.
func TestRetryChain(t *testing.T) {
	zero := weft.Const[int64](0)
	body := func(w *weft.T) {
		x := weft.NewVar[int]("x")
		a, b := w.Input("a"), w.Input("b")
		w.Go(func() {
			x.Store(1)
			if w.If(a.Gt(zero)) && w.If(b.Gt(zero)) {
				w.Fail("a > 0 and b > 0")
			}
		})
		w.Go(func() {
			if x.Load() == 1 && w.If(a.Gt(zero)) && w.If(b.Gt(zero)) {
				_ = x.Load()
			}
		})
	}
	want, _ := bruteSigs(t, body, 0, 2, -1, 0, 1)
	r, s := exploreSym(t, body, unfold.Options{})
	got := unfold.Signatures(s)
	st := s.Stats()
	if d := unfold.Diff(got, want, "unfold", "brute force"); d != "" || len(got) != 15 || r.Executions != 6 || st.Infeasible != 1 || s.Err() != nil || s.Diverged() != nil || r.FailureCounts[trace.Assertion] == 0 {
		t.Errorf("%d events, %d tests, %+v, err %v %v; want 15 events (brute force %d), 6 tests, 1 cut\n%s", len(got), r.Executions, st, s.Err(), s.Diverged(), len(want), d)
	}
}
