// Tests of the combined tree against brute force: every input vector of a
// small range under every schedule.

package weft_test

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/weft-go/weft"
	"github.com/weft-go/weft/internal/long"
	"github.com/weft-go/weft/internal/registry"
	"github.com/weft-go/weft/programs"
	"github.com/weft-go/weft/solver"
	"github.com/weft-go/weft/strategy"
	"github.com/weft-go/weft/strategy/exhaustive"
	"github.com/weft-go/weft/trace"
)

// inputRange is an input of a small program and its declared range.
type inputRange struct {
	name   string
	lo, hi int64
}

// bruteForce runs an exhaustive schedule exploration for every vector of
// the inputs' ranges.
type bruteForce struct {
	inputs []inputRange
	vec    []int64 // the current vector; nil before the first
	inner  strategy.Strategy
}

func (b *bruteForce) Next() bool {
	if b.vec == nil {
		b.vec = make([]int64, len(b.inputs))
		for i, in := range b.inputs {
			b.vec[i] = in.lo
		}
		b.inner = exhaustive.New()
		return b.inner.Next()
	}
	if b.inner.Next() {
		return true
	}
	for i := range b.vec {
		if b.vec[i] < b.inputs[i].hi {
			b.vec[i]++
			b.inner = exhaustive.New()
			return b.inner.Next()
		}
		b.vec[i] = b.inputs[i].lo
	}
	return false
}

func (b *bruteForce) Choose(st *strategy.State) strategy.Choice { return b.inner.Choose(st) }

func (b *bruteForce) Input(_ *strategy.State, in strategy.InputRequest) uint64 {
	for i, r := range b.inputs {
		if r.name == in.Name {
			return uint64(b.vec[i])
		}
	}
	return in.Default
}

func (b *bruteForce) Finish(tr *trace.Trace, end trace.End) { b.inner.Finish(tr, end) }

// sideRecorder records the symbolic branch sides of the executions of a
// strategy: each branch's condition (as a solver key) and the side taken.
type sideRecorder struct {
	strategy.Strategy
	sides map[string]bool
	// first is the first execution: its events and branches in the order
	// they ran (thread, operation or side taken).
	first []string
}

func (r *sideRecorder) Finish(tr *trace.Trace, end trace.End) {
	if r.first == nil {
		j := 0
		for i := 0; i <= len(tr.Events); i++ {
			for ; j < len(tr.Branches) && int(tr.Branches[j].Step) == i; j++ {
				r.first = append(r.first, fmt.Sprintf("%v:%v", tr.Branches[j].Thread, tr.Branches[j].Taken))
			}
			if i < len(tr.Events) {
				r.first = append(r.first, fmt.Sprintf("%v:%v", tr.Events[i].Thread, tr.Events[i].Op.Kind))
			}
		}
	}
	for _, b := range tr.Branches {
		r.sides[fmt.Sprint(b.Taken)+solver.Key([]solver.Expr{b.Cond})] = true
	}
	r.Strategy.Finish(tr, end)
}

// Unwrap implements strategy.Wrapper: the concolic strategy's solver
// counters, setup error and Close show through the recorder.
func (r *sideRecorder) Unwrap() strategy.Strategy { return r.Strategy }

// concolicOutcome is what an exploration of a small program saw: the
// branch sides and failure labels its body recorded, and the failure
// kinds. An exploration that hit the bound on executions has exec -1.
type concolicOutcome struct {
	sides []string
	kinds []string
	exec  int
	// symbolic is the number of symbolic branch sides (condition and side
	// taken) the executions took, and symbolicKey a digest of them.
	symbolic    int
	symbolicKey string
}

// smallProgram is a program whose body records the sides it takes (and
// the failures it is about to raise) with mark.
type smallProgram struct {
	name   string
	inputs []inputRange
	body   func(mark func(string)) func(w *weft.T)
}

// explore runs p under s to the end and returns what it saw.
func (p smallProgram) explore(t *testing.T, s strategy.Strategy) concolicOutcome {
	t.Helper()
	seen := map[string]bool{}
	rec := &sideRecorder{Strategy: s, sides: map[string]bool{}}
	r, err := weft.Explore(p.body(func(l string) { seen[l] = true }), weft.WithCustomStrategy(rec), weft.KeepGoing(), weft.NoReplayFiles(), weft.WithMaxRuns(30000))
	if errors.Is(err, solver.ErrUnavailable) {
		t.Skipf("no Z3: %v", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	if !r.Exhausted {
		return concolicOutcome{exec: -1}
	}
	var kinds []string
	for k := range r.FailureCounts {
		kinds = append(kinds, k.String())
	}
	sort.Strings(kinds)
	sym := slices.Sorted(maps.Keys(rec.sides))
	return concolicOutcome{sides: slices.Sorted(maps.Keys(seen)), kinds: kinds, exec: r.Executions,
		symbolic: len(sym), symbolicKey: strings.Join(sym, "|")}
}

// k is a concolic constant.
func kc(v int64) weft.SInt { return weft.Const(v) }

var smallPrograms = []smallProgram{
	{"jcute", []inputRange{{"z", -3, 3}}, func(mark func(string)) func(w *weft.T) {
		x := weft.NewVar[weft.SInt]("x")
		return func(w *weft.T) {
			z := w.InputRange("z", -3, 3)
			w.Go(func() { x.Store(kc(3)) })
			w.Go(func() {
				x.Store(kc(2))
				if w.If(z.Mul(kc(2)).Add(kc(1)).Eq(x.Load())) {
					mark("fail")
					w.Fail("2z+1 == x")
				}
				mark("ok")
			})
		}
	}},
	// The write that makes the failure possible exists only for z == 2,
	// and races with a read that, in the first executions, comes before
	// the branch: the branch's causal past does not hold the read.
	{"late-write", []inputRange{{"z", 0, 3}}, func(mark func(string)) func(w *weft.T) {
		x, y := weft.NewVar[int]("x"), weft.NewVar[int]("y")
		return func(w *weft.T) {
			z := w.InputRange("z", 0, 3)
			x.Store(0)
			w.Go(func() {
				if x.Load() == 1 {
					mark("fail")
					w.Fail("read the late write")
				}
			})
			w.Go(func() {
				y.Store(1)
				if w.If(z.Eq(kc(2))) {
					mark("z=2")
					x.Store(1)
				} else {
					mark("z!=2")
				}
			})
		}
	}},
	// Two threads branch on their own inputs; the body checks a sum that
	// needs both branches' then-sides and one order of the writes.
	{"two-inputs", []inputRange{{"a", -2, 2}, {"b", -2, 2}}, func(mark func(string)) func(w *weft.T) {
		x := weft.NewVar[weft.SInt]("x")
		return func(w *weft.T) {
			a, b := w.InputRange("a", -2, 2), w.InputRange("b", -2, 2)
			x.Store(kc(0))
			t1 := w.Go(func() {
				if w.If(a.Gt(kc(0))) {
					mark("a>0")
					x.Store(a)
				} else {
					mark("a<=0")
				}
			})
			t2 := w.Go(func() {
				v := x.Load()
				if w.If(b.Lt(v)) {
					mark("b<x")
					x.Store(v.Add(b))
				} else {
					mark("b>=x")
				}
			})
			t1.Join()
			t2.Join()
			if w.If(x.Load().Eq(kc(3))) {
				mark("fail")
				w.Fail("x == 3")
			}
		}
	}},
	// A lock-order deadlock that needs z == 1 and one schedule.
	{"deadlock", []inputRange{{"z", 0, 2}}, func(mark func(string)) func(w *weft.T) {
		var m1, m2 weft.Mutex
		return func(w *weft.T) {
			z := w.InputRange("z", 0, 2)
			w.Go(func() {
				if w.If(z.Eq(kc(1))) {
					mark("z=1")
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
	}},
	// unfold-fig9 on a small range: the failure needs T2's write first.
	{"unfold-fig9", []inputRange{{"input", -2, 2}}, func(mark func(string)) func(w *weft.T) {
		x := weft.NewVar[weft.SInt]("x")
		return func(w *weft.T) {
			x.Store(kc(0))
			w.Go(func() {
				if a := x.Load(); w.If(a.Gt(kc(0))) {
					mark("fail")
					w.Fail("a > 0")
				}
				mark("a<=0")
			})
			w.Go(func() {
				_ = x.Load()
				x.Store(w.InputRange("input", -2, 2))
			})
		}
	}},
	// A lock-protected counter with an input-dependent increment and an
	// assertion on the value one thread reads back.
	{"locked", []inputRange{{"n", 0, 4}}, func(mark func(string)) func(w *weft.T) {
		c := weft.NewVar[weft.SInt]("c")
		var mu weft.Mutex
		return func(w *weft.T) {
			n := w.InputRange("n", 0, 4)
			c.Store(kc(0))
			add := func(d weft.SInt, check bool) {
				mu.Lock()
				v := c.Load().Add(d)
				c.Store(v)
				mu.Unlock()
				if check {
					if w.If(v.Gt(kc(5))) {
						mark("big")
						if w.If(n.Eq(kc(3))) {
							mark("fail")
							w.Fail("n == 3 and the sum is big")
						}
					} else {
						mark("small")
					}
				}
			}
			t1 := w.Go(func() { add(n, true) })
			t2 := w.Go(func() { add(n.Mul(kc(2)), false) })
			t1.Join()
			t2.Join()
		}
	}},
	// Two senders on an unbuffered channel: the first receive has two
	// alternatives, so a prefix through it holds every event before it.
	{"channel", []inputRange{{"a", 0, 3}, {"b", 0, 3}}, func(mark func(string)) func(w *weft.T) {
		return func(w *weft.T) {
			a, b := w.InputRange("a", 0, 3), w.InputRange("b", 0, 3)
			ch := weft.MakeChan[weft.SInt](0)
			w.Go(func() { ch.Send(a) })
			w.Go(func() { ch.Send(b.Add(kc(1))) })
			v := ch.Recv()
			u := ch.Recv()
			if w.If(v.Eq(kc(3))) {
				mark("v=3")
				if w.If(u.Lt(v)) {
					mark("fail")
					w.Fail("u < v == 3")
				}
			} else {
				mark("v!=3")
			}
		}
	}},
	// A select between two channels, each with a sender of its own.
	{"select", []inputRange{{"a", 0, 2}}, func(mark func(string)) func(w *weft.T) {
		return func(w *weft.T) {
			a := w.InputRange("a", 0, 2)
			c1, c2 := weft.MakeChan[weft.SInt](0), weft.MakeChan[weft.SInt](1)
			w.Go(func() { c1.Send(a) })
			w.Go(func() { c2.Send(a.Add(kc(1))) })
			var got weft.SInt
			weft.Select(weft.OnRecv(c1, func(v weft.SInt, _ bool) { got = v; mark("c1") }),
				weft.OnRecv(c2, func(v weft.SInt, _ bool) { got = v; mark("c2") }))
			if w.If(got.Eq(kc(2))) {
				mark("fail")
				w.Fail("got 2")
			}
			// Drain the other channel.
			weft.Select(weft.OnRecv(c1, func(weft.SInt, bool) {}), weft.OnRecv(c2, func(weft.SInt, bool) {}))
		}
	}},
	// Threads started by threads, one of them only for some inputs: the
	// numbering of threads depends on the order of their starts.
	{"spawns", []inputRange{{"z", -1, 2}}, func(mark func(string)) func(w *weft.T) {
		x, y := weft.NewVar[int]("x"), weft.NewVar[weft.SInt]("y")
		return func(w *weft.T) {
			z := w.InputRange("z", -1, 2)
			y.Store(kc(0))
			w.Go(func() {
				x.Store(1)
				if w.If(z.Gt(kc(0))) {
					mark("z>0")
					w.Go(func() { y.Store(z) })
				}
			})
			w.Go(func() {
				x.Store(2)
				w.Go(func() {
					if w.If(y.Load().Eq(kc(2))) {
						mark("fail")
						w.Fail("y == 2")
					}
				})
			})
		}
	}},
	// Farzan et al. 2013's addAll (programs/addall.go), on u.cnt's whole range.
	{"addall", []inputRange{{"u.cnt", 0, 100}}, func(func(string)) func(w *weft.T) {
		return programs.Lookup("addall").MustBody(nil)
	}},
}

// TestCombinedTreeVsBruteForce: on small programs, every concolic strategy
// reaches the same branch sides and failures as every vector of the
// inputs' ranges under every schedule. A program of more than 1,000
// brute-force executions (addall) runs with WEFT_LONG=1 only.
func TestCombinedTreeVsBruteForce(t *testing.T) {
	t.Parallel()
	// The executions of brute force and of each concolic strategy, and the
	// symbolic branch sides, per program (measured; the explorations are
	// deterministic, given Z3's answers). Brute force runs every schedule
	// of every input vector: jcute's 3 schedules for each of the 7 values
	// of z make 21. The executions are per strategy in the order of
	// concolicStrategies: concolic, concolic-dpor, concolic-dpor+sleep,
	// concolic-dpor-1, concolic-dpor-2, concolic-dpor-clock,
	// concolic-dpor-clock+sleep, concolic-dpor-cr, concolic-dpor-cr+sleep,
	// concolic-flip, concolic-flip+sleep, concolic-optimal. Sleep sets and
	// commuting reads pay on addall (156 to 12) and deadlock.
	type counts struct {
		brute, sides int
		execs        [12]int
	}
	want := map[string]counts{
		"jcute":       {21, 3, [12]int{4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4}},
		"late-write":  {9, 2, [12]int{4, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3}},
		"two-inputs":  {81, 10, [12]int{13, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8}},
		"deadlock":    {8, 2, [12]int{7, 5, 4, 5, 4, 5, 4, 5, 4, 5, 4, 4}},
		"unfold-fig9": {15, 2, [12]int{4, 4, 4, 4, 3, 4, 4, 4, 3, 4, 3, 3}},
		"locked":      {30, 5, [12]int{8, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4}},
		"channel":     {32, 8, [12]int{6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 10}},
		"select":      {9, 4, [12]int{6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 8}},
		"spawns":      {18, 4, [12]int{10, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8}},
		"addall":      {8997, 12, [12]int{156, 28, 22, 17, 12, 28, 22, 24, 12, 17, 12, 12}},
	}
	for _, p := range smallPrograms {
		t.Run(p.name, func(t *testing.T) {
			n, ok := want[p.name]
			if !ok {
				t.Fatalf("no expected counts for %s: add them", p.name)
			}
			if n.brute > 1000 {
				long.Skip(t, fmt.Sprintf("%d brute-force executions", n.brute))
			}
			ref := p.explore(t, &bruteForce{inputs: p.inputs})
			if ref.exec < 0 {
				t.Fatal("brute force: too many executions")
			}
			if ref.exec != n.brute || ref.symbolic != n.sides {
				t.Errorf("brute force: %d executions, %d symbolic sides; want %d, %d", ref.exec, ref.symbolic, n.brute, n.sides)
			}
			for i, name := range concolicStrategies() {
				got := p.explore(t, weft.StrategyByName(name, 0))
				if got.exec < 0 {
					t.Fatalf("%s: too many executions", name)
				}
				if got.exec != n.execs[i] {
					t.Errorf("%s: %d executions, want %d", name, got.exec, n.execs[i])
				}
				if !slices.Equal(got.sides, ref.sides) || !slices.Equal(got.kinds, ref.kinds) {
					t.Errorf("%s: sides %v, failures %v; brute force: sides %v, failures %v",
						name, got.sides, got.kinds, ref.sides, ref.kinds)
				}
				if got.symbolicKey != ref.symbolicKey {
					t.Errorf("%s: %d symbolic branch sides, brute force %d", name, got.symbolic, ref.symbolic)
				}
			}
		})
	}
}

// concolicStrategies returns the names of the concolic strategies, sorted.
func concolicStrategies() []string {
	return slices.Sorted(maps.Keys(registry.ConcolicInners))
}

// TestUnfoldFig1Sides: Kähkönen et al. 2014's Fig. 1 (programs/unfoldfig1.go) has six
// symbolic branch sides: a+1 == 5 both ways, b == 0 both ways (thread 2
// reads 0), b == a both ways (it reads thread 1's write, which needs
// a = 4); every concolic strategy takes all six. The first execution runs
// the paper's first test, locations (1, 2, 6, 5, 7, 8, 9): thread 1's
// branch (false), thread 1's read, thread 2's read, thread 2's branch
// (true).
func TestUnfoldFig1Sides(t *testing.T) {
	// As in programs.TestUnfoldFig1: 4 sat queries and the schedules the
	// inner strategy explores below them.
	unfoldFig1Executions := map[string]int{"concolic": 8, "concolic-dpor": 8, "concolic-optimal": 6}
	for _, name := range []string{"concolic", "concolic-dpor", "concolic-optimal"} {
		rec := &sideRecorder{Strategy: weft.StrategyByName(name, 0), sides: map[string]bool{}}
		r, err := weft.Explore(programs.Lookup("unfold-fig1").MustBody(nil), weft.WithCustomStrategy(rec), weft.KeepGoing(), weft.NoReplayFiles())
		if errors.Is(err, solver.ErrUnavailable) {
			t.Skipf("no Z3: %v", err)
		}
		if err != nil || !r.Exhausted || len(rec.sides) != 6 || r.Executions != unfoldFig1Executions[name] {
			t.Errorf("%s: %v, exhausted %v, %d symbolic sides, %d executions; want 6 sides, %d executions",
				name, err, r.Exhausted, len(rec.sides), r.Executions, unfoldFig1Executions[name])
		}
		if want := []string{"T1:false", "T1:load", "T2:load", "T2:true"}; !slices.Equal(rec.first, want) {
			t.Errorf("%s: first execution %v, want %v", name, rec.first, want)
		}
	}
}
