// This file implements Outcome, what an exploration found as the
// comparisons with exhaustive search see it, and the helpers that compare
// sets.

package checktest

import (
	"fmt"
	"sort"

	"github.com/weft-go/weft"
	"github.com/weft-go/weft/strategy"
	"github.com/weft-go/weft/trace"
)

// Outcome is what an exploration found, as the comparisons with
// exhaustive search see it.
type Outcome struct {
	Name                      string
	Executions, Complete, Cut int
	Exhausted                 bool
	// Incomplete is the Result's: why an exploration that ended may have
	// missed behaviours ("" if it did not).
	Incomplete string
	Finals     map[string]bool // final states of complete executions
	Kinds      map[trace.FailureKind]bool
	Forms      map[string]int // Foata forms of complete executions, with counts
	FailForms  map[string]int // Foata forms of failed executions (with the kind)
	// FailPasts holds the failures as events: the kind and the Foata form
	// of the failing step's causal past (trace.FoataPast), or of the
	// whole trace for a deadlock or leak. Every complete strategy must
	// reach each of them, in any order of exploration; a failing trace
	// with independent steps of other threads before the failure is
	// reached or not depending on that order.
	FailPasts map[string]bool
	// Maximal holds the Foata forms of the maximal executions: those that
	// completed, deadlocked or leaked.
	Maximal map[string]bool
}

// NewOutcome returns an empty outcome of strategy name.
func NewOutcome(name string) *Outcome {
	return &Outcome{Name: name, Finals: map[string]bool{}, Kinds: map[trace.FailureKind]bool{},
		Forms: map[string]int{}, FailForms: map[string]int{}, FailPasts: map[string]bool{}, Maximal: map[string]bool{}}
}

// Add records the finished execution tr, which ended with end.
func (o *Outcome) Add(tr *trace.Trace, end trace.End) {
	switch end.Status {
	case trace.Complete:
		f := trace.Foata(tr, trace.CR)
		o.Forms[f]++
		o.Maximal[f] = true
		o.Finals[FinalState(tr)] = true
	case trace.Failed:
		f := trace.Foata(tr, trace.CR)
		o.Kinds[end.Kind] = true
		o.FailForms[end.Kind.String()+": "+f]++
		if end.InStep() && len(tr.Events) > 0 {
			f = trace.FoataPast(tr, trace.CR, len(tr.Events)-1)
		}
		o.FailPasts[end.Kind.String()+": "+f] = true
		if end.Kind == trace.Deadlock || end.Kind == trace.Leak {
			o.Maximal[f] = true
		}
	case trace.Assumed:
		if end.InStep() {
			// (An execution left with a loop that yields, assumed away
			// where no thread could move, is no trace: strategies run
			// different ones.)
			o.FailForms["assumed: "+trace.Foata(tr, trace.CR)]++
		}
	}
}

// recorder wraps a strategy and records every finished execution in out.
type recorder struct {
	strategy.Strategy
	out *Outcome
}

// Unwrap implements strategy.Wrapper.
func (r *recorder) Unwrap() strategy.Strategy { return r.Strategy }

// Finish implements strategy.Strategy.
func (r *recorder) Finish(tr *trace.Trace, end trace.End) {
	r.out.Add(tr, end)
	r.Strategy.Finish(tr, end)
}

// ExploreRecorded runs body under the strategy called name, recorded, with
// at most maxRuns executions, and opts.
func ExploreRecorded(body func(*weft.T), name string, maxRuns int, opts ...weft.Option) (*Outcome, error) {
	s := StrategyByName(name, 0)
	if s == nil {
		return nil, fmt.Errorf("no strategy %q", name)
	}
	return ExploreWith(body, s, name, maxRuns, opts...)
}

// Recording returns s wrapped so that every execution it finishes is
// added to o.
func Recording(s strategy.Strategy, o *Outcome) strategy.Strategy {
	return &recorder{Strategy: s, out: o}
}

// ExploreWith runs body under strategy s, recorded, with at most maxRuns
// executions, and opts.
func ExploreWith(body func(*weft.T), s strategy.Strategy, name string, maxRuns int, opts ...weft.Option) (*Outcome, error) {
	o := NewOutcome(name)
	opts = append([]weft.Option{weft.WithCustomStrategy(Recording(s, o)), weft.KeepGoing(), weft.WithMaxRuns(maxRuns)}, opts...)
	r, err := weft.Explore(body, opts...)
	if err != nil {
		return nil, err
	}
	o.Executions, o.Complete, o.Cut, o.Exhausted, o.Incomplete = r.Executions, r.Complete, r.Cut, r.Exhausted, r.Incomplete
	return o, nil
}

// Finished reports whether the exploration ended by itself: exhausted, or
// ended with what it may have missed said (Incomplete).
func (o *Outcome) Finished() bool { return o.Exhausted || o.Incomplete != "" }

// KeysOf returns the keys of m as a set.
func KeysOf(m map[string]int) map[string]bool {
	s := make(map[string]bool, len(m))
	for k := range m {
		s[k] = true
	}
	return s
}

// DiffSets describes the differences between sets want and got, or "".
func DiffSets[K comparable](want, got map[K]bool) string {
	var missing, extra []string
	for k := range want {
		if !got[k] {
			missing = append(missing, fmt.Sprint(k))
		}
	}
	for k := range got {
		if !want[k] {
			extra = append(extra, fmt.Sprint(k))
		}
	}
	if len(missing) == 0 && len(extra) == 0 {
		return ""
	}
	sort.Strings(missing)
	sort.Strings(extra)
	const most = 3
	if len(missing) > most {
		missing = append(missing[:most], "...")
	}
	if len(extra) > most {
		extra = append(extra[:most], "...")
	}
	return fmt.Sprintf("missing %v, extra %v", missing, extra)
}

// CheckPrograms runs check on programs from seed from on until n of them
// were checked (check reports false for one too large to check) or more
// than maxSkipped were skipped, and reports an error of t if fewer than n
// were checked. It returns the last seed tried and the number skipped.
func CheckPrograms(t interface {
	Helper()
	Errorf(format string, args ...any)
}, n int, from uint64, maxSkipped int, check func(seed uint64) bool) (last uint64, skipped int) {
	t.Helper()
	checked := 0
	seed := from
	for ; checked < n && skipped <= maxSkipped; seed++ {
		if check(seed) {
			checked++
		} else {
			skipped++
		}
	}
	if checked < n {
		t.Errorf("only %d of the %d programs asked for were checked: seeds %d-%d, %d of them too large (at most %d may be)",
			checked, n, from, seed-1, skipped, maxSkipped)
	}
	return seed - 1, skipped
}
