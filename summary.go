// This file implements the one-line summary of an exploration that Check
// logs: what ran, and whether it was all there was to run.

package weft

import (
	"fmt"
)

// summary describes the exploration in one line: the strategy, the
// executions, the final states, the wall time and whether the exploration
// finished ("exhaustive", or "covered ..." for a strategy that aims at a
// coverage goal) or what stopped it ("NOT exhaustive: ..."), as in
//
//	strategy optimal, executions 29 (complete 29, cut 0, failing 0), final states 3, wall 1.2ms: exhaustive (the strategy finished)
//
// Executions assumed away (w.Assume) are counted after the cut ones, if
// any.
func (r *Result) summary(c *config) string {
	assumed := ""
	if r.Assumed > 0 {
		assumed = fmt.Sprintf(", assumed away %d", r.Assumed)
	}
	s := fmt.Sprintf("strategy %s, executions %d (complete %d, cut %d%s, failing %d), final states %d",
		r.Strategy, r.Executions, r.Complete, r.Cut, assumed, r.Executions-r.Complete-r.Cut-r.Assumed, r.FinalStates)
	switch {
	case len(r.Workers) > 0:
		s += fmt.Sprintf(", %d workers", len(r.Workers))
	case r.NotParallel != "":
		s += fmt.Sprintf(", one worker (%s)", r.NotParallel)
	}
	s += fmt.Sprintf(", wall %v: ", r.Wall.Round(10_000))
	switch {
	case r.Exhausted && r.Covers != "":
		return s + "covered " + r.Covers + " (the strategy finished; it is not a deadlock search: a deadlock, or a failure that only a plain Go if leads to, is found only when an execution runs into it)"
	case r.Exhausted:
		return s + "exhaustive (the strategy finished)"
	}
	return s + "NOT exhaustive: " + r.stopped(c)
}

// stopped says what stopped an exploration that did not finish.
func (r *Result) stopped(c *config) string {
	switch {
	case r.Incomplete != "":
		return "the strategy finished, but " + r.Incomplete
	case r.Failed() && c.stopOnFail:
		return "stopped at the first failure (KeepGoing explores on)"
	case r.TimedOut:
		return fmt.Sprintf("stopped by the timeout of %v (WithTimeout)", c.timeout)
	case r.Canceled:
		return "stopped: the context was canceled (WithContext)"
	case c.maxRuns > 0 && r.Executions >= c.maxRuns:
		return fmt.Sprintf("stopped at the bound of %d executions (WithMaxRuns)", c.maxRuns)
	case r.Failed():
		return "stopped by a failure that ends every exploration (a thread blocked outside weft's control, or nondeterminism)"
	}
	return "stopped before the strategy finished"
}
