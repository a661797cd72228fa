// This file implements Explore and Replay, and the Result they return:
// package explore runs the exploration, and its Result becomes this one.

package weft

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"github.com/weft-go/weft/internal/engine"
	"github.com/weft-go/weft/internal/explore"
	"github.com/weft-go/weft/internal/registry"
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
	// with a false condition), and those left with a thread in a
	// busy-wait loop (w.Yield) that another turn could take further:
	// assumed away, not failures.
	Assumed int
	// AwaitBlocked counts the executions that ended with a thread blocked
	// for good in a w.Await, its condition never true (Nidhugg's
	// await-blocked executions). Each is also a deadlock or a leak (a
	// failure, or complete with IgnoreLeaks): a program whose await can
	// never succeed hangs.
	AwaitBlocked int
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
	// It also says when a strategy without sleep sets stopped at a bound
	// with time at any step, where it explores each class of executions
	// many times over and the same bound takes a strategy with sleep sets
	// much further.
	Note string
	// Incomplete says why an exploration the strategy finished may still
	// have missed behaviours of the program (strategy.Incomplete: optimal
	// on a body with w.Await); Exhausted is then false. Empty otherwise.
	Incomplete string
	// Branches lists the program's symbolic branches the executions
	// reached, by source line, with the sides they took (branches.go);
	// nil for a program without inputs.
	Branches []BranchSite
	// Uncontrolled is the number of goroutines the process created, while
	// the body's function ran in the exploration's first execution,
	// besides those weft created for its threads: goroutines the body
	// started outside weft's control (go statements, time.AfterFunc, ...),
	// or, rarely, that the rest of the process started meanwhile. Check
	// runs the execution again to tell (uncontrolled.go). 0 if the
	// runtime does not count goroutines.
	Uncontrolled int
}

// WorkerStats describes one worker of a parallel exploration.
type WorkerStats struct {
	// Executions is the number of executions the worker ran; Units the
	// number of units of work it took from the others.
	Executions, Units int
	// Busy is the time it spent exploring, Idle the time it waited for
	// work.
	Busy, Idle time.Duration
}

// IdleFraction returns the share of the worker's time spent waiting for
// work.
func (w WorkerStats) IdleFraction() float64 {
	if w.Busy+w.Idle <= 0 {
		return 0
	}
	return float64(w.Idle) / float64(w.Busy+w.Idle)
}

// BranchSite is a branch of the program on a concolic condition (w.If,
// w.AssertSym, an operator that checks a symbolic operand), named by its
// source line, with the sides the executions took. Branches on concrete
// values are not recorded, nor are sites no execution reached.
type BranchSite struct {
	File string
	Line int
	// True and False report that an execution took the side where the
	// condition held, and the other (an assertion's failing side).
	True, False bool
}

// Failed reports whether the exploration found a failing execution, one
// that reached the step bound (trace.Livelock) included: StepBounded says
// when that is all it found.
func (r *Result) Failed() bool { return len(r.Failures) > 0 }

// StepBounded reports whether the exploration's failing executions, of
// which it has some, all reached the step bound (trace.Livelock) and
// failed no other way. Such an exploration proves no failure, since weft
// cannot tell a loop that ends after more steps from one that never ends,
// and no pass either: it is inconclusive (Check skips its test as
// Inconclusive, or fails it under WithStrict).
func (r *Result) StepBounded() bool {
	n := 0
	for _, c := range r.FailureCounts {
		n += c
	}
	return len(r.Failures) > 0 && r.FailureCounts[trace.Livelock] == n
}

// outsideOnly returns r's first failure if every failure of r blocked
// outside weft's control (trace.Blocked), or nil: such an exploration
// proves no failure, since weft cannot tell what the goroutines outside it
// would have done, and no pass either.
func (r *Result) outsideOnly() *Failure {
	if len(r.Failures) == 0 || r.FailureCounts[trace.Blocked] != len(r.Failures) {
		return nil
	}
	return r.Failures[0]
}

// firstFailure returns the first of r's failures that is not a step bound
// hit, or nil; boundFailure the first step bound hit, or nil.
func (r *Result) firstFailure() *Failure {
	var unrepeatable *Failure
	for _, f := range r.Failures {
		switch {
		case f.Kind == trace.Livelock:
		case f.Unrepeatable == "":
			return f
		case unrepeatable == nil:
			unrepeatable = f
		}
	}
	return unrepeatable
}

func (r *Result) boundFailure() *Failure {
	for _, f := range r.Failures {
		if f.Kind == trace.Livelock {
			return f
		}
	}
	return nil
}

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
var ErrInternal = explore.ErrInternal

// ErrSharedObject is wrapped by the error of a parallel exploration
// (WithWorkers, or weft run -nats) whose test body uses a weft object made
// outside it, or keeps one from one execution to the next: executions that
// run at the same time would share it, and processes would name it each
// their own way. It is also wrapped by the error of an exploration that
// used such an object while another exploration's execution in the process
// used it (tests that call t.Parallel with objects made outside their
// bodies): the exploration stops at that execution, whose failure of kind
// Misuse says which object. (A distributed exploration, whose processes each make the
// objects of their own test body, takes one made outside the body with a
// name of its own, given by its constructor or SetName: it is named by its
// class and name. Two of one name are refused.)
var ErrSharedObject = explore.ErrSharedObject

// ErrHiddenCapability is wrapped by the error of an exploration with a
// custom strategy that holds another strategy whose capabilities the
// driver needs, without letting strategy.As find them: a wrapper without
// Unwrap.
var ErrHiddenCapability = explore.ErrHiddenCapability

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
	r, err := explore.Explore(run(body, &c), c.exploration())
	return exploreResult(resultOf(r), err, &c)
}

// run returns body as the runtime runs it: each execution with a T of its
// own. Not inlined, the frame that calls the body is weft.run.func1 in the
// stacks of every build (a report shows it for a thread blocked outside
// weft).
//
// The first execution to start gets a T of its own, which counts the
// goroutines the body starts outside weft's control (uncontrolled.go). The
// others share one, which nothing writes (a T holds the test's name; what
// an execution does with it is in its execState): no allocation per
// execution, and the workers of a parallel exploration may share it.
//
//go:noinline
func run(body func(w *T), c *config) func() {
	var probed atomic.Bool
	shared := newT(c)
	return func() {
		if probed.Load() || probed.Swap(true) {
			shared.run(body)
			return
		}
		w := newT(c)
		w.probe = true
		w.run(body)
	}
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
	if n := r.FailureCounts[trace.Livelock]; n > 0 && r.Exhausted {
		// What the executions cut at the step bound would have done
		// after it is unexplored.
		what := "they do"
		if n == 1 {
			what = "it does"
		}
		why := fmt.Sprintf("%s reached the step bound (%d steps): what %s after it is unexplored", plural(n, "execution", "executions"), maxSteps(c), what)
		if r.Incomplete != "" {
			why = r.Incomplete + "; and " + why
		}
		r.Exhausted, r.Incomplete = false, why
	}
	if r.Note == "" && c.time == engine.TimeAnyStep && registry.Redundant(c.strategyName) && !r.Exhausted && !r.Failed() {
		r.Note = fmt.Sprintf("%s has no sleep sets: with time at any step it explores the same classes of executions many times over, and a bound stops it far from bugs that optimal or a +sleep variant reaches with the same bound", c.strategyName)
	}
	return r, nil
}

// Replay runs body once under the recorded choices of token and returns how
// it ended. Virtual time moves as it did in the recorded execution (the
// token says whether at any step: WithTime does not apply). WithTimeout
// and WithContext bound it: an execution they interrupt gives an error
// wrapping ErrNoExecution. A malformed token gives an error wrapping replay.ErrBadToken,
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
	c.shorten = 0 // a replay reports the schedule it was given
	if err := notNested("weft.Replay"); err != nil {
		return nil, err
	}
	s := replay.New(rec)
	r, err := explore.Run(run(body, &c), s, c.exploration())
	if err != nil {
		return resultOf(r), err
	}
	if r.Executions == 0 && (r.TimedOut || r.Canceled) {
		// The bound came before the one execution ended: nothing is
		// known of the token.
		what := fmt.Sprintf("the timeout %v expired", c.timeout)
		if r.Canceled {
			what = "the context was canceled"
		}
		return nil, fmt.Errorf("%s before the replayed execution ended: %w; raise the timeout (0: no bound)", what, ErrNoExecution)
	}
	if err := s.Diverged(); err != nil {
		return resultOf(r), fmt.Errorf("%s: %w", explore.ReplayDiverged, err)
	}
	return resultOf(r), nil
}
