// This file implements the exploration loop: run executions under a strategy
// until it is done or a bound is hit, and tally what they found.

package weft

import (
	"fmt"
	"sync"
	"time"

	"github.com/weft-go/weft/internal/engine"
	"github.com/weft-go/weft/solver"
	"github.com/weft-go/weft/strategy"
	"github.com/weft-go/weft/strategy/replay"
	"github.com/weft-go/weft/trace"
)

// Result summarises an exploration.
type Result struct {
	Strategy   string
	Executions int
	Complete   int
	Cut        int
	// Exhausted reports that the strategy finished its exploration (rather
	// than a bound or the first failure stopping it).
	Exhausted bool
	// Failures holds the first failure of each kind, with its report.
	Failures []*Failure
	// FailureCounts counts the failing executions by kind.
	FailureCounts map[trace.FailureKind]int
	// FinalStates is the number of distinct final states (values of the
	// shared variables) of the executions that completed.
	FinalStates int
	// Events is the number of steps taken over all executions.
	Events int64
	Wall   time.Duration
	// Solver holds the solver's counters, for strategies that solve
	// constraints (the concolic ones; zero otherwise).
	Solver solver.Stats

	finals map[uint64]struct{}
}

// Failed reports whether the exploration found a failure.
func (r *Result) Failed() bool { return len(r.Failures) > 0 }

// ExecPerSecond returns the executions per second of wall time.
func (r *Result) ExecPerSecond() float64 {
	if r.Wall <= 0 {
		return 0
	}
	return float64(r.Executions) / r.Wall.Seconds()
}

// running serialises explorations: weft runs one execution at a time per
// process.
var running sync.Mutex

// Explore explores the executions of body and returns what it found. It
// returns an error only for bad options; failures of the program are in the
// Result.
func Explore(body func(w *T), opts ...Option) (*Result, error) {
	c := defaultConfig()
	for _, o := range opts {
		if err := o(&c); err != nil {
			return nil, err
		}
	}
	s := c.strategy
	if s == nil {
		s = strategies[c.strategyName](&c)
	}
	// A strategy that could not be set up (the concolic ones without Z3)
	// says why.
	if f, ok := s.(interface{ Err() error }); ok && f.Err() != nil {
		return nil, fmt.Errorf("strategy %s: %w", c.strategyName, f.Err())
	}
	return explore(body, s, &c), nil
}

// explore runs the exploration loop.
func explore(body func(w *T), s strategy.Strategy, c *config) *Result {
	running.Lock()
	defer running.Unlock()
	r := &Result{Strategy: c.strategyName, FailureCounts: map[trace.FailureKind]int{}, finals: map[uint64]struct{}{}}
	start := time.Now()
	var deadline time.Time
	if c.timeout > 0 {
		deadline = start.Add(c.timeout)
	}
	ecfg := engine.Config{MaxSteps: c.maxSteps, Watchdog: c.watchdog}
	e := engine.NewExec(ecfg)
	defer e.Close()
	w := &T{}
	run := func() { body(w) }
	// The strategy runs inside the determinism check (determinism.go);
	// the optional interfaces (solver statistics, Close) are the inner one's.
	inner := s
	s = newChecked(inner)
	lastProgress := start
	var seen []bool // scratch for finalState
	// record tallies an execution that ended with end; it reports whether
	// the exploration stops there.
	engine.TakeMisuse() // a goroutine left over from an earlier exploration is not this one's
	record := func(end trace.End) bool {
		tr := e.Trace()
		if msg, ok := engine.TakeMisuse(); ok {
			// What the goroutine did, or did not do, explains the rest.
			if end.Status == trace.Failed {
				msg += fmt.Sprintf("\nThe execution then ended with: %v: %s", end.Kind, end.Message)
			}
			end = trace.End{Status: trace.Failed, Kind: trace.Misuse, Thread: trace.NoThread, Message: msg}
		}
		if err := s.(*checked).Diverged(); err != nil {
			end = trace.End{Status: trace.Failed, Kind: trace.Nondeterminism, Thread: trace.NoThread,
				Message: "the test body is not deterministic: under the same schedule and inputs it did something else.\n" + err.Error() + "\n" + determinismAdvice}
		}
		s.Finish(tr, end)
		r.Executions++
		r.Events += int64(len(tr.Events))
		switch end.Status {
		case trace.Complete:
			r.Complete++
			r.finals[finalState(tr, &seen)] = struct{}{}
		case trace.Cut:
			r.Cut++
		case trace.Failed:
			r.FailureCounts[end.Kind]++
			if r.FailureCounts[end.Kind] == 1 {
				rec := replay.FromTrace(tr, tr.InputValues())
				f := &Failure{Kind: end.Kind, Message: end.Message, Thread: end.Thread, Execution: r.Executions, Record: rec, Token: replay.Encode(rec), Inputs: inputValues(tr)}
				if !e.Abandoned() {
					f.Steps = describeSteps(body, rec, c)
					if end.Kind == trace.Misuse {
						engine.TakeMisuse() // the replay's goroutine did it again
					}
				}
				r.Failures = append(r.Failures, f)
			}
		}
		if e.Abandoned() {
			return true // a goroutine is stuck outside weft: nothing more can run safely
		}
		// After a divergence the strategy's record no longer describes the
		// program: the exploration ends whatever the options.
		return end.Status == trace.Failed && (c.stopOnFail || end.Kind == trace.Nondeterminism)
	}
	// The loop runs on the runtime's dispatcher, which then runs each
	// execution without waking another goroutine (engine.Exec.Batch).
	loop := func() {
		for {
			if c.maxRuns > 0 && r.Executions >= c.maxRuns {
				return
			}
			if !deadline.IsZero() && r.Executions%64 == 0 && time.Now().After(deadline) {
				return
			}
			if !s.Next() {
				r.Exhausted = true
				return
			}
			end := e.Run(s, run, false)
			if e.Abandoned() {
				return // the driver took the execution over: nothing here is ours
			}
			if record(end) {
				return
			}
			if c.progress != nil && time.Since(lastProgress) >= time.Second {
				lastProgress = time.Now()
				c.progress(Progress{Executions: r.Executions, Failures: len(r.Failures), Elapsed: time.Since(start)})
			}
		}
	}
	if !e.Batch(loop) {
		// A thread blocked outside weft's control: the driver records the
		// execution it blocked.
		record(e.EndState())
	}
	if msg, ok := engine.TakeMisuse(); ok && r.FailureCounts[trace.Misuse] == 0 {
		// A goroutine used a weft object after the last execution ended.
		r.FailureCounts[trace.Misuse]++
		r.Failures = append(r.Failures, &Failure{Kind: trace.Misuse, Message: msg, Thread: trace.NoThread, Execution: r.Executions})
	}
	r.FinalStates = len(r.finals)
	if ss, ok := inner.(interface{ SolverStats() solver.Stats }); ok {
		r.Solver = ss.SolverStats()
	}
	if cl, ok := inner.(interface{ Close() error }); ok {
		cl.Close() // release a solver's native resources; nothing to report
	}
	r.Wall = time.Since(start)
	return r
}

// finalState hashes the final values of the shared variables of tr (the
// value of each variable's last event) by the variables' keys, which name them
// across executions whatever the order of first use. The hash is a sum of
// mixed (key, value) pairs, so it needs neither a map nor sorting; seen is
// scratch memory reused across executions.
func finalState(tr *trace.Trace, seen *[]bool) uint64 {
	n := len(tr.Objects)
	if cap(*seen) < n {
		*seen = make([]bool, n)
	}
	s := (*seen)[:n]
	clear(s)
	var h uint64
	for i := len(tr.Events) - 1; i >= 0; i-- {
		ev := &tr.Events[i]
		if ev.Op.Class != trace.ClassVar || s[ev.Op.Obj] {
			continue
		}
		s[ev.Op.Obj] = true
		h += mix(tr.Objects[ev.Op.Obj].Key*0x9e3779b97f4a7c15 ^ mix(ev.Value))
	}
	return h
}

// mix is SplitMix64's finaliser: a bijective scrambling of 64 bits.
func mix(x uint64) uint64 {
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	return x ^ x>>31
}

// Replay runs body once under the recorded choices of token and returns how
// it ended. A malformed token gives an error wrapping replay.ErrBadToken.
func Replay(body func(w *T), token string, opts ...Option) (*Result, error) {
	rec, err := replay.Decode(token)
	if err != nil {
		return nil, err
	}
	c := defaultConfig()
	for _, o := range opts {
		if err := o(&c); err != nil {
			return nil, err
		}
	}
	c.strategyName = "replay"
	r := explore(body, replay.New(rec), &c)
	return r, nil
}
