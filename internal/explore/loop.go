// This file implements the exploration loop: run executions under a
// strategy until it is done or a bound stops it, and hand each one to the
// caller's tally.

package explore

import (
	"fmt"
	"slices"
	"time"

	"github.com/weft-go/weft/internal/engine"
	"github.com/weft-go/weft/internal/races"
	"github.com/weft-go/weft/strategy"
	"github.com/weft-go/weft/trace"
)

// Loop says how Session.Run runs an exploration.
type Loop struct {
	// Name is the strategy's name, for the errors of its panics.
	Name string
	// MaxRuns bounds the executions (0: no bound).
	MaxRuns int
	// StopOnFail ends the exploration at the first failing execution
	// but for one that reached the step bound, which ends it at the
	// MaxBoundHits-th such execution. (A divergence ends it whatever this
	// says: the strategy's record no longer describes the program.)
	StopOnFail bool
	// Diverged returns the message of the failure of an execution that
	// did not follow the strategy's record (see Checked and
	// strategy.Diverger); err says where and how.
	Diverged func(err error) string
	// Record tallies an execution: end is how it ended, with a misuse of
	// a weft object or a divergence made its failure. It runs on the
	// runtime's dispatcher, before the next execution.
	Record func(tr *trace.Trace, end trace.End)
	// Progress, if set, is called about once a second with the number of
	// executions and the time since Run began.
	Progress func(executions int, elapsed time.Duration)
	// Races checks each execution that did not fail for a data race
	// (package races), which makes it a trace.DataRace failure. The
	// strategy still sees the execution as it ended.
	Races bool
	// IgnoreLeaks makes an execution that ended with a leak complete.
	IgnoreLeaks bool
}

// Outcome is how a run of the exploration loop ended.
type Outcome struct {
	// Executions is the number of executions recorded.
	Executions int
	// Exhausted reports that the strategy ended its exploration;
	// TimedOut that the session's timeout stopped it, Stopped that its
	// Stop channel did.
	Exhausted, TimedOut, Stopped bool
	// Misuse describes a goroutine's use of a weft object after the last
	// execution ended, or is "".
	Misuse string
	// Refused is the error of a strategy that found, after an execution,
	// that it cannot handle the program (strategy.Failer), or nil.
	Refused error
	// Err, wrapping ErrInternal, reports that the strategy panicked.
	Err error
}

// Run runs executions of the session's body under s, wrapped in the
// determinism check and panic guard (Checked), until s ends its
// exploration, a bound or SessionConfig.Stop stops it, a failure does (l.StopOnFail, a
// divergence), or a goroutine blocks outside weft's control. Each
// execution goes to l.Record; one the timeout or a panic of s
// interrupted counts for nothing and is not recorded.
func (x *Session) Run(s strategy.Strategy, l Loop) Outcome {
	e := x.e
	if x.chk == nil {
		x.chk = new(Checked)
	}
	chk := x.chk
	chk.reset(s, l.Name)
	defer chk.reset(nil, "") // no strategy kept alive by the session
	failer := failerOf(s)
	// The same bounds stop the strategy's own analysis (Stoppable).
	stop := strategy.NewStop(x.deadline, x.stop)
	defer stop.Release()
	setStop(s, stop)
	var out Outcome
	var det races.Detector
	raceErrors := engine.RaceErrors()
	start := time.Now()
	lastProgress := start
	boundHits := 0 // the executions that reached the step bound
	// record tallies an execution that ended with end; it reports whether
	// the exploration stops there.
	record := func(end trace.End) bool {
		tr := e.Trace()
		if msg, ok := e.TakeMisuse(); ok {
			// What the goroutine did, or did not do, explains the rest.
			if end.Status == trace.Failed {
				msg += fmt.Sprintf("\nThe execution then ended with: %v: %s", end.Kind, end.Message)
			}
			end = trace.End{Status: trace.Failed, Kind: trace.Misuse, Thread: trace.NoThread, Message: msg}
		}
		// Finish first: a strategy that follows a record (replay) checks
		// there that the execution used all of it.
		chk.Finish(tr, end)
		if err := chk.Diverged(); err != nil && !stop.Fired() {
			end = trace.End{Status: trace.Failed, Kind: trace.Nondeterminism, Thread: trace.NoThread, Message: l.Diverged(err)}
		}
		if l.IgnoreLeaks && end.Status == trace.Failed && end.Kind == trace.Leak {
			end = trace.End{Status: trace.Complete, Thread: trace.NoThread}
		}
		if l.Races {
			end = RaceEnd(&det, tr, end)
		}
		end = AddWaitEnd(&det, tr, end)
		if engine.RaceHide {
			end = detectorEnd(&raceErrors, end)
		}
		out.Executions++
		l.Record(tr, end)
		if e.Abandoned() {
			return true // a goroutine is stuck outside weft: nothing more can run safely
		}
		if end.Kind == trace.Misuse && e.SharedObject() != "" {
			return true // another exploration uses the body's objects: none of this is sound
		}
		if end.Status == trace.Failed && end.Kind == trace.Livelock {
			// A bound hit proves nothing: explore on, for a failure
			// that does (MaxBoundHits).
			boundHits++
			return l.StopOnFail && boundHits >= MaxBoundHits
		}
		return end.Status == trace.Failed && (l.StopOnFail || end.Kind == trace.Nondeterminism)
	}
	// bound reports whether the timeout or SessionConfig.Stop has stopped the
	// exploration (between executions, or inside the strategy's
	// analysis), and says which in out.
	bound := func() bool {
		if !stop.Fired() {
			return false
		}
		out.TimedOut, out.Stopped = !stop.Closed(), stop.Closed()
		return true
	}
	// The loop runs on the runtime's dispatcher, which then runs each
	// execution without waking another goroutine (engine.Exec.Batch).
	loop := func() {
		for {
			if l.MaxRuns > 0 && out.Executions >= l.MaxRuns {
				return
			}
			if stop.Now() {
				bound()
				return
			}
			if !chk.Next() {
				if bound() {
					return // the strategy abandoned its search for the next execution
				}
				// A strategy may find, choosing the next execution, that
				// it cannot go on (unfold without a solver for a path
				// constraint): it refuses then as after an execution.
				if failer != nil {
					if err := failer.Err(); err != nil {
						out.Refused = err
						return
					}
				}
				out.Exhausted = chk.Panicked() == nil
				return
			}
			end := e.Run(chk, x.run, false)
			if e.Abandoned() {
				return // the driver took the execution over: nothing here is ours
			}
			if chk.Panicked() != nil {
				return // the strategy cut the execution: it counts for nothing
			}
			if e.Interrupted() || bound() {
				// The timeout expired, or Stop closed, inside the
				// execution (in the runtime, or in the strategy's choices):
				// it counts for nothing, and the strategy does not see it.
				out.TimedOut, out.Stopped = !x.stopped(), x.stopped()
				return
			}
			if record(end) || bound() {
				// A bound that stopped the strategy's analysis of the
				// execution (Finish) ends the exploration: the execution
				// ran whole, and counts.
				bound()
				return
			}
			if failer != nil {
				if err := failer.Err(); err != nil {
					out.Refused = err
					return
				}
			}
			if l.Progress != nil && time.Since(lastProgress) >= time.Second {
				lastProgress = time.Now()
				l.Progress(out.Executions, time.Since(start))
			}
		}
	}
	if !e.Batch(loop) {
		if e.Interrupted() {
			// A bound passed while a thread ran outside weft's control:
			// the execution counts for nothing, as one a bound ends at a
			// step.
			out.TimedOut, out.Stopped = !x.stopped(), x.stopped()
		} else {
			// A thread blocked outside weft's control: the driver
			// records the execution it blocked.
			record(e.EndState())
		}
	}
	if msg, ok := e.TakeMisuse(); ok {
		out.Misuse = msg
	}
	out.Err = chk.Panicked()
	return out
}

// RaceEnd returns how an execution that ended with end ends with race
// checking: a data race failure if it did not fail otherwise and d finds
// a race in tr, else end.
func RaceEnd(d *races.Detector, tr *trace.Trace, end trace.End) trace.End {
	if end.Status == trace.Failed {
		return end
	}
	if r, ok := d.Find(tr); ok {
		return r.End(tr)
	}
	return end
}

// AddWaitEnd returns how an execution that ended with end ends once d
// checked it for a misuse of a WaitGroup (races.Detector.AddWait): a
// trace.WaitGroupMisuse failure if it finds one and the execution did
// not fail otherwise, or failed with a failure of the program's that
// may follow from the misuse (an assertion, a deadlock, a leak, a panic),
// which the message then names; else end.
func AddWaitEnd(d *races.Detector, tr *trace.Trace, end trace.End) trace.End {
	if end.Status == trace.Failed && slices.Contains(detectorKept, end.Kind) {
		return end
	}
	m, ok := d.AddWait(tr)
	if !ok {
		return end
	}
	mis := m.End(tr)
	if end.Status == trace.Failed {
		mis.Message += fmt.Sprintf("\nThe execution then ended with: %v: %s", end.Kind, end.Message)
	}
	return mis
}

// DetectorRace is the message of the failure of an execution during which
// Go's race detector reported a data race (weft test -race).
const DetectorRace = "Go's race detector reported a data race during this execution: its report (WARNING: DATA RACE) is above, with the stacks of both accesses"

// detectorEnd makes an execution a trace.DataRace failure if Go's race
// detector reported a race since the count *seen (which it updates): as
// weft runs one execution at a time, the race happened in this one. The
// race takes precedence over a failure of the program's own that ended
// the execution (a leak found at its end, an assertion, a deadlock, a
// panic), which may follow from it and which the message then names;
// not over the failures that say weft could not run the execution as
// the program's (detectorKept). A race found again in a later execution
// is not reported again (the detector reports a pair of accesses once per
// process), nor blamed on it.
func detectorEnd(seen *int, end trace.End) trace.End {
	n := engine.RaceErrors()
	if n == *seen {
		return end
	}
	*seen = n
	msg := DetectorRace
	if end.Status == trace.Failed {
		if slices.Contains(detectorKept, end.Kind) {
			return end
		}
		msg += fmt.Sprintf("\nThe execution then ended with: %v: %s", end.Kind, end.Message)
	}
	return trace.End{Status: trace.Failed, Kind: trace.DataRace, Thread: trace.NoThread, Message: msg}
}

// detectorKept are the failures that a race of Go's detector does not
// replace: weft's own detector's race, and those that say the execution
// did not run as the program's (a divergence, a goroutine blocked outside
// weft, a misuse of weft's objects, a bug of weft's).
var detectorKept = []trace.FailureKind{trace.DataRace, trace.Nondeterminism, trace.Blocked, trace.Misuse, trace.Internal}

// Batch runs n executions of its strategy's exploration: then its Next
// returns false, and Over says whether the strategy's own did. It lets a
// caller run an exploration a few executions at a time (to split it into
// units of work between them).
type Batch struct {
	strategy.Strategy
	N    int
	Over bool
}

// Next implements strategy.Strategy.
func (b *Batch) Next() bool {
	if b.N == 0 {
		return false
	}
	b.N--
	if !b.Strategy.Next() {
		b.Over = true
		return false
	}
	return true
}

// Unwrap returns the strategy, so that its capabilities are found.
func (b *Batch) Unwrap() strategy.Strategy { return b.Strategy }
