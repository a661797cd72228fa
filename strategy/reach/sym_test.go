// Tests of symbolic inputs: reach with Z3 against brute force (exhaustive
// search for every vector of input values in small ranges), on hand
// programs with exact counts and on random programs.

package reach_test

import (
	"errors"
	"testing"
	"time"

	"github.com/weft-go/weft"
	"github.com/weft-go/weft/solver"
	"github.com/weft-go/weft/solver/z3"
	"github.com/weft-go/weft/strategy"
	"github.com/weft-go/weft/strategy/exhaustive"
	"github.com/weft-go/weft/strategy/reach"
)

// withZ3 returns o with a Z3 solver, or skips the test without Z3 (a
// build without cgo).
func withZ3(t testing.TB, o reach.Options) reach.Options {
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

// fixedInputs is exhaustive search with the inputs given by name.
type fixedInputs struct {
	strategy.Strategy
	values map[string]int64
}

func (f *fixedInputs) Unwrap() strategy.Strategy { return f.Strategy }

func (f *fixedInputs) Input(_ *strategy.State, in strategy.InputRequest) uint64 {
	if v, ok := f.values[in.Name]; ok {
		return uint64(v)
	}
	return in.Default
}

// brute returns the runs of exhaustive search of body for every vector of
// values of the named inputs, each in values, and whether every search
// finished within limit executions.
func brute(t testing.TB, body func(*weft.T), names []string, values []int64, limit int) ([]synRun, bool) {
	t.Helper()
	var all []synRun
	vec := make([]int, len(names))
	for {
		m := map[string]int64{}
		for i, n := range names {
			m[n] = values[vec[i]]
		}
		runs, r := run(t, body, &fixedInputs{exhaustive.New(), m}, limit)
		if !r.Exhausted {
			return nil, false
		}
		all = append(all, runs...)
		i := len(vec) - 1
		for ; i >= 0; i-- {
			if vec[i]++; vec[i] < len(values) {
				break
			}
			vec[i] = 0
		}
		if i < 0 {
			return all, true
		}
	}
}

// TestSymbolic compares reach with brute force on hand programs with
// inputs; want is the number of SYN-sequences with their branches' sides.
func TestSymbolic(t *testing.T) {
	k := weft.Const[int64]
	for _, c := range []struct {
		name       string
		want, runs int
		unsat      int
		values     []int64 // of x, for brute force
		body       func(*weft.T)
	}{
		// T1 sends x, T2 sends 5; the body takes them in either order
		// and branches on the first value: on x, both sides (x > 3 or
		// not); on 5, no branch (a constant). 3 sequences.
		{"first value", 3, 3, 0, []int64{0, 3, 4, 9}, func(w *weft.T) {
			x := w.InputRange("x", 0, 9)
			ch := weft.MakeChan[weft.SInt](0)
			w.Go(func() { ch.Send(x) })
			w.Go(func() { ch.Send(k(5)) })
			if v := ch.Recv(); w.If(v.Gt(k(3))) {
				_ = v
			}
			ch.Recv()
		}},
		// Two threads branch on one input, concurrently (each after a
		// step of its own): x > 3 and x > 5 have three feasible
		// combinations of sides (not x <= 3 and x > 5). The first run
		// takes x = 0 (false, false); the race table's rows flip one or
		// both: (true, false), (false, true), (true, true). (false,
		// true) is unsatisfiable, its flipped branch alone is not: the
		// variant is relaxed, its run takes (true, true) and is not
		// counted, and its node has no row that removes the first
		// branch. 3 sequences, 4 runs.
		{"concurrent branches", 3, 4, 0, []int64{0, 3, 4, 5, 6, 9}, func(w *weft.T) {
			x := w.InputRange("x", 0, 9)
			u, v := weft.NewVar[int]("u"), weft.NewVar[int]("v")
			a := w.Go(func() { u.Load(); w.If(x.Gt(k(3))) })
			b := w.Go(func() { v.Load(); w.If(x.Gt(k(5))) })
			a.Join()
			b.Join()
		}},
		// The same branches in the threads' first local code, which runs
		// in their spawns: the first branch happened before the body
		// started the second thread, so flipping it removes the second
		// branch (its row is (true, -1)), and no variant is relaxed: 3
		// sequences, 3 runs.
		{"branches in spawns", 3, 3, 0, []int64{0, 3, 4, 5, 6, 9}, func(w *weft.T) {
			x := w.InputRange("x", 0, 9)
			a := w.Go(func() { w.If(x.Gt(k(3))) })
			b := w.Go(func() { w.If(x.Gt(k(5))) })
			a.Join()
			b.Join()
		}},
		// A branch decides a thread's next step: on x > 0, T1 sends on
		// ch and the body receives T1's value or T2's first; otherwise
		// T1 sends nothing and the body takes T2's. The message race
		// exists on one side only: 2 + 1 = 3.
		{"branch then race", 3, 3, 0, []int64{-1, 0, 1}, func(w *weft.T) {
			x := w.InputRange("x", -1, 1)
			ch := weft.MakeChan[int](1)
			w.Go(func() {
				if w.If(x.Gt(k(0))) {
					ch.Send(1)
				}
			})
			w.Go(func() { ch.Send(2) })
			ch.Recv()
		}},
		// A value through a shared variable: T2 stores x, T1 loads
		// and fails if it read more than 0 (Kähkönen et al. 2014's
		// Example 2). T1 before T2: the zero value, no branch on an
		// input (1); after: x > 0 fails or not (2). 3.
		{"variable", 3, 3, 0, []int64{-2, -1, 0, 1, 2}, func(w *weft.T) {
			v := weft.NewVar[weft.SInt]("v")
			w.Go(func() {
				if a := v.Load(); w.If(a.Gt(k(0))) {
					w.Fail("read %d > 0", a.Value())
				}
			})
			w.Go(func() { v.Store(w.InputRange("x", -2, 2)) })
		}},
		// A CompareAndSwap whose outcome depends on an input: T1 swaps
		// v from x to 1, which succeeds iff x is v's value, 0; T2 reads v
		// and fails if the swap came first and succeeded. The swap's
		// outcome is a branch of its step, after which what came on v
		// differs: the load before the swap (2: it succeeds or not), or
		// after (2: T2 fails or not). 4.
		{"compare-and-swap", 4, 4, 0, []int64{-1, 0, 1}, func(w *weft.T) {
			x := w.InputRange("x", -1, 1)
			v := weft.NewVar[weft.SInt]("v")
			a := w.Go(func() { v.CompareAndSwap(x, k(1)) })
			b := w.Go(func() {
				if v.Load().Value() == 1 {
					w.Fail("swapped")
				}
			})
			a.Join()
			b.Join()
		}},
		// A CompareAndSwap on a value another thread stored: T2 stores x
		// in v, T1 swaps v from 0 to 1 (and fails if it did). Before the
		// store the swap succeeds (1); after it, iff x == 0 (2). 3
		// sequences, 4 runs: the first swap fails while the store could
		// still move, and is run again postponed.
		{"compare-and-swap after a store", 3, 4, 0, []int64{-1, 0, 1}, func(w *weft.T) {
			x := w.InputRange("x", -1, 1)
			v := weft.NewVar[weft.SInt]("v")
			a := w.Go(func() {
				if v.CompareAndSwap(k(0), k(1)) {
					w.Fail("swapped")
				}
			})
			b := w.Go(func() { v.Store(x) })
			a.Join()
			b.Join()
		}},
		// A TryLock races with a Lock that a branch allows: x <= 0, no
		// Lock, the TryLock succeeds (1); x > 0, the Lock first and the
		// TryLock fails, T2 then fails, or the TryLock first and T1
		// waits forever (2). 3.
		{"trylock", 3, 3, 0, []int64{-2, -1, 0, 1, 2}, func(w *weft.T) {
			mu := weft.NewMutex("mu")
			x := w.InputRange("x", -2, 2)
			w.Go(func() {
				if w.If(x.Gt(k(0))) {
					mu.Lock()
				}
			})
			w.Go(func() {
				if !mu.TryLock() {
					w.Fail("mu held")
				}
			})
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			o := withZ3(t, reach.Options{})
			ex, ok := brute(t, c.body, []string{"x"}, c.values, 5000)
			if !ok {
				t.Fatal("brute force did not finish")
			}
			cmp := compareRuns(t, ex, c.body, o)
			if !cmp.ok() || cmp.want != c.want || cmp.got != c.want || cmp.runs != c.runs || cmp.unsat != c.unsat {
				t.Errorf("want %d sequences, %d runs, %d variants unsat; got %d runs, %d unsat: %v", c.want, c.runs, c.unsat, cmp.runs, cmp.unsat, cmp)
			}
		})
	}
}

// TestEndRace pins an end race (ends.go): T1 fails once it holds mu;
// T2 reads a variable and fails if x < 3, or else takes mu for good, so
// that T1 waits forever (a leak, the one sequence that does not fail).
// On the first input (x = 0) both fail, each postponed behind the other,
// and the run that takes T1's lock ends before T2's load: T2's branch was
// in no sequence analysed, and the leak was never run (the exploration
// was not called exhaustive). A probe run takes T2's load instead, and
// the run taken again has T2's load and branch after its end; flipping
// the branch gives the leak.
func TestEndRace(t *testing.T) {
	k := weft.Const[int64]
	body := func(w *weft.T) {
		x := w.InputRange("x", 0, 9)
		mu := weft.NewMutex("mu")
		v := weft.NewVar[int]("v")
		w.Go(func() {
			mu.Lock()
			w.Fail("T1 holds mu")
		})
		w.Go(func() {
			v.Load()
			if w.If(x.Lt(k(3))) {
				w.Fail("x < 3")
			}
			mu.Lock()
		})
	}
	o := withZ3(t, reach.Options{})
	ex, ok := brute(t, body, []string{"x"}, []int64{0, 3}, 5000)
	if !ok {
		t.Fatal("brute force did not finish")
	}
	s := reach.New(o)
	defer s.Close()
	_, r := run(t, body, s, 0)
	cmp := compareRuns(t, ex, body, o)
	// 4 sequences, 3 of them run (the others fail where exhaustive
	// search counts one per point); 7 runs: 3 with a failing call
	// postponed, the probe, and 3 analysed.
	if st := s.Stats(); !cmp.ok() || cmp.want != 4 || cmp.got != 3 || cmp.runs != 7 || st.Probes != 1 || st.Retries != 3 || r.Incomplete != "" {
		t.Errorf("want 4 sequences, 3 analysed, 7 runs, 1 probe, 3 retries, exhaustive; got %d, %d, %d, %d, %d, %q: %v", cmp.want, cmp.got, cmp.runs, st.Probes, st.Retries, r.Incomplete, cmp)
	}
}
