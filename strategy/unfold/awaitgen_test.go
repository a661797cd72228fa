// The generated sweep of w.Awaits whose conditions branch on inputs:
// random programs whose threads read and write shared variables from two
// inputs, branch on them, and wait in w.Awaits whose conditions compare
// variables, locals and inputs, against every interleaving for every
// vector of inputs.

package unfold_test

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/weft-go/weft"
	"github.com/weft-go/weft/strategy/unfold"
	"github.com/weft-go/weft/trace"
)

// awOp is a statement of a generated program with awaits on inputs.
type awOp struct {
	kind  int   // awRead, awWrite, awBranch, awAwait, awLock
	v, v2 int   // the shared variables
	src   int   // awWrite: 0 the local, 1 local+input, 2 c, 3 the input
	in    int   // the input used
	c     int64 // a constant
	cond  int   // awAwait: the form of the condition (awCond)
	then  []awOp
	fail  bool // awBranch: the true side fails
}

const (
	awRead = iota
	awWrite
	awBranch
	awAwait
	awLock
)

// awConds are the forms of the generated awaits' conditions, for
// failure messages.
var awConds = [...]string{
	"v%[1]d > %[3]d",
	"v%[1]d == i%[4]d+%[3]d",
	"i%[4]d > %[3]d || v%[1]d == %[3]d",
	"v%[1]d < %[3]d && v%[2]d >= i%[4]d",
	"l+v%[1]d > %[3]d",
	"v%[1]d != 0 && i%[4]d != %[3]d",
}

// genAwProgram draws 2 or 3 threads of 1 to 3 statements over 1 or 2
// variables, one await at least.
func genAwProgram(r *rand.Rand) (threads [][]awOp, vars int) {
	vars = 1 + r.IntN(2)
	await := func() awOp {
		return awOp{kind: awAwait, v: r.IntN(vars), v2: r.IntN(vars), in: r.IntN(2), c: int64(r.IntN(5) - 2), cond: r.IntN(len(awConds))}
	}
	var gen func(depth int) awOp
	gen = func(depth int) awOp {
		c := int64(r.IntN(5) - 2)
		switch x := r.IntN(12); {
		case x < 2:
			return awOp{kind: awRead, v: r.IntN(vars)}
		case x < 6:
			return awOp{kind: awWrite, v: r.IntN(vars), src: r.IntN(4), in: r.IntN(2), c: c}
		case x < 8:
			return await()
		case x < 9 && depth == 0:
			return awOp{kind: awLock, then: []awOp{gen(1)}}
		default:
			op := awOp{kind: awBranch, in: r.IntN(2), c: c}
			if r.IntN(3) == 0 {
				op.fail = true
			} else if depth == 0 {
				op.then = []awOp{gen(1)}
			}
			return op
		}
	}
	for range 2 + r.IntN(2) {
		var th []awOp
		for range 1 + r.IntN(3) {
			th = append(th, gen(0))
		}
		if th[0].kind == awBranch {
			// A thread that fails in its initial local code ends the
			// execution before the body starts the next threads: unfold
			// takes executions that start fewer threads before their
			// first step than another for a divergence.
			th = append([]awOp{{kind: awRead}}, th...)
		}
		threads = append(threads, th)
	}
	if !hasAwait(threads) {
		i := r.IntN(len(threads))
		threads[i] = append(threads[i], await())
	}
	return threads, vars
}

// hasAwait reports whether a thread of threads awaits.
func hasAwait(threads [][]awOp) bool {
	var in func(ops []awOp) bool
	in = func(ops []awOp) bool {
		for _, o := range ops {
			if o.kind == awAwait || in(o.then) {
				return true
			}
		}
		return false
	}
	for _, th := range threads {
		if in(th) {
			return true
		}
	}
	return false
}

// showAw prints a program, for failure messages.
func showAw(threads [][]awOp) string {
	var b strings.Builder
	var show func(ops []awOp, ind string)
	show = func(ops []awOp, ind string) {
		for _, o := range ops {
			switch o.kind {
			case awRead:
				fmt.Fprintf(&b, "%sl = v%d\n", ind, o.v)
			case awWrite:
				src := [...]string{"l", fmt.Sprintf("l+i%d", o.in), fmt.Sprint(o.c), fmt.Sprintf("i%d", o.in)}[o.src]
				fmt.Fprintf(&b, "%sv%d = %s\n", ind, o.v, src)
			case awBranch:
				fmt.Fprintf(&b, "%sif i%d > %d { fail: %v\n", ind, o.in, o.c, o.fail)
				show(o.then, ind+"  ")
				fmt.Fprintf(&b, "%s}\n", ind)
			case awAwait:
				fmt.Fprintf(&b, "%sawait %s\n", ind, fmt.Sprintf(awConds[o.cond], o.v, o.v2, o.c, o.in))
			case awLock:
				fmt.Fprintf(&b, "%slock {\n", ind)
				show(o.then, ind+"  ")
				fmt.Fprintf(&b, "%s} unlock\n", ind)
			}
		}
	}
	for i, th := range threads {
		fmt.Fprintf(&b, "T%d:\n", i+1)
		show(th, "  ")
	}
	return b.String()
}

// awBody returns the body of a program: it reads inputs i0 and i1 in
// [-2, 2], then starts the threads, each with a local value starting at
// 0, and returns (a thread blocked for good is a leak).
func awBody(threads [][]awOp, vars int) func(*weft.T) {
	return func(w *weft.T) {
		k := weft.Const[int64]
		vs := make([]*weft.Var[weft.SInt], vars)
		for i := range vs {
			vs[i] = weft.NewVar[weft.SInt](fmt.Sprint("v", i))
		}
		mu := weft.NewMutex("mu")
		in := []weft.SInt{w.InputRange("i0", -2, 2), w.InputRange("i1", -2, 2)}
		cond := func(o awOp, l weft.SInt) bool {
			v, v2, i, c := vs[o.v], vs[o.v2], in[o.in], k(o.c)
			switch o.cond {
			case 0:
				return w.If(v.Load().Gt(c))
			case 1:
				return w.If(v.Load().Eq(i.Add(c)))
			case 2:
				return w.If(i.Gt(c)) || w.If(v.Load().Eq(c))
			case 3:
				return w.If(v.Load().Lt(c)) && w.If(v2.Load().Ge(i))
			case 4:
				return w.If(l.Add(v.Load()).Gt(c))
			}
			return w.If(v.Load().Ne(k(0))) && w.If(i.Ne(c))
		}
		var run func(ops []awOp, l *weft.SInt)
		run = func(ops []awOp, l *weft.SInt) {
			for _, o := range ops {
				switch o.kind {
				case awRead:
					*l = vs[o.v].Load()
				case awWrite:
					vs[o.v].Store([...]weft.SInt{*l, l.Add(in[o.in]), k(o.c), in[o.in]}[o.src])
				case awBranch:
					if !w.If(in[o.in].Gt(k(o.c))) {
						continue
					}
					if o.fail {
						w.Fail("branch")
					}
					run(o.then, l)
				case awAwait:
					w.Await(func() bool { return cond(o, *l) })
				case awLock:
					mu.Lock()
					run(o.then, l)
					mu.Unlock()
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

// againstBrute explores body with unfold (and Z3) under each of opts and checks its
// unfolding against that of every interleaving for every vector of two
// inputs in [-2, 2]: the same events, every set of threads brute force
// found blocked found blocked by unfold, blocked executions in one if in
// the other, the same failure kinds. It returns the statistics of the
// first exploration, the number of its events of awaits whose evaluation branched on inputs,
// whether brute force found threads blocked, and false if brute force
// needed more than maxRuns executions (nothing checked then).
func againstBrute(t *testing.T, name string, body func(*weft.T), maxRuns int, opts ...unfold.Options) (st unfold.Stats, paths int, blocks, ok bool) {
	t.Helper()
	var vs [][]uint64
	for _, a := range []int64{-2, -1, 0, 1, 2} {
		for _, b := range []int64{-2, -1, 0, 1, 2} {
			vs = append(vs, []uint64{uint64(a), uint64(b)})
		}
	}
	obs, sigs, stuck := unfold.NewObserverDeadlocks(false, vs...)
	br, err := weft.Explore(body, weft.WithCustomStrategy(obs), weft.KeepGoing(), weft.NoReplayFiles(), weft.WithMaxRuns(maxRuns))
	if err != nil {
		t.Fatal(err)
	}
	if !br.Exhausted {
		return unfold.Stats{}, 0, false, false
	}
	want, err := sigs()
	if err != nil {
		t.Fatalf("%s: observer: %v", name, err)
	}
	blocked := br.FailureCounts[trace.Deadlock] + br.FailureCounts[trace.Leak]
	for i, o := range opts {
		r, s := exploreSym(t, body, o)
		got := unfold.Signatures(s)
		found := r.FailureCounts[trace.Deadlock] + r.FailureCounts[trace.Leak]
		missed, ok := unfold.Covers(unfold.DeadlockSigs(s, false), stuck())
		if i == 0 {
			st = s.Stats()
			for _, e := range got {
				if strings.Contains(e, " path ") {
					paths++
				}
			}
		}
		if d := unfold.Diff(got, want, "unfold", "brute force"); d != "" || s.Err() != nil || s.Diverged() != nil || !r.Exhausted || s.Stats().Unexpected != 0 || !ok ||
			(blocked > 0) != (found > 0) || !maps.Equal(kinds(r), kinds(br)) {
			t.Errorf("%s %+v: %d events, brute force %d; err %v %v; blocked %d, unfold %d, missed %v; kinds %v, brute force %v\n%s",
				name, o, len(got), len(want), s.Err(), s.Diverged(), blocked, found, missed, kinds(r), kinds(br), d)
		}
	}
	return st, paths, blocked > 0, true
}

// TestGeneratedAwaitInputs runs generated programs whose w.Awaits branch
// on inputs against brute force over the inputs and every interleaving
// (againstBrute), with the efficient, a random and the naive extensions:
// 12 in the default run, whose totals are pinned, 300 with WEFT_LONG=1,
// WEFT_UNFOLD_AWAITIN=N for N.
func TestGeneratedAwaitInputs(t *testing.T) {
	t.Parallel()
	programs := sweepSize(12, 300, "WEFT_UNFOLD_AWAITIN")
	checked, events, tests, probes, paths, dl := 0, 0, 0, 0, 0, 0
	for seed := uint64(0); checked < programs && seed < uint64(4*programs); seed++ {
		threads, vars := genAwProgram(rand.New(rand.NewPCG(seed, 13)))
		name := fmt.Sprintf("seed %d\n%s", seed, showAw(threads))
		st, ps, blocked, ok := againstBrute(t, name, awBody(threads, vars), 20000, unfold.Options{}, unfold.Options{Seed: int64(seed) + 1}, unfold.Options{Naive: true})
		if !ok {
			continue // too many executions for brute force
		}
		checked++
		events += st.Events
		tests += st.Tests
		probes += st.Probes
		paths += ps
		if blocked {
			dl++
		}
	}
	if checked < programs {
		t.Errorf("checked %d programs, want %d", checked, programs)
	}
	t.Logf("%d programs, %d events (%d of awaits on paths of inputs), %d tests, %d probes, %d that block", checked, events, paths, tests, probes, dl)
	if got, want := [5]int{events, paths, tests, probes, dl}, [5]int{1077, 199, 426, 123, 10}; checked == 12 && got != want {
		t.Errorf("12 programs: events, on paths, tests, probes, that block = %v, want %v", got, want)
	}
}
