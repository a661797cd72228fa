// This file implements Result.Merge: the results of explorations of parts
// of one program (units of work) combined into one.

package explore

import (
	"slices"

	"github.com/weft-go/weft/strategy"
	"github.com/weft-go/weft/trace"
)

// Merge adds o, the result of an exploration of another part of the same
// test body with the same strategy (a unit of work, strategy.Splitter),
// to r: the counts add up, the failures of a kind r has not seen join r's
// (their Execution numbers are o's own), the final states are counted
// once over both, the solver's and the strategy's counters add up, the
// branch sides taken in either are taken, Wall and Uncontrolled are the
// larger of the two,
// and r is exhausted only if both were.
func (r *Result) Merge(o *Result) {
	r.Executions += o.Executions
	r.Complete += o.Complete
	r.Cut += o.Cut
	r.Assumed += o.Assumed
	r.AwaitBlocked += o.AwaitBlocked
	r.Events += o.Events
	r.Exhausted = r.Exhausted && o.Exhausted
	r.TimedOut = r.TimedOut || o.TimedOut
	r.Canceled = r.Canceled || o.Canceled
	r.Wall = max(r.Wall, o.Wall)
	r.Uncontrolled = max(r.Uncontrolled, o.Uncontrolled)
	if r.FailureCounts == nil {
		r.FailureCounts = map[trace.FailureKind]int{}
	}
	for _, f := range o.Failures {
		if r.FailureCounts[f.Kind] == 0 {
			r.Failures = append(r.Failures, f)
		}
	}
	for k, n := range o.FailureCounts {
		r.FailureCounts[k] += n
	}
	r.finals.Merge(&o.finals)
	r.FinalStates = r.finals.Count()
	r.Branches = mergeSites(r.Branches, o.Branches)
	r.Solver = r.Solver.Add(o.Solver)
	r.addCounters(o.Counters)
}

// addCounters adds cs to r's counters, by name.
func (r *Result) addCounters(cs []strategy.Counter) {
	for _, c := range cs {
		if i := slices.IndexFunc(r.Counters, func(x strategy.Counter) bool { return x.Name == c.Name }); i >= 0 {
			r.Counters[i].Value += c.Value
		} else {
			r.Counters = append(r.Counters, c)
		}
	}
}
