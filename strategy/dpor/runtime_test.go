// This file tests the DPOR family (dpor, dpor-clock, dpor-cr, sleep sets,
// DPOR-1, DPOR-2, flip): exact execution counts on the benchmark programs,
// the number of distinct Mazurkiewicz traces explored, and agreement with
// exhaustive search on programs over every primitive (on random programs:
// gen_regress_test.go, and package weft's differential tests).

package dpor_test

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/weft-go/weft"
	"github.com/weft-go/weft/internal/checktest"
	"github.com/weft-go/weft/internal/long"
	"github.com/weft-go/weft/programs"
)

// dporNames are the strategies of the DPOR family, which claim at least one
// execution per Mazurkiewicz trace.
var dporNames = []string{
	"dpor", "dpor+sleep", "dpor-clock", "dpor-clock+sleep", "dpor-cr", "dpor-cr+sleep",
	"dpor-1", "dpor-2", "flip", "flip+sleep",
}

// runs is a number of complete and cut executions.
type runs struct{ complete, cut int }

// TestDPORCounts checks, in thread order (no seed), the executions of every
// strategy of the family on the benchmark programs, and that the distinct
// traces among them are the program's trace count.
func TestDPORCounts(t *testing.T) {
	t.Parallel()
	all := func(n int) map[string]runs {
		m := map[string]runs{}
		for _, s := range dporNames {
			m[s] = runs{n, 0}
		}
		return m
	}
	tests := []struct {
		prog   string
		set    map[string]int
		traces int
		want   map[string]runs
		long   map[string]runs // run with WEFT_LONG=1 only
	}{
		// Slides 15-35: Flanagan and Godefroid's DPOR and jCUTE run 4
		// executions; sleep sets (and flip's delayed sets, slides 38-50)
		// 3.
		{"xy", nil, 3, map[string]runs{
			"exhaustive": {6, 0}, "dpor": {4, 0}, "dpor+sleep": {3, 0}, "dpor-clock": {4, 0},
			"dpor-clock+sleep": {3, 0}, "dpor-cr": {4, 0}, "dpor-cr+sleep": {3, 0},
			"dpor-1": {4, 0}, "dpor-2": {3, 0}, "flip": {4, 0}, "flip+sleep": {3, 0},
		}, nil},
		// Slide 36: no reduction without sleep sets.
		{"dporproblem", nil, 3, map[string]runs{
			"exhaustive": {6, 0}, "dpor": {6, 0}, "dpor+sleep": {3, 0}, "dpor-clock": {6, 0},
			"dpor-clock+sleep": {3, 0}, "dpor-cr": {6, 0}, "dpor-cr+sleep": {3, 0},
			"dpor-1": {6, 0}, "dpor-2": {3, 0}, "flip": {6, 0}, "flip+sleep": {3, 0},
		}, nil},
		{"pairs", map[string]int{"n": 3}, 8, all(8), nil},
		{"pairs", map[string]int{"n": 5}, 32, all(32), nil},
		// Under Plain the loads of fib do not commute: dpor and
		// dpor-clock explore far more than 140 (not counted here).
		{"fib", map[string]int{"n": 2}, 140, map[string]runs{
			"dpor+sleep": {3474, 0}, "dpor-clock+sleep": {3474, 0}, "dpor-cr": {9893, 0},
			"dpor-cr+sleep": {140, 0}, "dpor-1": {3253, 0}, "dpor-2": {140, 9},
			"flip": {2933, 0}, "flip+sleep": {140, 0},
		}, nil},
		{"fib", map[string]int{"n": 3}, 1698, map[string]runs{
			"dpor-cr+sleep": {1698, 0}, "dpor-2": {1698, 70}, "flip+sleep": {1698, 0},
		}, nil},
		{"indexer", map[string]int{"n": 12}, 8, map[string]runs{
			"dpor": {113, 0}, "dpor+sleep": {8, 0}, "dpor-clock": {113, 0}, "dpor-clock+sleep": {8, 0},
			"dpor-cr": {113, 0}, "dpor-cr+sleep": {8, 0}, "dpor-1": {13, 0}, "dpor-2": {8, 0},
			"flip": {18, 0}, "flip+sleep": {8, 0},
		}, nil},
		{"indexer", map[string]int{"n": 13}, 64, map[string]runs{
			"dpor+sleep": {64, 0}, "dpor-clock+sleep": {64, 0}, "dpor-cr+sleep": {64, 0},
			"dpor-1": {169, 0}, "dpor-2": {64, 24}, "flip+sleep": {64, 0},
		}, map[string]runs{"dpor-cr": {12769, 0}}},
		{"filesystem", map[string]int{"n": 14}, 2, map[string]runs{
			"dpor": {4, 0}, "dpor+sleep": {2, 0}, "dpor-clock": {4, 0}, "dpor-clock+sleep": {2, 0},
			"dpor-cr": {4, 0}, "dpor-cr+sleep": {2, 0}, "dpor-1": {3, 0}, "dpor-2": {2, 0},
			"flip": {3, 0}, "flip+sleep": {2, 0},
		}, nil},
		{"filesystem", map[string]int{"n": 16}, 8, map[string]runs{
			"dpor": {64, 0}, "dpor+sleep": {8, 0}, "dpor-clock": {64, 0}, "dpor-clock+sleep": {8, 0},
			"dpor-cr": {64, 0}, "dpor-cr+sleep": {8, 0}, "dpor-1": {27, 0}, "dpor-2": {8, 14},
			"flip": {53, 0}, "flip+sleep": {8, 0},
		}, nil},
	}
	for _, tc := range tests {
		body := programs.Lookup(tc.prog).MustBody(tc.set)
		want := maps.Clone(tc.want)
		if long.Enabled() {
			maps.Copy(want, tc.long)
		}
		for _, name := range slices.Sorted(maps.Keys(want)) {
			t.Run(fmt.Sprintf("%s%v/%s", tc.prog, tc.set, name), func(t *testing.T) {
				r, c := checktest.ExploreTraces(t, body, name, 0, 100_000)
				w := want[name]
				if !r.Exhausted || r.Complete != w.complete || r.Cut != w.cut || len(r.Failures) != 0 {
					t.Errorf("%d complete, %d cut, %d failures, exhausted %v; want %d complete, %d cut",
						r.Complete, r.Cut, len(r.Failures), r.Exhausted, w.complete, w.cut)
				}
				if len(c.Maximal) != tc.traces {
					t.Errorf("%d distinct traces, want %d", len(c.Maximal), tc.traces)
				}
			})
		}
	}
}

// TestDPORRandomOrders checks that random orders of exploration (Saarikivi et al. 2012
// Fig. 8 averages over 5) still explore every trace, with the exact
// executions of each order (measured; the seed of an order fixes them).
func TestDPORRandomOrders(t *testing.T) {
	t.Parallel()
	four := [5]runs{{4, 0}, {4, 0}, {4, 0}, {4, 0}, {4, 0}}
	tests := []struct {
		prog   string
		set    map[string]int
		traces int
		// runs holds the complete and cut executions of a strategy in
		// orders 1 to 5; a strategy not listed runs one complete
		// execution per trace, none cut, in every order.
		runs map[string][5]runs
	}{
		{"xy", nil, 3, map[string][5]runs{"dpor": four, "dpor-clock": four, "dpor-cr": four, "dpor-1": four, "flip": four}},
		{"dporproblem", nil, 3, map[string][5]runs{
			"dpor":       {{3, 0}, {5, 0}, {5, 0}, {3, 0}, {3, 0}},
			"dpor-clock": {{3, 0}, {5, 0}, {5, 0}, {3, 0}, {3, 0}},
			"dpor-cr":    {{3, 0}, {5, 0}, {5, 0}, {3, 0}, {3, 0}},
			"dpor-1":     {{3, 0}, {5, 0}, {5, 0}, {3, 0}, {3, 0}},
			"flip":       {{5, 0}, {6, 0}, {3, 0}, {3, 0}, {3, 0}},
		}},
		{"pairs", map[string]int{"n": 3}, 8, nil},
		{"indexer", map[string]int{"n": 12}, 8, map[string][5]runs{
			"dpor":       {{114, 0}, {130, 0}, {76, 0}, {110, 0}, {163, 0}},
			"dpor-clock": {{114, 0}, {130, 0}, {76, 0}, {110, 0}, {163, 0}},
			"dpor-cr":    {{114, 0}, {130, 0}, {76, 0}, {110, 0}, {163, 0}},
			"dpor-1":     {{27, 0}, {27, 0}, {27, 0}, {27, 0}, {27, 0}},
			"dpor-2":     {{8, 29}, {8, 36}, {8, 27}, {8, 31}, {8, 27}},
			"flip":       {{27, 0}, {27, 0}, {27, 0}, {27, 0}, {27, 0}},
		}},
		{"filesystem", map[string]int{"n": 16}, 8, map[string][5]runs{
			"dpor":       {{11, 0}, {12, 0}, {14, 0}, {23, 0}, {26, 0}},
			"dpor-clock": {{11, 0}, {12, 0}, {14, 0}, {23, 0}, {26, 0}},
			"dpor-cr":    {{11, 0}, {12, 0}, {14, 0}, {23, 0}, {26, 0}},
			"dpor-1":     {{11, 0}, {12, 0}, {17, 0}, {15, 0}, {24, 0}},
			"dpor-2":     {{8, 47}, {8, 48}, {8, 101}, {8, 61}, {8, 360}},
			"flip":       {{23, 0}, {19, 0}, {10, 0}, {23, 0}, {21, 0}},
		}},
	}
	for _, tc := range tests {
		body := programs.Lookup(tc.prog).MustBody(tc.set)
		for _, name := range dporNames {
			for seed := int64(1); seed <= 5; seed++ {
				want := runs{tc.traces, 0}
				if w, ok := tc.runs[name]; ok {
					want = w[seed-1]
				}
				r, c := checktest.ExploreTraces(t, body, name, seed, 100_000)
				if got := (runs{r.Complete, r.Cut}); !r.Exhausted || len(c.Maximal) != tc.traces || got != want {
					t.Errorf("%s%v %s seed %d: %+v executions, %d distinct traces, exhausted %v; want %+v, %d traces",
						tc.prog, tc.set, name, seed, got, len(c.Maximal), r.Exhausted, want, tc.traces)
				}
			}
		}
	}
}

// primitivePrograms exercise every primitive the dependency relation
// covers; each is small enough for exhaustive search.
var primitivePrograms = map[string]func(w *weft.T){
	"rendezvous": func(w *weft.T) {
		c := weft.MakeChan[int](0)
		x := weft.NewVar[int]("x")
		w.Go(func() { c.Send(1); x.Store(1) })
		w.Go(func() { c.Send(2); x.Store(2) })
		a := c.Recv()
		b := c.Recv()
		w.Assert(a+b == 3, "received %d and %d", a, b)
	},
	"buffered": func(w *weft.T) {
		c := weft.MakeChan[int](1)
		w.Go(func() { c.Send(1) })
		w.Go(func() { c.Send(2) })
		w.Go(func() { _ = c.Len() })
		_ = c.Recv()
		_ = c.Recv()
	},
	"select": func(w *weft.T) {
		c, d := weft.MakeChan[int](0), weft.MakeChan[int](0)
		x := weft.NewVar[int]("x")
		w.Go(func() { x.Store(1); c.Send(1) })
		w.Go(func() { d.Send(2); x.Store(2) })
		for range 2 {
			weft.Select(weft.OnRecv(c, nil), weft.OnRecv(d, nil))
		}
	},
	"select-send": func(w *weft.T) {
		c := weft.MakeChan[int](0)
		d := weft.MakeChan[int](1)
		w.Go(func() { weft.Select(weft.OnSend(c, 1, nil), weft.OnSend(d, 2, nil)) })
		w.Go(func() { _ = c.Recv() })
		w.Go(func() { _ = d.Recv() })
	},
	"select-default": func(w *weft.T) {
		c := weft.MakeChan[int](0)
		w.Go(func() { c.Send(1) })
		got := false
		weft.Select(weft.OnRecv(c, func(int, bool) { got = true }), weft.OnDefault(nil))
		if !got {
			c.Recv()
		}
	},
	"close": func(w *weft.T) {
		c := weft.MakeChan[int](1)
		w.Go(func() { c.Close() })
		w.Go(func() { c.Send(1) })
		c.RecvOK()
	},
	"rwmutex": func(w *weft.T) {
		var rw weft.RWMutex
		x := weft.NewVar[int]("x")
		for range 2 {
			w.Go(func() { rw.RLock(); _ = x.Load(); rw.RUnlock() })
		}
		w.Go(func() { rw.Lock(); x.Store(1); rw.Unlock() })
	},
	"rwmutex-deadlock": func(w *weft.T) {
		var rw weft.RWMutex
		th := w.Go(func() { rw.Lock(); rw.Unlock() })
		rw.RLock()
		rw.RLock()
		rw.RUnlock()
		rw.RUnlock()
		th.Join()
	},
	"cond": func(w *weft.T) {
		var mu weft.Mutex
		c := weft.NewCond(&mu)
		x := weft.NewVar[int]("x")
		w.Go(func() { mu.Lock(); x.Store(1); c.Signal(); mu.Unlock() })
		mu.Lock()
		for x.Load() == 0 {
			c.Wait()
		}
		mu.Unlock()
	},
	"waitgroup": func(w *weft.T) {
		var wg weft.WaitGroup
		x := weft.NewVar[int]("x")
		wg.Add(2)
		w.Go(func() { x.Store(1); wg.Done() })
		w.Go(func() { x.Store(2); wg.Done() })
		w.Go(func() { wg.Wait(); _ = x.Load() })
		wg.Wait()
		_ = x.Load()
	},
	"once": func(w *weft.T) {
		var once weft.Once
		x := weft.NewVar[int]("x")
		w.Go(func() { once.Do(func() { x.Store(1) }) })
		w.Go(func() { once.Do(func() { x.Store(2) }) })
	},
	"semaphore": func(w *weft.T) {
		s := weft.NewSemaphore(1)
		x := weft.NewVar[int]("x")
		for i := range 3 {
			w.Go(func() { s.P(); x.Store(i); s.V() })
		}
	},
	"binary-semaphore": func(w *weft.T) {
		s := weft.NewBinarySemaphore(0)
		x := weft.NewVar[int]("x")
		w.Go(func() { x.Store(1); s.V() })
		w.Go(func() { s.P(); x.Store(2) })
		w.Go(func() { _ = x.Load() })
	},
	"monitor": func(w *weft.T) {
		m := weft.NewMonitor(weft.SC)
		x := weft.NewVar[int]("x")
		w.Go(func() { m.Enter(); x.Store(1); m.Cond(0).Signal(); m.Exit() })
		m.Enter()
		for x.Load() == 0 {
			m.Cond(0).Wait()
		}
		m.Exit()
	},
	"deadlock": func(w *weft.T) {
		var a, b weft.Mutex
		th := w.Go(func() { b.Lock(); a.Lock(); a.Unlock(); b.Unlock() })
		a.Lock()
		b.Lock()
		b.Unlock()
		a.Unlock()
		th.Join()
	},
	"unlock-unlocked": func(w *weft.T) {
		var m weft.Mutex
		w.Go(func() { m.Lock() })
		w.Go(func() { m.Unlock() })
	},
	"trylock": func(w *weft.T) {
		var m weft.Mutex
		x := weft.NewVar[int]("x")
		w.Go(func() {
			if m.TryLock() {
				x.Store(1)
				m.Unlock()
			}
		})
		w.Go(func() { m.Lock(); x.Store(2); m.Unlock() })
	},
	"atomics": func(w *weft.T) {
		var x weft.Int[int]
		w.Go(func() { x.CompareAndSwap(0, 1) })
		w.Go(func() { x.CompareAndSwap(0, 2) })
		w.Go(func() { _ = x.Load() })
		w.Go(func() { x.Add(5) })
	},
	"sleep": func(w *weft.T) {
		x := weft.NewVar[int]("x")
		w.Go(func() { w.Sleep(10); x.Store(1) })
		w.Go(func() { w.Sleep(5); x.Store(2) })
		x.Store(3)
	},
	"join": func(w *weft.T) {
		x := weft.NewVar[int]("x")
		a := w.Go(func() { x.Store(1) })
		b := w.Go(func() { x.Store(2) })
		a.Join()
		w.Assert(x.Load() != 0, "x not written after a join")
		b.Join()
	},
	"spawn-chain": func(w *weft.T) {
		x := weft.NewVar[int]("x")
		w.Go(func() {
			x.Store(1)
			w.Go(func() { x.Store(2) })
		})
		w.Go(func() {
			_ = x.Load()
			w.Go(func() { _ = x.Load() })
		})
	},
	"assert": func(w *weft.T) {
		x := weft.NewVar[int]("x")
		w.Go(func() { x.Store(1); x.Store(2) })
		w.Go(func() { w.Assert(x.Load() != 1, "saw the intermediate value") })
	},
}

// TestDPORAgainstExhaustive checks every strategy of the family against
// exhaustive search: the same maximal traces, the same failure kinds and,
// where object identities do not depend on the schedule, the same number of
// final states.
func TestDPORAgainstExhaustive(t *testing.T) {
	bodies := map[string]func(w *weft.T){}
	maps.Copy(bodies, primitivePrograms)
	for _, p := range []struct {
		name string
		set  map[string]int
	}{{"xy", nil}, {"dporproblem", nil}, {"pairs", map[string]int{"n": 2}}, {"fib", map[string]int{"n": 1}}} {
		bodies[fmt.Sprintf("%s%v", p.name, p.set)] = programs.Lookup(p.name).MustBody(p.set)
	}
	for _, name := range slices.Sorted(maps.Keys(bodies)) {
		compareWithExhaustive(t, name, bodies[name])
	}
}

// maxExhaustive bounds the exhaustive search of a program compared.
const maxExhaustive = 20_000

// compareWithExhaustive explores body exhaustively and with each strategy of
// the family and compares.
func compareWithExhaustive(t *testing.T, name string, body func(w *weft.T)) {
	t.Helper()
	ref, rc := checktest.ExploreTraces(t, body, "exhaustive", 0, maxExhaustive)
	if !ref.Exhausted {
		t.Fatalf("%s: exhaustive search did not finish", name)
	}
	for _, s := range dporNames {
		r, c := checktest.ExploreTraces(t, body, s, 0, 200_000)
		var errs []string
		if !r.Exhausted {
			errs = append(errs, "did not finish")
		}
		for f := range rc.Maximal {
			if !c.Maximal[f] {
				errs = append(errs, "missed the trace "+f)
			}
		}
		if !maps.Equal(c.Kinds, rc.Kinds) {
			errs = append(errs, fmt.Sprintf("failure kinds %v, want %v", c.Kinds, rc.Kinds))
		}
		if r.FinalStates != ref.FinalStates {
			errs = append(errs, fmt.Sprintf("%d final states, want %d", r.FinalStates, ref.FinalStates))
		}
		if r.Executions > ref.Executions {
			errs = append(errs, fmt.Sprintf("%d executions, more than exhaustive's %d", r.Executions, ref.Executions))
		}
		if len(errs) > 0 {
			t.Errorf("%s under %s (%d executions; exhaustive %d, %d traces):\n\t%s",
				name, s, r.Executions, ref.Executions, len(rc.Maximal), strings.Join(errs, "\n\t"))
		}
	}
}
