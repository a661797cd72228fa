// The differential test of con2 against brute force on random programs
// with inputs: every branch side an execution reaches with at most k
// interferences (con2.Interferences), con2 with bound k covers, and no
// other.

package con2_test

import (
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/weft-go/weft"
	"github.com/weft-go/weft/internal/long"
	"github.com/weft-go/weft/strategy/con2"
)

// symOp is a statement of a random program.
type symOp struct {
	kind  int // opRead, opWrite, opLock, opBranch
	v     int // shared variable
	src   int // write: 0 local, 1 local+input, 2 constant, 3 input
	in    int // the input used
	c     int64
	cmp   int // branch: 0 local < c, 1 local == input+c, 2 input > c, 3 local+input == c, 4 local == c
	then  []symOp
	fail  bool // the branch's then-side fails
	label string
	// sk is the statement of another primitive (opSync: syncKind), ch
	// its channel, cases and def a select's (sync_differential_test.go).
	sk    syncKind
	ch    int
	cases []selCase
	def   bool
}

const (
	opRead = iota
	opWrite
	opLock
	opBranch
	opSync
)

// symProgram is a random program: two inputs in [-2, 2] read by the body,
// shared variables starting at 0, one mutex, and threads running
// statements on a local value l (0 at first).
type symProgram struct {
	threads [][]symOp
	vars    int
	// caps are the capacities of the channels of statements of other
	// primitives, dones the WaitGroup's Dones (sync_differential_test.go).
	caps  []int
	dones int
	// busy marks a program with busy waits or time (its scenarios may
	// diverge: an await's condition is Go code), opts its exploration's
	// options (time at any step).
	busy bool
	opts []weft.Option
}

// genSymProgram draws a program with 2 or 3 threads of 1 to 3 statements
// (as package weft's concolic tests do).
func genSymProgram(r *rand.Rand) *symProgram {
	p := &symProgram{vars: 1 + r.IntN(2)}
	n := 2 + r.IntN(2)
	label := 0
	var gen func(depth int) symOp
	gen = func(depth int) symOp {
		switch x := r.IntN(10); {
		case x < 3:
			return symOp{kind: opRead, v: r.IntN(p.vars)}
		case x < 6:
			return symOp{kind: opWrite, v: r.IntN(p.vars), src: r.IntN(4), in: r.IntN(2), c: int64(r.IntN(5) - 2)}
		case x < 7 && depth == 0:
			return symOp{kind: opLock, then: []symOp{gen(1), gen(1)}}
		default:
			label++
			op := symOp{kind: opBranch, cmp: r.IntN(4), in: r.IntN(2), c: int64(r.IntN(5) - 2), label: fmt.Sprint("b", label)}
			if r.IntN(3) == 0 {
				op.fail = true
			} else if depth == 0 {
				op.then = []symOp{gen(1)}
			}
			return op
		}
	}
	for range n {
		var th []symOp
		for range 1 + r.IntN(3) {
			th = append(th, gen(0))
		}
		p.threads = append(p.threads, th)
	}
	return p
}

// genInterferingProgram draws a program of 2 or 3 threads of 2 to 4
// statements in which reads of shared variables are often followed by a
// branch on the value read: sides that need other threads' writes, and
// chains of them (k = 2), are common.
func genInterferingProgram(r *rand.Rand) *symProgram {
	p := &symProgram{vars: 1 + r.IntN(2)}
	label := 0
	branch := func(depth int) symOp {
		label++
		op := symOp{kind: opBranch, cmp: r.IntN(4), in: r.IntN(2), c: int64(r.IntN(5) - 2), label: fmt.Sprint("b", label)}
		if op.cmp == 2 {
			op.cmp = 4 // on the value read, not on an input alone
		}
		if r.IntN(4) == 0 {
			op.fail = true
		}
		return op
	}
	var gen func(depth int) []symOp
	gen = func(depth int) []symOp {
		switch x := r.IntN(20); {
		case x < 8:
			ops := []symOp{{kind: opRead, v: r.IntN(p.vars)}}
			if r.IntN(2) == 0 {
				ops = append(ops, branch(depth))
			}
			return ops
		case x < 15:
			// Mostly the value read (and an input): data flows on.
			src := [...]int{0, 0, 1, 1, 2, 3}[r.IntN(6)]
			return []symOp{{kind: opWrite, v: r.IntN(p.vars), src: src, in: r.IntN(2), c: int64(r.IntN(5) - 2)}}
		case x < 17 && depth == 0:
			return []symOp{{kind: opLock, then: append(gen(1), gen(1)...)}}
		default:
			return []symOp{branch(depth)}
		}
	}
	for range 2 + r.IntN(2) {
		var th []symOp
		for range 2 + r.IntN(2) {
			th = append(th, gen(0)...)
		}
		p.threads = append(p.threads, th)
	}
	return p
}

// genRelayProgram draws a program of 3 threads that pass a value on: T1
// writes an input (or its value plus one) to a variable, T2 reads a
// variable and writes what it read (or that plus an input), T3 reads a
// variable and branches on it; each may do one more random access or
// branch, before or after. Sides that need two interferences in a row
// (T1 to T2 to T3: k = 2) are common.
func genRelayProgram(r *rand.Rand) *symProgram {
	p := &symProgram{vars: 2}
	label := 0
	branch := func() symOp {
		label++
		return symOp{kind: opBranch, cmp: []int{0, 1, 3, 4, 4, 4}[r.IntN(6)], in: r.IntN(2), c: []int64{-2, -1, 1, 2}[r.IntN(4)],
			label: fmt.Sprint("b", label), fail: r.IntN(3) == 0}
	}
	extra := func(th []symOp) []symOp {
		var op symOp
		switch r.IntN(4) {
		case 0:
			return th
		case 1:
			op = symOp{kind: opRead, v: r.IntN(2)}
		case 2:
			op = symOp{kind: opWrite, v: r.IntN(2), src: r.IntN(4), in: r.IntN(2), c: int64(r.IntN(5) - 2)}
		default:
			op = branch()
		}
		if r.IntN(2) == 0 {
			return append([]symOp{op}, th...)
		}
		return append(th, op)
	}
	t1 := []symOp{{kind: opWrite, v: r.IntN(2), src: []int{1, 3}[r.IntN(2)], in: r.IntN(2)}}
	t2 := []symOp{{kind: opRead, v: r.IntN(2)}, {kind: opWrite, v: r.IntN(2), src: r.IntN(2), in: r.IntN(2)}}
	t3 := []symOp{{kind: opRead, v: r.IntN(2)}, branch()}
	p.threads = [][]symOp{extra(t1), extra(t2), extra(t3)}
	return p
}

func (p *symProgram) String() string {
	var b strings.Builder
	var show func(ops []symOp, ind string)
	show = func(ops []symOp, ind string) {
		for _, o := range ops {
			switch o.kind {
			case opRead:
				fmt.Fprintf(&b, "%sl = v%d\n", ind, o.v)
			case opWrite:
				src := [...]string{"l", fmt.Sprintf("l+i%d", o.in), fmt.Sprint(o.c), fmt.Sprintf("i%d", o.in)}[o.src]
				fmt.Fprintf(&b, "%sv%d = %s\n", ind, o.v, src)
			case opLock:
				fmt.Fprintf(&b, "%slock\n", ind)
				show(o.then, ind+"  ")
				fmt.Fprintf(&b, "%sunlock\n", ind)
			case opBranch:
				cond := [...]string{fmt.Sprintf("l < %d", o.c), fmt.Sprintf("l == i%d+%d", o.in, o.c),
					fmt.Sprintf("i%d > %d", o.in, o.c), fmt.Sprintf("l+i%d == %d", o.in, o.c), fmt.Sprintf("l == %d", o.c)}[o.cmp]
				fmt.Fprintf(&b, "%s%s: if %s {", ind, o.label, cond)
				if o.fail {
					b.WriteString(" fail }\n")
					continue
				}
				b.WriteString("\n")
				show(o.then, ind+"  ")
				fmt.Fprintf(&b, "%s}\n", ind)
			case opSync:
				o.syncString(&b, ind, show)
			}
		}
	}
	if len(p.caps) > 0 {
		fmt.Fprintf(&b, "channels (capacities) %v, wg.Add(%d)\n", p.caps, p.dones)
	}
	for i, th := range p.threads {
		fmt.Fprintf(&b, "T%d:\n", i+1)
		show(th, "  ")
	}
	return b.String()
}

var symInputs = []inputRange{{"i0", -2, 2}, {"i1", -2, 2}}

// body returns p as a test body that marks each symbolic branch side it
// takes with its label and side ("b3+", "b3-"), per thread.
func (p *symProgram) body(m *marks) func(w *weft.T) {
	vars := make([]*weft.Var[weft.SInt], p.vars)
	for i := range vars {
		vars[i] = weft.NewVar[weft.SInt](fmt.Sprint("v", i))
	}
	var mu weft.Mutex
	kc := weft.Const[int64]
	so := p.syncObjects()
	so.vars = vars
	return func(w *weft.T) {
		so.w = w
		in := []weft.SInt{w.InputRange("i0", -2, 2), w.InputRange("i1", -2, 2)}
		for _, v := range vars {
			v.Store(kc(0))
		}
		so.reset(p)
		var run func(th int, ops []symOp, l *weft.SInt)
		run = func(th int, ops []symOp, l *weft.SInt) {
			for _, o := range ops {
				switch o.kind {
				case opRead:
					*l = vars[o.v].Load()
				case opWrite:
					vars[o.v].Store([...]weft.SInt{*l, l.Add(in[o.in]), kc(o.c), in[o.in]}[o.src])
				case opLock:
					mu.Lock()
					run(th, o.then, l)
					mu.Unlock()
				case opBranch:
					cond := [...]weft.SBool{l.Lt(kc(o.c)), l.Eq(in[o.in].Add(kc(o.c))), in[o.in].Gt(kc(o.c)), l.Add(in[o.in]).Eq(kc(o.c)), l.Eq(kc(o.c))}[o.cmp]
					taken := w.If(cond)
					if cond.Symbolic() {
						m.mark(th, fmt.Sprintf("%s%s", o.label, map[bool]string{true: "+", false: "-"}[taken]))
					}
					if !taken {
						continue
					}
					if o.fail {
						w.Fail("%s", o.label)
					}
					run(th, o.then, l)
				case opSync:
					so.run(o, l, func() { run(th, o.then, l) })
				}
			}
		}
		var ts []*weft.Thread
		for i, th := range p.threads {
			ts = append(ts, w.Go(func() {
				l := kc(0)
				run(i, th, &l)
			}))
		}
		for _, t := range ts {
			t.Join()
		}
	}
}

// TestDifferential: on random programs with two inputs, con2 with bound k
// covers exactly the branch sides that brute force (every schedule of
// every input vector) takes with at most k interferences, for k = 0, 1, 2.
// The programs are of three generators: package weft's concolic tests',
// one where branches on values read are common, and one of relays (three
// threads passing a value on) where sides that need k = 2 are common.
func TestDifferential(t *testing.T) {
	// Each generator's programs checked, and how many of them have sides
	// brute force first reaches with 0, 1 and 2 interferences (measured:
	// the test does exercise interferences).
	type count struct {
		n      int
		deeper [3]int
	}
	for _, g := range []struct {
		name        string
		gen         func(*rand.Rand) *symProgram
		full, short count
	}{
		{"concolic", genSymProgram, count{25, [3]int{20, 0, 0}}, count{6, [3]int{4, 0, 0}}},
		{"interfering", genInterferingProgram, count{10, [3]int{9, 3, 0}}, count{4, [3]int{4, 0, 0}}},
		{"relay", genRelayProgram, count{30, [3]int{29, 12, 1}}, count{8, [3]int{7, 5, 0}}},
	} {
		want := g.full
		if !long.Enabled() {
			want = g.short
		}
		if v, err := strconv.Atoi(os.Getenv("CON2_PROGRAMS")); err == nil {
			// A longer run: CON2_PROGRAMS=400 checked 1200 programs.
			want = count{n: v, deeper: [3]int{-1}}
		}
		t.Run(g.name, func(t *testing.T) {
			t.Parallel()
			if deeper := differential(t, g.gen, want.n); want.deeper[0] >= 0 && deeper != want.deeper {
				t.Errorf("programs with sides first reached at k = 0, 1, 2: %v, want %v", deeper, want.deeper)
			}
		})
	}
}

// differential checks n programs of gen (see TestDifferential) and
// returns how many have sides first reached at k = 0, 1, 2.
func differential(t *testing.T, gen func(*rand.Rand) *symProgram, n int) [3]int {
	checked := 0
	var deeper [3]int // programs with sides first reached at k = 0, 1, 2
	for seed := uint64(0); checked < n && seed < uint64(3*n); seed++ {
		p := gen(rand.New(rand.NewPCG(seed, 7)))
		ref, _, ok := explore(t, p.body, &bruteForce{inputs: symInputs}, 6000, p.opts...)
		if !ok {
			continue // too many schedules for brute force
		}
		checked++
		checkBounds(t, p, seed, ref, func(got *recorder, _ int) []string { return got.all() }, &deeper)
	}
	t.Logf("%d programs checked; with sides first reached at k = 0, 1, 2: %v", checked, deeper)
	if checked < n {
		t.Errorf("%d programs checked, want %d: too many were too large for brute force", checked, n)
	}
	return deeper
}

// checkBounds explores p, the program of seed, with con2 for k = 0, 1, 2
// and reports as errors of t each bound at which con2 did not finish,
// covered other sides than ref (brute force's) takes with at most k
// interferences, or ran a scenario that diverged from its solution.
// covered gives the sides of con2's exploration that are compared: all of
// them (TestDifferential) or those it took with at most k interferences
// (TestDifferentialSync). It counts in deeper the bounds at which ref
// first takes sides, and returns the number of bounds with an error and
// the executions that diverged from their scenarios (allowed for busy
// programs only).
func checkBounds(t *testing.T, p *symProgram, seed uint64, ref *recorder, covered func(got *recorder, k int) []string, deeper *[3]int) (errs, diverged int) {
	t.Helper()
	for k := 0; k <= 2; k++ {
		if k == 0 && len(ref.upTo(0)) > 0 || k > 0 && len(ref.upTo(k)) > len(ref.upTo(k-1)) {
			deeper[k]++
		}
		s := newCon2(t, con2.Options{K: k})
		got, _, ok := explore(t, p.body, s, 5000, p.opts...)
		diverged += s.Stats().Diverged
		switch {
		case !ok:
			t.Errorf("seed %d, k=%d: con2 did not finish\n%v", seed, k, p)
		case !slices.Equal(covered(got, k), ref.upTo(k)):
			t.Errorf("seed %d, k=%d: con2 covers %v, brute force %v (all: %v)\n%v", seed, k, covered(got, k), ref.upTo(k), ref.sides, p)
		case s.Stats().Diverged != 0 && !p.busy:
			// Every value is concolic: a solved scenario runs as solved.
			t.Errorf("seed %d, k=%d: %d executions diverged from their scenarios\n%v", seed, k, s.Stats().Diverged, p)
		default:
			continue
		}
		errs++
	}
	return errs, diverged
}
