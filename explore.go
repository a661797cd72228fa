// This file implements the exploration loop: run executions under a strategy
// until it is done or a bound is hit, and tally what they found.

package weft

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/weft-go/weft/internal/driver"
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
	// Assumed counts the executions that an assumption ended (w.Assume
	// with a false condition): assumed away, not failures.
	Assumed int
	// Exhausted reports that the strategy finished its exploration (rather
	// than a bound or the first failure stopping it).
	Exhausted bool
	// TimedOut reports that the timeout (WithTimeout) stopped the
	// exploration; Canceled that the context (WithContext) did.
	TimedOut bool
	Canceled bool
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
	// Counters are the strategy's own counts (strategy.Counting), such as
	// the events of an unfolding; nil for a strategy without any.
	Counters []strategy.Counter
	// Workers describes each worker of a parallel exploration
	// (WithWorkers); nil when one ran. NotParallel says why an exploration
	// asked to run on several workers ran on one.
	Workers     []WorkerStats
	NotParallel string
	// Covers is, for a strategy that aims at a coverage goal
	// (strategy.Covering, as con2) and finished, what it covered: it
	// searched no further, for deadlocks or other failures. Empty
	// otherwise.
	Covers string
	// Note says what the choice of strategy left out, when the caller
	// chose none (see Explore): the inputs of a body that reads some,
	// which optimal does not explore without the concolic strategies.
	Note string
	// Branches lists the program's symbolic branches the executions
	// reached, by source line, with the sides they took (branches.go);
	// nil for a program without inputs.
	Branches []BranchSite

	finals driver.FinalStates
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

// ErrInternal is wrapped by the error of an exploration that a bug in weft
// ended: a strategy panicked, or a unit of work could not be resumed or
// joined.
var ErrInternal = driver.ErrInternal

// ErrNested is wrapped by the error of an exploration or replay started
// inside a test body, a thread it started or a callback of a running
// exploration (WithProgress): explorations do not nest.
var ErrNested = errors.New("explorations do not nest")

// ErrNoExecution is wrapped by the error of an exploration whose timeout
// expired before its first execution: nothing was explored.
var ErrNoExecution = errors.New("no execution ran")

// notNested returns ErrNested if the caller, the function named entry,
// runs inside an exploration: its test body, a thread or a callback.
// Explorations started from different goroutines run at the same time.
func notNested(entry string) error {
	if engine.InExecution() {
		return nestedError(entry)
	}
	return nil
}

// nestedError is the error of entry called inside a test body.
func nestedError(entry string) error {
	return fmt.Errorf("%s called inside a test body (or a thread or callback of a running exploration): %w; call it from the test function (or main), not from a function weft runs", entry, ErrNested)
}

// Explore explores the executions of body and returns what it found. It
// returns an error for bad options, when called inside a test body
// (ErrNested), and when the timeout expired before the first execution ended
// (ErrNoExecution); failures of the program are in the Result.
//
// Without WithStrategy, Explore (and Check) choose the strongest complete
// strategy that handles the body: optimal (Optimal-DPOR: every trace of
// the program once), or concolic-optimal when the body reads inputs and
// the concolic strategies are imported (package concolic), so that input
// values are explored too. The first execution tells which: if it reads
// inputs, the exploration starts again with concolic-optimal, and that
// execution counts for nothing. Result.Note says when inputs keep their
// default values because the concolic strategies are missing.
func Explore(body func(w *T), opts ...Option) (*Result, error) {
	c := defaultConfig()
	for _, o := range opts {
		if err := o(&c); err != nil {
			return nil, err
		}
	}
	if err := notNested("weft.Explore"); err != nil {
		return nil, err
	}
	if c.varySeed && !slices.Contains(varyingSeedStrategies, c.strategyName) {
		return nil, fmt.Errorf("strategy %s with WithVaryingSeed (weft test -vary-seed): %w (%s), which never replays an earlier execution's prefix; with the others, vary the seed between explorations (WithSeed)", c.strategyName, ErrVaryingSeed, strings.Join(varyingSeedStrategies, ", "))
	}
	if !c.strategySet {
		r, err := exploreChosen(body, &c)
		return exploreResult(r, err, &c)
	}
	s, err := c.build()
	if err != nil {
		return nil, err
	}
	// A strategy that could not be set up (the concolic ones without Z3)
	// says why.
	if f, ok := strategy.As[strategy.Failer](s); ok && f.Err() != nil {
		return nil, fmt.Errorf("strategy %s: %w", c.strategyName, f.Err())
	}
	r, err := exploreOn(body, s, &c)
	return exploreResult(r, err, &c)
}

// exploreResult returns what Explore returns for an exploration with c that
// ended with r and err.
func exploreResult(r *Result, err error, c *config) (*Result, error) {
	if err != nil {
		return r, err
	}
	if r.TimedOut && r.Executions == 0 {
		return nil, fmt.Errorf("timeout %v expired before the first execution ended: %w; raise the timeout (0: no bound)", c.timeout, ErrNoExecution)
	}
	return r, nil
}

// exploreOn explores body with s on the workers c asks for: in parallel
// when there are several and s divides its work into units
// (strategy.Splitter) that other strategies c builds can resume; with one
// worker otherwise, saying why in Result.NotParallel.
func exploreOn(body func(w *T), s strategy.Strategy, c *config) (*Result, error) {
	n := c.workerCount()
	if n <= 1 {
		return explore(body, s, c)
	}
	sp, ok := s.(strategy.Splitter)
	why := ""
	switch {
	case c.strategy != nil:
		why = "a custom strategy (WithCustomStrategy) runs on one worker: weft cannot make more of it"
	case !ok:
		why = fmt.Sprintf("strategy %s does not divide its work into units (strategy.Splitter)", c.strategyName)
	}
	if why != "" {
		r, err := explore(body, s, c)
		if r != nil {
			r.NotParallel = why
		}
		return r, err
	}
	return exploreParallel(body, sp, c, n)
}

// explore runs the exploration loop with strategy s, and closes s. The
// error, wrapping ErrInternal, says that a strategy panicked; the Result
// holds what was explored until then.
func explore(body func(w *T), s strategy.Strategy, c *config) (*Result, error) {
	x := newSession(body, c, nil)
	defer x.Close()
	r, err := explorePart(x, body, s, c)
	if cl, ok := strategy.As[strategy.Closer](s); ok {
		cl.Close() // release a solver's native resources; nothing to report
	}
	return r, err
}

// newSession starts the runtime of an exploration of body with c, whose
// naming tables are names (nil: its own), shared with the sessions of
// other workers (parallel.go).
func newSession(body func(w *T), c *config, names *engine.Names) *driver.Session {
	w := &T{}
	var stop <-chan struct{}
	if c.ctx != nil {
		stop = c.ctx.Done()
	}
	return driver.NewSession(driver.Config{MaxSteps: c.maxSteps, Watchdog: c.watchdog, Time: c.time, Timeout: c.timeout, Stop: stop, Names: names,
		Seed: c.seed, VarySeed: c.varySeed}, func() { body(w) })
}

// explorePart runs the exploration loop in session x with strategy s until
// s ends its exploration or a bound stops it, and tallies its executions
// into a Result. The error, wrapping ErrInternal, says that s panicked;
// the Result holds what was explored until then.
func explorePart(x *driver.Session, body func(w *T), s strategy.Strategy, c *config) (*Result, error) {
	e := x.Exec()
	var b bounds
	b.deadline, b.stop = x.Bounds()
	r := &Result{Strategy: c.strategyName, FailureCounts: map[trace.FailureKind]int{}}
	start := time.Now()
	// A replay that does not follow its token is reported as such: the
	// token may belong to another body or other options.
	_, replaying := s.(*replay.Strategy)
	diverged := func(err error) string {
		if replaying {
			return replayDiverged + ": " + err.Error() + "\n" + replayAdvice
		}
		return "the test body is not deterministic: under the same schedule and inputs it did something else.\n" + err.Error() + "\n" + driver.DeterminismAdvice
	}
	sides := branchSides{}
	// record tallies an execution that ended with end.
	record := func(tr *trace.Trace, end trace.End) {
		if c.observe != nil {
			c.observe(tr, end)
		}
		sides.add(tr)
		r.finals.Merges(tr)
		r.Executions++
		r.Events += int64(len(tr.Events))
		switch end.Status {
		case trace.Complete:
			r.Complete++
			r.finals.Add(tr)
		case trace.Cut:
			r.Cut++
		case trace.Assumed:
			r.Assumed++
		case trace.Failed:
			r.FailureCounts[end.Kind]++
			if r.FailureCounts[end.Kind] == 1 {
				r.Failures = append(r.Failures, newFailure(e, body, c, tr, end, r.Executions, b))
			}
		}
	}
	var progress func(int, time.Duration)
	if c.progress != nil {
		progress = func(n int, elapsed time.Duration) {
			c.progress(Progress{Executions: n, Failures: len(r.Failures), Elapsed: elapsed})
		}
	}
	out := x.Run(s, driver.Loop{Name: c.strategyName, MaxRuns: c.maxRuns, StopOnFail: c.stopOnFail,
		Diverged: diverged, Record: record, Progress: progress, Races: c.races, IgnoreLeaks: c.ignoreLeaks})
	r.Exhausted, r.TimedOut, r.Canceled = out.Exhausted, out.TimedOut, out.Stopped
	if out.Misuse != "" && r.FailureCounts[trace.Misuse] == 0 {
		// A goroutine used a weft object after the last execution ended.
		r.FailureCounts[trace.Misuse]++
		r.Failures = append(r.Failures, &Failure{Kind: trace.Misuse, Message: out.Misuse, Thread: trace.NoThread, Execution: r.Executions})
	}
	r.FinalStates = r.finals.Count()
	r.Branches = sides.sites()
	if ss, ok := strategy.As[strategy.Solving](s); ok {
		r.Solver = ss.SolverStats()
	}
	if cs, ok := strategy.As[strategy.Counting](s); ok {
		r.Counters = cs.Counters()
	}
	if cv, ok := strategy.As[strategy.Covering](s); ok && r.Exhausted {
		r.Covers = cv.Covers()
	}
	r.Wall = time.Since(start)
	if out.Err == nil && out.Refused != nil {
		return r, fmt.Errorf("strategy %s: %w", c.strategyName, out.Refused)
	}
	return r, out.Err
}

// newFailure describes the failure of execution n, tr, which ended with
// end, in runtime e: its replay token, and, replayed, its steps and the
// threads it left blocked. The exploration's bounds b stop the shortening
// and the replay: once one has passed, the failure is reported as found,
// its steps described from tr and e (without the values and call sites
// that only the replay notes).
func newFailure(e *engine.Exec, body func(w *T), c *config, tr *trace.Trace, end trace.End, n int, b bounds) *Failure {
	rec := replay.FromTrace(tr, tr.InputValues())
	f := &Failure{Kind: end.Kind, Message: end.Message, Thread: end.Thread, Execution: n, Record: rec, Token: replay.Encode(rec), Inputs: inputValues(tr)}
	if e.Abandoned() {
		return f
	}
	found := scheduleOf(tr, end)
	f.Switches = found.switches
	// The shortening and the replays run with the failing execution's
	// seed.
	fixed := *c
	fixed.seed, fixed.varySeed = rec.Seed, false
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
		f.Switches, f.Record, f.Token = short.switches, short.rec, replay.Encode(short.rec)
		f.Message, f.Thread = short.end.Message, short.end.Thread
	}
	f.Steps, f.ThreadNames = d.steps, d.names
	f.SlowStep, f.SlowThread = d.slowStep, d.slowThread
	if err == nil && end.Kind == trace.DataRace && d.race != "" {
		f.Message = d.race
	}
	if err == nil && (end.Kind == trace.Deadlock || end.Kind == trace.Leak) {
		f.Blocked, f.Cycle = d.blocked, waitCycle(d.blocked)
	}
	if err != nil && end.Kind != trace.Nondeterminism && end.Kind != trace.Internal {
		// A nondeterminism failure says so already, and an internal error
		// ended its execution where the strategy went wrong: the record
		// of either, cut, cannot be followed to an end.
		f.Message += "\nWhen weft replayed this execution to list its steps, " + replayDiverged + ": " + err.Error() +
			"\nThe test body is not deterministic: the interleaving below stops at the divergence. " + driver.DeterminismAdvice
	}
	if end.Kind == trace.Misuse {
		e.TakeMisuse() // the replay's goroutine did it again
	}
	return f
}

// replayDiverged leads the report of a replay that did not follow its
// token; replayAdvice says why that happens and what to do.
const (
	replayDiverged = "the replay diverged from the recorded execution"
	replayAdvice   = "The token was recorded with another test body or other options (such as WithMaxSteps), or the body is not deterministic: " +
		"replay a token with the body and the options of the exploration that printed it; if the replay still diverges, the body is not deterministic. " + driver.DeterminismAdvice
)

// Replay runs body once under the recorded choices of token and returns how
// it ended. Virtual time moves as it did in the recorded execution (the
// token says whether at any step: WithTime does not apply). A malformed token gives an error wrapping replay.ErrBadToken,
// before anything runs. An execution that does not follow the token (the
// token was recorded with another body or other options, or the body is
// not deterministic) gives an error wrapping replay.ErrMismatch, "the
// replay diverged from the recorded execution: " and then the step, what
// was recorded and what happened instead; the Result, whose failure is
// then of kind Nondeterminism, comes with it.
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
	c.seed, c.varySeed = rec.Seed, false // the numbers it drew
	c.time = engine.TimeWhenBlocked      // time moves as it did (Record.AnyStepTime)
	if rec.AnyStepTime {
		c.time = engine.TimeAnyStep
	}
	c.timeout, c.ctx = 0, nil // a replay is one execution: it always runs
	c.shorten = 0             // and reports the schedule it was given
	if err := notNested("weft.Replay"); err != nil {
		return nil, err
	}
	s := replay.New(rec)
	r, err := explore(body, s, &c)
	if err != nil {
		return r, err
	}
	if err := s.Diverged(); err != nil {
		return r, fmt.Errorf("%s: %w", replayDiverged, err)
	}
	return r, nil
}
