// This file implements the tally of an exploration's executions: the
// counts, the final states, the branch sides and the first failure of
// each kind, described (describe.go) and shortened (shorten.go).

package explore

import (
	"fmt"
	"time"

	"github.com/weft-go/weft/internal/engine"
	"github.com/weft-go/weft/strategy"
	"github.com/weft-go/weft/strategy/replay"
	"github.com/weft-go/weft/trace"
)

// ReplayDiverged leads the report of a replay that did not follow its
// token; replayAdvice says why that happens and what to do.
const (
	ReplayDiverged = "the replay diverged from the recorded execution"
	replayAdvice   = "The token was recorded with another test body or other options (such as WithMaxSteps), or the body is not deterministic: " +
		"replay a token with the body and the options of the exploration that printed it; if the replay still diverges, the body is not deterministic. " + DeterminismAdvice
)

// ExplorePart runs the exploration loop in session x with strategy s until
// s ends its exploration or a bound stops it, and tallies its executions
// into a Result. The error, wrapping ErrInternal, says that s panicked;
// the Result holds what was explored until then.
func ExplorePart(x *Session, body func(), s strategy.Strategy, c *Config) (*Result, error) {
	e := x.Exec()
	var b bounds
	b.deadline, b.stop = x.Bounds()
	r := newResult(c.Strategy)
	start := time.Now()
	// A replay that does not follow its token is reported as such: the
	// token may belong to another body or other options.
	_, replaying := s.(*replay.Strategy)
	diverged := func(err error) string {
		if replaying {
			return ReplayDiverged + ": " + err.Error() + "\n" + replayAdvice
		}
		return "the test body is not deterministic: under the same schedule and inputs it did something else.\n" + err.Error() + "\n" + DeterminismAdvice
	}
	sides := branchSides{}
	finals := &r.finals
	if c.finals != nil {
		finals = c.finals
	}
	// first is the first execution that completed (a cut one cannot be
	// replayed to its cut), which a failure found later runs again
	// (repeatFirst).
	var first *firstRun
	// record tallies an execution that ended with end.
	record := func(tr *trace.Trace, end trace.End) {
		if c.Observe != nil {
			c.Observe(tr, end)
		}
		sides.add(tr)
		if c.Uncontrolled != nil && !e.Abandoned() {
			// (An abandoned execution's thread, blocked outside weft,
			// may still write the state the count is read from.)
			r.Uncontrolled = max(r.Uncontrolled, c.Uncontrolled(e))
		}
		finals.Merges(tr)
		if first == nil && end.Status == trace.Complete && !e.Abandoned() {
			first = &firstRun{rec: replay.FromTrace(tr, tr.InputValues()), end: end, n: r.Executions + 1}
		}
		r.Executions++
		r.Events += int64(len(tr.Events))
		if awaitBlocked(tr, end) {
			r.AwaitBlocked++
		}
		switch end.Status {
		case trace.Complete:
			r.Complete++
			finals.Add(tr)
		case trace.Cut:
			r.Cut++
		case trace.Assumed:
			r.Assumed++
		case trace.Failed:
			r.FailureCounts[end.Kind]++
			if r.FailureCounts[end.Kind] == 1 {
				f := newFailure(e, body, c, tr, end, r.Executions, b)
				if first != nil && repeatable(end.Kind) {
					if why := repeatFirst(body, c, first, b); why != "" {
						f.Unrepeatable = why
						f.Message += "\nThis failure may be no failure of the program's: " + why + ": the body keeps state between executions. " + UnrepeatableAdvice
					}
				}
				r.Failures = append(r.Failures, f)
			}
		}
	}
	var progress func(int, time.Duration)
	if c.Progress != nil {
		progress = func(n int, elapsed time.Duration) {
			c.Progress(Progress{Executions: n, Failures: len(r.Failures), Elapsed: elapsed})
		}
	}
	out := x.Run(s, Loop{Name: c.Strategy, MaxRuns: c.MaxRuns, StopOnFail: c.StopOnFail, IgnoreLeaks: c.IgnoreLeaks,
		Diverged: diverged, Record: record, Progress: progress, Races: c.Races})
	r.Exhausted, r.TimedOut, r.Canceled = out.Exhausted, out.TimedOut, out.Stopped
	if out.Misuse != "" {
		r.lateMisuse(out.Misuse)
	}
	r.FinalStates = r.finals.Count()
	r.Branches = sides.sites()
	r.Solver = solverStats(s)
	r.Counters = counters(s)
	if r.Exhausted {
		r.Covers = covers(s)
		if why := incomplete(s); why != "" {
			r.Exhausted, r.Incomplete = false, why
		}
	}
	r.Wall = time.Since(start)
	if out.Err == nil && out.Refused != nil {
		return r, fmt.Errorf("strategy %s: %w", c.Strategy, out.Refused)
	}
	if msg := e.SharedObject(); msg != "" && out.Err == nil {
		return r, fmt.Errorf("%w: %s", ErrSharedObject, msg)
	}
	return r, out.Err
}

// newFailure describes the failure of execution n, tr, which ended with
// end, in runtime e: its replay token, and, replayed, its steps and the
// threads it left blocked. The exploration's bounds b stop the shortening
// and the replay: once one has passed, the failure is reported as found,
// its steps described from tr and e (without the values and call sites
// that only the replay notes).
func newFailure(e *engine.Exec, body func(), c *Config, tr *trace.Trace, end trace.End, n int, b bounds) *Failure {
	rec := replay.FromTrace(tr, tr.InputValues())
	f := &Failure{Kind: end.Kind, Message: end.Message, Thread: end.Thread, Execution: n, Record: rec, Token: replay.Encode(rec), Inputs: inputValues(tr)}
	if end.Kind == trace.Livelock {
		f.Message = boundMessage(tr, c.MaxSteps)
	}
	if e.Abandoned() {
		return f
	}
	found := scheduleOf(tr, end)
	f.Switches = found.switches
	// The shortening and the replays run with the failing execution's
	// seed.
	fixed := *c
	fixed.Seed, fixed.VarySeed = rec.Seed, false
	c = &fixed
	short := shorten(body, c, found, b)
	if short != nil {
		rec = short.rec
	}
	var d described
	var err error
	replayed := false
	if !b.passed() {
		d, replayed, err = describeSteps(body, rec, c, b)
	}
	if !replayed {
		// A bound passed: the failure as found, described from its own
		// execution.
		short, d, err = nil, describeTrace(e, tr, c), nil
	}
	if short != nil {
		f.FoundSteps, f.FoundSwitches = len(found.steps), found.switches
		if !b.passed() {
			// The interleaving as found, for the HTML report's toggle.
			if o, ok, err := describeSteps(body, f.Record, c, b); ok && err == nil {
				f.Found = o.steps
			}
		}
		f.Switches, f.Record, f.Token = short.switches, short.rec, replay.Encode(short.rec)
		f.Message, f.Thread = short.end.Message, short.end.Thread
	}
	f.Steps, f.ThreadNames, f.Log, f.Threads = d.steps, d.names, d.log, d.threads
	// The counts of the report are those of the steps it lists, in which
	// a stand-in's inner steps are folded into the program's one call.
	if len(f.Steps) > 0 {
		f.Switches = switchesOf(f.Steps)
	}
	if f.FoundSteps != 0 && len(f.Found) > 0 {
		f.FoundSteps, f.FoundSwitches = len(f.Found), switchesOf(f.Found)
		if f.FoundSteps == len(f.Steps) && f.FoundSwitches == f.Switches {
			// Shortened in inner steps only: as listed, no shorter.
			f.FoundSteps, f.FoundSwitches, f.Found = 0, 0, nil
		}
	}
	f.SlowStep, f.SlowThread = d.slowStep, d.slowThread
	if err == nil && end.Kind == trace.DataRace && d.race != "" {
		f.Message, f.RaceSteps = d.race, d.raceSteps
	}
	if err == nil && (end.Kind == trace.Deadlock || end.Kind == trace.Leak) {
		f.Blocked, f.Cycle = d.blocked, waitCycle(d.blocked)
	}
	if err != nil && end.Kind != trace.Nondeterminism && end.Kind != trace.Internal {
		// A nondeterminism failure says so already, and an internal error
		// ended its execution where the strategy went wrong: the record
		// of either, cut, cannot be followed to an end.
		f.Message += "\nWhen weft replayed this execution to list its steps, " + ReplayDiverged + ": " + err.Error() +
			"\nThe test body is not deterministic: the interleaving below stops at the divergence. " + DeterminismAdvice
	}
	if end.Kind == trace.Misuse {
		e.TakeMisuse() // the replay's goroutine did it again
	}
	return f
}

// awaitBlocked reports whether the execution tr, which ended with end,
// left a thread blocked for good in a w.Await: it ended because no thread
// could move (a deadlock, or a leak, reported or ignored), and a thread's
// pending operation is an await whose condition is false.
func awaitBlocked(tr *trace.Trace, end trace.End) bool {
	if end.Status == trace.Failed && end.Kind != trace.Deadlock && end.Kind != trace.Leak {
		return false
	}
	if end.Status != trace.Failed && end.Status != trace.Complete {
		return false
	}
	for _, op := range tr.Final {
		if op.Kind == trace.KindAwait && op.Arg != trace.AwaitYield {
			return true
		}
	}
	return false
}

// switchesOf returns the number of context switches of steps: the steps
// whose thread is not the previous step's.
func switchesOf(steps []Step) int {
	n := 0
	for i := 1; i < len(steps); i++ {
		if steps[i].Thread != steps[i-1].Thread {
			n++
		}
	}
	return n
}
