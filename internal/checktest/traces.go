// Package checktest is the support, for tests only, of the checks of
// strategies under the runtime: it explores a test body with a strategy
// named as package weft names them and records what each execution was
// (its Mazurkiewicz trace as a Foata normal form, its final state, its
// failure), for the exact counts and the comparisons with exhaustive
// search of the strategies' tests. No package but tests imports it.
package checktest

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/weft-go/weft"
	"github.com/weft-go/weft/internal/explore"
	"github.com/weft-go/weft/solver"
	"github.com/weft-go/weft/strategy"
	"github.com/weft-go/weft/trace"
)

// StrategyByName returns a new strategy registered under name, with the
// given seed and package weft's other defaults, or nil.
func StrategyByName(name string, seed int64) strategy.Strategy {
	c := explore.Default()
	c.Strategy, c.Seed = name, seed
	s, err := c.Build()
	if err != nil {
		return nil
	}
	return s
}

// Traces wraps a strategy and records the Foata normal form (under CR) of
// every maximal execution (completed, deadlocked or leaking), the final
// states of the completed ones (FinalState) and the kinds of failure.
type Traces struct {
	strategy.Strategy
	Maximal map[string]bool
	Finals  map[string]bool
	Kinds   map[trace.FailureKind]bool
	// Failing holds the Foata forms of the executions that failed
	// otherwise (an assertion, a panic, ...), with the kind.
	Failing map[string]bool
}

// Unwrap implements strategy.Wrapper: the inner strategy's capabilities
// (a concolic strategy's Err without Z3) show through the collector.
func (c *Traces) Unwrap() strategy.Strategy { return c.Strategy }

// Finish implements strategy.Strategy.
func (c *Traces) Finish(tr *trace.Trace, end trace.End) {
	switch {
	case end.Status == trace.Complete || end.Kind == trace.Deadlock || end.Kind == trace.Leak:
		c.Maximal[trace.Foata(tr, trace.CR)] = true
	case end.Status == trace.Failed:
		c.Failing[end.Kind.String()+": "+CausalFoata(tr, end.Thread)] = true
	case end.Status == trace.Assumed && end.InStep():
		// An assumption that did not hold (w.Assume), as a failure (not
		// an execution left with a loop that yields, which is no trace:
		// strategies run different ones).
		c.Failing["assumed: "+CausalFoata(tr, end.Thread)] = true
	}
	if end.Status == trace.Complete {
		c.Finals[FinalState(tr)] = true
	}
	if end.Status == trace.Failed {
		c.Kinds[end.Kind] = true
	}
	c.Strategy.Finish(tr, end)
}

// CausalFoata returns the Foata normal form (under CR) of the causal past
// of thread p's last event in tr (every event that happens before it, and
// it), or of tr if p took no step: what a failure of p in that step's
// local code depends on. Executions that fail alike differ in the events
// that other threads ran independently before the failure; the causal past
// does not.
func CausalFoata(tr *trace.Trace, p trace.ThreadID) string {
	last := -1
	for i := range tr.Events {
		if e := &tr.Events[i]; e.Thread == p || e.Partner == p {
			last = i
		}
	}
	if last < 0 {
		return trace.Foata(tr, trace.CR)
	}
	hb := trace.HappensBefore(tr, trace.CR)
	sub := *tr
	sub.Events = nil
	index := make([]int32, len(tr.Events)) // new index of each kept event
	for i := 0; i <= last; i++ {
		e := &tr.Events[i]
		index[i] = -1
		if i == last || hb[last].Knows(i, e.Thread) {
			index[i] = int32(len(sub.Events))
			sub.Events = append(sub.Events, *e)
		}
	}
	// A thread's events are in the causal past only if the event that
	// started it is: renumber the starting events, keep the threads.
	sub.Threads = append([]trace.ThreadInfo(nil), tr.Threads...)
	for c := range sub.Threads {
		if st := sub.Threads[c].Step; st >= 0 {
			if int(st) > last || index[st] < 0 {
				sub.Threads[c].Step = int32(len(sub.Events)) // after every kept event
			} else {
				sub.Threads[c].Step = index[st]
			}
		}
	}
	return trace.Foata(&sub, trace.CR)
}

// ExploreTraces explores body with strategy name (seed as given) to the
// end, at most maxRuns executions.
func ExploreTraces(t testing.TB, body func(w *weft.T), name string, seed int64, maxRuns int) (*weft.Result, *Traces) {
	t.Helper()
	s := StrategyByName(name, seed)
	if s == nil {
		t.Fatalf("no strategy %q", name)
	}
	return ExploreTracesWith(t, body, s, maxRuns)
}

// ExploreTracesWith explores body with strategy s to the end, at most
// maxRuns executions.
func ExploreTracesWith(t testing.TB, body func(w *weft.T), s strategy.Strategy, maxRuns int) (*weft.Result, *Traces) {
	t.Helper()
	c := &Traces{Strategy: s, Maximal: map[string]bool{}, Finals: map[string]bool{}, Kinds: map[trace.FailureKind]bool{}, Failing: map[string]bool{}}
	r, err := weft.Explore(body, weft.WithCustomStrategy(c), weft.KeepGoing(), weft.WithMaxRuns(maxRuns), weft.NoReplayFiles())
	if errors.Is(err, solver.ErrUnavailable) {
		t.Skipf("no Z3: %v", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	return r, c
}

// FinalState describes the final values of tr's variables, by name (or key
// for unnamed ones), independently of the order of first uses.
func FinalState(tr *trace.Trace) string {
	last := map[string]uint64{}
	for i := range tr.Events {
		e := &tr.Events[i]
		if e.Op.Class == trace.ClassVar {
			info := tr.Objects[e.Op.Obj]
			n := info.Name
			if n == "" {
				n = fmt.Sprintf("#%x", info.Key)
			}
			last[n] = e.Value
		}
	}
	keys := slices.Sorted(maps.Keys(last))
	var b strings.Builder
	for _, k := range keys {
		fmt.Fprintf(&b, "%s=%d ", k, last[k])
	}
	return b.String()
}
