// This file implements the conversion of package explore's Result into
// the Result of this package, and of the options into its Config, and
// the one-line summary of an exploration that Check logs: what ran, and
// whether it was all there was to run.

package weft

import (
	"fmt"
	"time"

	"github.com/weft-go/weft/internal/engine"
	"github.com/weft-go/weft/internal/explore"
	"github.com/weft-go/weft/trace"
)

// A command that runs an exploration in a mode of package explore's (weft
// run -nats) reports its Result as this package's.
func init() {
	explore.APIResult = func(r *explore.Result) any { return resultOf(r) }
	explore.APIBody = func(body any) func() {
		c := defaultConfig()
		return run(body.(func(*T)), &c)
	}
}

// exploration returns the Config package explore runs c with.
func (c *config) exploration() *explore.Config {
	var stop <-chan struct{}
	if c.ctx != nil {
		stop = c.ctx.Done()
	}
	timeout := c.timeout
	if timeout > 0 {
		timeout = max(timeout-c.spent, time.Nanosecond) // what Check's replay files left of it
	}
	x := &explore.Config{Strategy: c.strategyName, Custom: c.strategy, Chosen: c.strategySet,
		Seed: c.seed, Depth: c.depth, K: c.k, ReachPV: c.reachPV, ReachSymmetric: c.reachSym, MaxRuns: c.maxRuns, MaxSteps: c.maxSteps,
		Timeout: timeout, Stop: stop, Watchdog: c.watchdog, Time: c.time, StopOnFail: c.stopOnFail,
		Workers: c.workers, Shorten: c.shorten, Races: c.races, Batch: c.batch, Observe: c.observe,
		VarySeed: c.varySeed, IgnoreLeaks: c.ignoreLeaks, IgnoreLeak: c.ignoreLeak, Epoch: engine.NextEpoch()}
	x.Log = func(e *engine.Exec) []string {
		if s := lastState(e); s != nil {
			return s.logLines()
		}
		return nil
	}
	x.Uncontrolled = func(e *engine.Exec) int {
		if s := lastState(e); s != nil {
			return s.uncontrolled
		}
		return 0
	}
	if p := c.progress; p != nil {
		x.Progress = func(pr explore.Progress) { p(Progress(pr)) }
	}
	return x
}

// resultOf returns r as this package's Result (nil for nil).
func resultOf(r *explore.Result) *Result {
	if r == nil {
		return nil
	}
	return &Result{Strategy: r.Strategy, Executions: r.Executions, Complete: r.Complete, Cut: r.Cut, Assumed: r.Assumed, AwaitBlocked: r.AwaitBlocked,
		Exhausted: r.Exhausted, TimedOut: r.TimedOut, Canceled: r.Canceled,
		Failures: each(r.Failures, failureOf), FailureCounts: r.FailureCounts, FinalStates: r.FinalStates,
		Events: r.Events, Wall: r.Wall, Solver: r.Solver, Counters: r.Counters,
		Workers:     each(r.Workers, func(w explore.WorkerStats) WorkerStats { return WorkerStats(w) }),
		NotParallel: r.NotParallel, Covers: r.Covers, Note: r.Note, Incomplete: r.Incomplete,
		Branches:     each(r.Branches, func(b explore.BranchSite) BranchSite { return BranchSite(b) }),
		Uncontrolled: r.Uncontrolled}
}

// failureOf returns f as this package's Failure.
func failureOf(f *explore.Failure) *Failure {
	return &Failure{Kind: f.Kind, Message: f.Message, Thread: f.Thread, Execution: f.Execution, Token: f.Token, Record: f.Record,
		Steps:   each(f.Steps, func(s explore.Step) Step { return Step(s) }),
		Inputs:  each(f.Inputs, func(in explore.InputValue) InputValue { return InputValue(in) }),
		Objects: f.Objects,
		Blocked: each(f.Blocked, func(b explore.Blocked) Blocked { return Blocked(b) }),
		Cycle:   f.Cycle, Switches: f.Switches, FoundSteps: f.FoundSteps, FoundSwitches: f.FoundSwitches,
		ThreadNames: f.ThreadNames, SlowStep: f.SlowStep, SlowThread: f.SlowThread, Log: f.Log,
		Threads:   each(f.Threads, func(t explore.ThreadStart) ThreadStart { return ThreadStart(t) }),
		RaceSteps: f.RaceSteps,
		Found:     each(f.Found, func(s explore.Step) Step { return Step(s) }), Unrepeatable: f.Unrepeatable}
}

// each returns xs, each converted by f (nil for nil).
func each[U, T any](xs []U, f func(U) T) []T {
	if xs == nil {
		return nil
	}
	out := make([]T, len(xs))
	for i, x := range xs {
		out[i] = f(x)
	}
	return out
}

// summary describes the exploration in one line: the strategy, the
// executions, the final states, the wall time and whether the exploration
// finished ("exhaustive", or "covered ..." for a strategy that aims at a
// coverage goal) or what stopped it ("NOT exhaustive: ..."), as in
//
//	strategy optimal, executions 29 (complete 29, cut 0, failing 0), final states 3, wall 1.2ms: exhaustive (the strategy finished)
//
// Executions assumed away (w.Assume) are counted after the cut ones, if
// any, and those that reached the step bound after the failing ones (which
// they are not), if any.
func (r *Result) summary(c *config) string {
	assumed := ""
	if r.Assumed > 0 {
		assumed = fmt.Sprintf(", assumed away %d", r.Assumed)
	}
	// Executions that reached the step bound proved no failure: they are
	// counted apart.
	bounded := ""
	hits := r.FailureCounts[trace.Livelock]
	if hits > 0 {
		bounded = fmt.Sprintf(", at the step bound %d", hits)
	}
	s := fmt.Sprintf("strategy %s, executions %d (complete %d, cut %d%s, failing %d%s), final states %d",
		r.Strategy, r.Executions, r.Complete, r.Cut, assumed, r.Executions-r.Complete-r.Cut-r.Assumed-hits, bounded, r.FinalStates)
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

// maxSteps returns the step bound of an execution under c.
func maxSteps(c *config) int {
	if c.maxSteps > 0 {
		return c.maxSteps
	}
	return engine.DefaultMaxSteps
}

// stopped says what stopped an exploration that did not finish.
func (r *Result) stopped(c *config) string {
	switch {
	case r.Incomplete != "":
		return "the strategy finished, but " + r.Incomplete
	case r.firstFailure() != nil && c.stopOnFail:
		return "stopped at the first failure (KeepGoing explores on)"
	case r.FailureCounts[trace.Livelock] >= explore.MaxBoundHits && c.stopOnFail:
		return fmt.Sprintf("stopped after %d executions reached the step bound (%d steps) (KeepGoing explores on)", r.FailureCounts[trace.Livelock], maxSteps(c))
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
