// This file checks adds whose result is unused (Int.AddOnly): they commute
// with each other, so a counter incremented by n threads is one trace for
// the strategies that use the dependency relation, and with nothing else
// of the variable, which soundness_test.go checks against exhaustive
// search.

package weft_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/weft-go/weft"
	"github.com/weft-go/weft/internal/gen"
	"github.com/weft-go/weft/internal/gen/genweft"
	"github.com/weft-go/weft/internal/long"
	"github.com/weft-go/weft/solver"
	"github.com/weft-go/weft/strategy/con2"
	"github.com/weft-go/weft/strategy/unfold"
)

// counter returns a body whose n threads each add 1 to a counter, with
// AddOnly or (used) Add, and whose main thread joins them and checks the
// sum.
func counter(n int, only bool) func(*weft.T) {
	return func(w *weft.T) {
		c := &weft.Int[int]{Var: *weft.NewVar[int]("count")}
		var ts []*weft.Thread
		for range n {
			ts = append(ts, w.Go(func() {
				if only {
					c.AddOnly(1)
				} else {
					c.Add(1)
				}
			}))
		}
		for _, t := range ts {
			t.Join()
		}
		w.Assert(c.Load() == n, "count = %d, want %d", c.Load(), n)
	}
}

// orderAll are the variants whose race detection sees every access as a
// write: the Plain relation (dpor, dpor+sleep) or the per-object clocks of
// Saarikivi et al. 2012, Fig. 2 (dpor-clock*). They explore every order of the adds,
// which is sound.
var orderAll = map[string]bool{"dpor": true, "dpor+sleep": true, "dpor-clock": true, "dpor-clock+sleep": true}

// TestAddOnlyCounter pins the executions of the counter. With AddOnly:
// exactly one for optimal and every variant that uses the commuting
// relation (the adds commute, and the final Load comes after every add by
// the joins), n! for those in orderAll. With Add (its result used): n!,
// one per order of the adds, for every strategy.
func TestAddOnlyCounter(t *testing.T) {
	factorial := []int{1, 1, 2, 6, 24, 120}
	for n := 2; n <= 5; n++ {
		for _, name := range completeStrategies() {
			t.Run(fmt.Sprintf("%s/n=%d", name, n), func(t *testing.T) {
				want := 1
				if orderAll[name] {
					want = factorial[n]
				}
				for _, only := range []bool{true, false} {
					r, err := weft.Explore(counter(n, only), weft.WithStrategy(name))
					if err != nil {
						t.Fatal(err)
					}
					if !r.Exhausted || r.Executions != want || len(r.Failures) != 0 {
						t.Errorf("AddOnly %v: %d executions (exhausted %v, %d failures), want %d", only, r.Executions, r.Exhausted, len(r.Failures), want)
					}
					want = factorial[n]
				}
			})
		}
	}
}

// addOnlyOthers are the systematic strategies compareProgram does not
// check: unfold, complete, and con2, bounded by its interferences, which
// treat AddOnly as Add (the same explorations as of the program with Add);
// and the concolic strategies, which use the commuting relation (without
// inputs they explore their inner strategy's schedules) and are compared on
// final states and failure kinds.
var addOnlyOthers = []struct {
	name            string
	asAdd, complete bool
}{
	{"unfold", true, true},
	{"con2", true, false},
	{"concolic", false, true},
	{"concolic-dpor", false, true},
	{"concolic-optimal", false, true},
}

// withAdds returns p with every AddOnly an Add.
func withAdds(p *gen.Program) *gen.Program {
	var conv func([]gen.Stmt) []gen.Stmt
	conv = func(ss []gen.Stmt) []gen.Stmt {
		out := make([]gen.Stmt, len(ss))
		for i, s := range ss {
			if s.Kind == gen.AddOnly {
				s.Kind = gen.Add
			}
			s.Body, s.Child = conv(s.Body), conv(s.Child)
			out[i] = s
		}
		return out
	}
	q := *p
	q.Threads = nil
	for _, th := range p.Threads {
		q.Threads = append(q.Threads, conv(th))
	}
	q.Main = conv(p.Main)
	return &q
}

// TestDifferentialAddOnly checks every systematic strategy on random
// programs of gen.V3 that use AddOnly (15; 40 with WEFT_LONG=1; from seed 0,
// programs without AddOnly or too large for exhaustive search are passed
// over): optimal and the DPOR family against exhaustive search as
// TestDifferential does (optimal: one execution per trace), the others as
// addOnlyOthers says, where they model the program (unfold and con2
// model every program: unfold refused 1 and 2 of them, selects with a
// default and an unbuffered case, before it modelled those; the programs
// they model are counted and pinned).
func TestDifferentialAddOnly(t *testing.T) {
	t.Parallel()
	n := 40
	want := map[string]int{"unfold": 40, "con2": 40}
	if !long.Enabled() {
		n = 15
		want = map[string]int{"unfold": 15, "con2": 15}
	}
	checked := 0
	modelled := map[string]int{}
	noZ3 := map[string]bool{} // the concolic strategies, without Z3 (no cgo)
	seed := uint64(0)
	for ; checked < n; seed++ {
		p := gen.NewWith(seed, gen.V3)
		if !strings.Contains(p.String(), "AddOnly") {
			continue
		}
		msg, ok := compareProgram(p)
		if !ok {
			continue
		}
		checked++
		if msg != "" {
			t.Error(msg)
		}
		ref, err := exploreRecorded(genweft.Body(p), "exhaustive", maxRefRuns)
		if err != nil {
			t.Fatal(err)
		}
		for _, o := range addOnlyOthers {
			if noZ3[o.name] {
				continue
			}
			got, err := exploreRecorded(genweft.Body(p), o.name, 10*maxRefRuns)
			if errors.Is(err, solver.ErrUnavailable) {
				noZ3[o.name] = true
				continue
			}
			if errors.Is(err, unfold.ErrUnmodelled) || errors.Is(err, con2.ErrUnsupported) {
				continue
			}
			if err != nil {
				t.Errorf("seed %d, %s: %v", seed, o.name, err)
				continue
			}
			modelled[o.name]++
			if o.asAdd {
				twin, err := exploreRecorded(genweft.Body(withAdds(p)), o.name, 10*maxRefRuns)
				if err != nil {
					t.Fatal(err)
				}
				if got.Executions != twin.Executions || diffSets(got.Finals, twin.Finals) != "" || diffSets(got.Kinds, twin.Kinds) != "" {
					t.Errorf("seed %d, %s: %d executions, %v, %v; with Add for AddOnly: %d, %v, %v\n%v", seed, o.name,
						got.Executions, keysSorted(got.Finals), kindList(got.Kinds), twin.Executions, keysSorted(twin.Finals), kindList(twin.Kinds), p)
				}
			}
			if !o.complete {
				continue
			}
			if d := diffSets(ref.Finals, got.Finals); d != "" || !got.Finished() {
				t.Errorf("seed %d, %s: exhausted %v, final states differ from exhaustive's: %s\n%v", seed, o.name, got.Finished(), d, p)
			}
			if d := diffSets(ref.Kinds, got.Kinds); d != "" {
				t.Errorf("seed %d, %s: failure kinds differ from exhaustive's: %s\n%v", seed, o.name, d, p)
			}
		}
	}
	t.Logf("%d programs with AddOnly (seeds 0-%d); modelled: %v; without Z3: %v", checked, seed-1, modelled, noZ3)
	for _, o := range addOnlyOthers {
		if noZ3[o.name] {
			continue
		}
		if w, ok := want[o.name]; ok && modelled[o.name] != w {
			t.Errorf("%s modelled %d programs, want %d", o.name, modelled[o.name], w)
		} else if !ok && modelled[o.name] != checked {
			t.Errorf("%s modelled %d programs, want every one, %d", o.name, modelled[o.name], checked)
		}
	}
}
