// Tests of Value, the shared variable of any type: a lost append found,
// with the executions, traces and final states of the equivalent Var.

package weft_test

import (
	"path/filepath"
	"testing"

	"github.com/weft-go/weft"
	"github.com/weft-go/weft/internal/golden"
	"github.com/weft-go/weft/trace"
)

// appendRace returns a body where two threads append their number to a
// shared slice, each with a load and a store: one append can be lost. With
// check set, the body asserts that none was.
func appendRace(check bool) func(w *weft.T) {
	return func(w *weft.T) {
		log := weft.NewValue[[]int]("log")
		add := func(i int) { log.Store(append(log.Load(), i)) }
		a := w.Go(func() { add(1) })
		b := w.Go(func() { add(2) })
		a.Join()
		b.Join()
		if check {
			s := log.Load()
			w.Assert(len(s) == 2, "lost an append: log = %v", s)
		}
	}
}

// counterRace is appendRace with an int for the slice: appending digit i
// is x*10+i, so the final values (12, 21, 1, 2) are as distinct as the
// slices ([1 2], [2 1], [1], [2]).
func counterRace(check bool) func(w *weft.T) {
	return func(w *weft.T) {
		x := weft.NewVar[int]("x")
		add := func(i int) { x.Store(x.Load()*10 + i) }
		a := w.Go(func() { add(1) })
		b := w.Go(func() { add(2) })
		a.Join()
		b.Join()
		if check {
			n := x.Load()
			w.Assert(n >= 10, "lost an add: x = %d", n)
		}
	}
}

// TestValueAppendRace: a Value of a slice explores as the Var of an int
// does: the same executions, complete and failing, traces and final
// states, under each strategy that counts traces; the lost append is
// found.
func TestValueAppendRace(t *testing.T) {
	type counts struct {
		executions, complete, failing, traces, finals int
	}
	run := func(body func(w *weft.T), strategy string) counts {
		t.Helper()
		traces := map[string]bool{}
		r, err := weft.Explore(body, weft.WithStrategy(strategy), weft.KeepGoing(), weft.NoReplayFiles(),
			weft.WithObserver(func(tr *trace.Trace, _ trace.End) { traces[trace.Foata(tr, trace.CR)] = true }))
		if err != nil {
			t.Fatal(err)
		}
		if !r.Exhausted {
			t.Fatalf("%s: not exhausted", strategy)
		}
		return counts{r.Executions, r.Complete, r.FailureCounts[trace.Assertion], len(traces), r.FinalStates}
	}
	for _, c := range []struct {
		strategy string
		check    bool
		want     counts
	}{
		// Four traces: one thread's load and store before the other's
		// (two), or both loads before both stores, in either order of
		// the stores (two, each losing an append).
		{"optimal", false, counts{4, 4, 0, 4, 4}},
		{"optimal", true, counts{4, 2, 2, 4, 2}},
		{"exhaustive", false, counts{10, 10, 0, 4, 4}},
		{"dpor", true, counts{6, 2, 4, 4, 2}},
	} {
		got := run(appendRace(c.check), c.strategy)
		if got != c.want {
			t.Errorf("%s, check %v: Value[[]int] gave %+v, want %+v", c.strategy, c.check, got, c.want)
		}
		if v := run(counterRace(c.check), c.strategy); v != got {
			t.Errorf("%s, check %v: Value[[]int] gave %+v, Var[int] %+v", c.strategy, c.check, got, v)
		}
	}
}

// stock is a struct with a slice and a map, for Value.
type stock struct {
	Items []string
	Count map[string]int
}

// TestValueMapFinalStates: a Value of a struct holding a slice and a map
// counts final states by contents: the map's order does not make two
// states, a lost update does.
func TestValueMapFinalStates(t *testing.T) {
	r, err := weft.Explore(func(w *weft.T) {
		s := weft.NewValue[stock]("stock")
		put := func(item string) {
			old := s.Load()
			next := stock{Items: append(append([]string(nil), old.Items...), item), Count: map[string]int{}}
			for k, v := range old.Count {
				next.Count[k] = v
			}
			next.Count[item]++
			s.Store(next)
		}
		a := w.Go(func() { put("apple") })
		b := w.Go(func() { put("pear") })
		a.Join()
		b.Join()
	}, weft.WithStrategy("optimal"), weft.NoReplayFiles())
	if err != nil {
		t.Fatal(err)
	}
	// Items [apple pear], [pear apple], [apple], [pear]: four states
	// (the two orders of both items have the same map).
	if r.Executions != 4 || r.FinalStates != 4 || !r.Exhausted || r.Failed() {
		t.Errorf("%d executions, %d final states, exhausted %v, failures %v; want 4, 4, true, none",
			r.Executions, r.FinalStates, r.Exhausted, r.FailureCounts)
	}
}

// TestValueReportGolden checks the report of the lost append, whose steps
// show the slices loaded and stored, against
// testdata/report/value_append.golden.
func TestValueReportGolden(t *testing.T) {
	r := explore(t, appendRace(true), weft.WithStrategy("optimal"), weft.NoReplayFiles())
	if len(r.Failures) != 1 || r.Failures[0].Kind != trace.Assertion {
		t.Fatalf("failures %v, want one assertion", r.FailureCounts)
	}
	f := r.Failures[0]
	cmd := weft.ReplayEnv + "=" + f.Token + " go test -run '^TestValueReportGolden$'"
	golden.Check(t, filepath.Join("testdata", "report", "value_append.golden"), golden.Normalize(f.Report(cmd)), *update)
}
