// This file implements the options of Check and Explore, with the time
// modes (WithTime) and the names of the strategies (Strategies).

package weft

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"time"

	"github.com/weft-go/weft/internal/engine"
	"github.com/weft-go/weft/internal/explore"
	"github.com/weft-go/weft/internal/registry"
	"github.com/weft-go/weft/strategy"
	"github.com/weft-go/weft/trace"
)

// Option configures Check and Explore.
type Option func(*config) error

// config is the configuration an exploration runs with.
type config struct {
	strategyName string
	// strategySet says the strategy was chosen (WithStrategy,
	// WithCustomStrategy); otherwise Explore chooses (chooseStrategy).
	strategySet bool
	strategy    strategy.Strategy
	seed        int64
	varySeed    bool     // WithVaryingSeed
	ignoreLeaks bool     // IgnoreLeaks
	ignoreLeak  []string // IgnoreLeak
	depth       int      // PCT bug depth
	k           int      // con2's bound on interferences
	reachPV     bool     // WithReachPV
	reachSym    [][]int  // WithReachSymmetry
	maxRuns     int
	maxSteps    int
	timeout     time.Duration
	spent       time.Duration // of the timeout, before the exploration (Check's replay files)
	ctx         context.Context
	watchdog    time.Duration
	time        engine.TimeMode // WithTime
	stopOnFail  bool
	replayFiles replayMode // WEFT_REPLAY_FILES, NoReplayFiles
	strict      bool
	progress    func(Progress)
	workers     int // 0: one
	shorten     int // executions spent shortening each failure (WithShorten)
	races       bool
	// batch, if not 0 (tests), is how many executions a parallel worker
	// runs between two looks at the others (parallelBatch).
	batch int
	// observe, if set (WithObserver), sees every execution as it is
	// recorded.
	observe func(tr *trace.Trace, end trace.End)
	// testName is the name of the test that runs the exploration (Check),
	// which T.Name returns.
	testName string
}

func defaultConfig() config {
	return config{strategyName: explore.DefaultStrategy, maxRuns: 100_000, depth: explore.DefaultDepth, k: DefaultInterferences, stopOnFail: true, shorten: DefaultShortenReplays}
}

// WithStrategy chooses the exploration strategy by name (see Strategies).
func WithStrategy(name string) Option {
	return func(c *config) error {
		if _, err := registry.Lookup(name); err != nil {
			return err
		}
		c.strategyName, c.strategySet = name, true
		return nil
	}
}

// WithCustomStrategy explores with s, a strategy of the caller's. A
// wrapper around another strategy must implement Unwrap
// (strategy.Wrapper), or the capabilities the driver needs of what it
// wraps: Explore refuses one that holds, in a field of interface type, a
// strategy whose required capabilities it hides (ErrHiddenCapability).
func WithCustomStrategy(s strategy.Strategy) Option {
	return func(c *config) error { c.strategy, c.strategyName, c.strategySet = s, "custom", true; return nil }
}

// WithRaces checks every execution for data races: two accesses to a
// Var, at least one a write and at least one plain (a Load or Store of a
// Var not marked atomic), that no synchronisation of the program orders,
// as Go's memory model defines it. A race ends the execution as a
// failure of kind "data race" whose report names both accesses. The
// strategies explore as without it: every strategy that covers every
// trace (optimal, the dpor family, exhaustive) finds every race of the
// program. See SetAtomic for what counts as atomic.
func WithRaces() Option { return func(c *config) error { c.races = true; return nil } }

// DefaultShortenReplays is the number of executions weft spends, at most,
// on shortening each failing schedule (WithShorten).
const DefaultShortenReplays = explore.DefaultShorten

// WithShorten bounds the executions spent on shortening each failing
// schedule before it is reported: weft removes preemptions (a switch away
// from a thread that could go on) one at a time, greedily, keeping a
// variant when it still fails with the same kind of failure, until no
// removal fails so or the bound is spent (a possible livelock, and the
// failures that say weft could not follow the body, are not shortened).
// The report then shows the shortened schedule, its replay token replays
// it, and the report's first line notes the length of the schedule as
// found ("shortened from 31 steps, 9 switches"). The default is
// DefaultShortenReplays; 0 turns shortening off. A replay (Replay, replay
// files, WEFT_REPLAY) is never shortened.
func WithShorten(replays int) Option {
	return func(c *config) error {
		if replays < 0 {
			return fmt.Errorf("shorten replays %d: must not be negative (0 turns shortening off)", replays)
		}
		c.shorten = replays
		return nil
	}
}

// WithSeed seeds the randomised strategies (random, pct), and the
// program's own randomness in every execution: the numbers the stand-ins
// of math/rand and math/rand/v2 draw under weft test (from a generator
// each execution starts afresh), and the order in which weft test's
// rewritten ranges over maps visit their keys. The default is 0. A
// failure's replay token records the seed of its execution when it is
// not 0 and the execution drew from it, so that the token replays with
// the same numbers and orders without the option.
func WithSeed(seed int64) Option { return func(c *config) error { c.seed = seed; return nil } }

// WithVaryingSeed gives each execution its own seed of the program's
// randomness (see WithSeed), mixed from the exploration's seed and the
// execution's number, so that the executions explore several sequences
// of random numbers and orders of map ranges as well as schedules; each
// failure's token records its execution's seed. Only the strategies that
// never replay an earlier execution's prefix (random, pct) explore so:
// for the others an execution that took the same choices as an earlier
// one would draw other numbers, which they report as nondeterminism;
// Explore refuses the option with them (ErrVaryingSeed).
func WithVaryingSeed() Option { return func(c *config) error { c.varySeed = true; return nil } }

// IgnoreLeaks turns the leak rule off: an execution whose body returned
// while other threads stay blocked for ever completes instead of failing
// with kind "leak" (for a library with a background goroutine it never
// stops, or a program that ends with goroutines left blocked). The rule
// is on by default.
func IgnoreLeaks() Option { return func(c *config) error { c.ignoreLeaks = true; return nil } }

// IgnoreLeak keeps the leak rule but for the threads blocked, when the
// body returns, in one of functions, each named as runtime.Frame.Function
// names it ("example.com/pool.(*Pool).worker"): the function of the
// thread's blocked operation, the first of its stack outside weft's own
// code, as goleak's IgnoreTopFunction. An execution whose other threads
// all ended completes. Calls add up.
func IgnoreLeak(functions ...string) Option {
	return func(c *config) error {
		for _, f := range functions {
			if f == "" {
				return errors.New("IgnoreLeak: an empty function name")
			}
		}
		c.ignoreLeak = append(c.ignoreLeak, functions...)
		return nil
	}
}

// ErrVaryingSeed is wrapped by the error of an exploration that asks for
// WithVaryingSeed with a strategy that replays prefixes of executions.
var ErrVaryingSeed = errors.New("a varying seed needs the random or pct strategy")

// varyingSeedStrategies are the strategies WithVaryingSeed works with.
var varyingSeedStrategies = []string{"random", "pct"}

// WithDepth sets PCT's bug depth d (at least 1).
func WithDepth(d int) Option {
	return func(c *config) error {
		if d < 1 {
			return fmt.Errorf("bug depth %d: must be at least 1", d)
		}
		c.depth = d
		return nil
	}
}

// DefaultInterferences is con2's bound on interferences when
// WithInterferences is not given.
const DefaultInterferences = explore.DefaultInterferences

// MaxInterferences is the largest bound WithInterferences takes. con2's
// scenarios grow combinatorially with their interferences, and it lists
// the sides covered at each k up to the bound; the programs of Farzan et
// al., "Con2colic Testing" (2013), need at most 4.
const MaxInterferences = 16

// WithInterferences sets the con2 strategy's bound k (0 to
// MaxInterferences): it covers every branch side an execution reaches
// with at most k interferences, reads of another thread's write (Farzan
// et al. 2013).
func WithInterferences(k int) Option {
	return func(c *config) error {
		if k < 0 {
			return fmt.Errorf("interference bound %d: must not be negative", k)
		}
		if k > MaxInterferences {
			return fmt.Errorf("interference bound %d: must be at most %d (MaxInterferences)", k, MaxInterferences)
		}
		c.k = k
		return nil
	}
}

// WithReachPV applies the P/V reduction of reachability testing (Lei and
// Carver, "Reachability Testing of Concurrent Programs", 2006, §7): the
// completion of a V operation on a counting semaphore races with nothing,
// so sequences that differ only in the order of V's, or of a V and a P
// it did not enable, are exercised once. Only the reach strategy uses it.
func WithReachPV() Option {
	return func(c *config) error {
		c.reachPV = true
		return nil
	}
}

// WithReachSymmetry applies the symmetry reduction of reachability testing
// (Lei and Carver 2006, §8): each group lists threads that run the same
// code, by their ranks among the threads the test body starts (0 for the
// first), and a race between two threads of a group for the same call of
// theirs with the same partner is ignored. Only the reach strategy uses
// it.
func WithReachSymmetry(groups ...[]int) Option {
	return func(c *config) error {
		for _, g := range groups {
			for _, r := range g {
				if r < 0 {
					return fmt.Errorf("symmetry group %v: rank %d is negative", g, r)
				}
			}
			c.reachSym = append(c.reachSym, slices.Clone(g))
		}
		return nil
	}
}

// WithMaxRuns bounds the number of executions (0: no bound).
func WithMaxRuns(n int) Option {
	return func(c *config) error {
		if n < 0 {
			return fmt.Errorf("max runs %d: must not be negative", n)
		}
		c.maxRuns = n
		return nil
	}
}

// WithMaxSteps bounds the steps of one execution (default 100,000). An
// execution that hits the bound ends as a failure of kind trace.Livelock,
// which proves nothing (a long loop, or an endless one?): the exploration
// goes on after it (up to the tenth such execution without KeepGoing), and
// a test whose failing executions all hit it is inconclusive (see Check
// and Result.StepBounded).
func WithMaxSteps(n int) Option {
	return func(c *config) error {
		if n <= 0 {
			return fmt.Errorf("max steps %d: must be positive", n)
		}
		c.maxSteps = n
		return nil
	}
}

// WithTimeout bounds the wall time of the exploration (0: no bound). The
// bound is checked before every execution, inside an execution at its
// scheduling points (every 256 steps), and inside the strategy's analysis
// of an execution (strategy.Stoppable), which it abandons: an execution
// the timeout interrupts counts for nothing, one whose analysis it
// interrupts counts, and the Result says TimedOut. It stops the shortening
// of a failure (WithShorten) and the replay that lists its steps too: the
// failure is then reported as found. An exploration whose
// timeout expires before its first execution ends fails with
// ErrNoExecution, and so does a replay (Replay, replay files) whose one
// execution the timeout interrupts. In Check, the replay files and the
// exploration after them share the one timeout.
func WithTimeout(d time.Duration) Option {
	return func(c *config) error {
		if d < 0 {
			return fmt.Errorf("timeout %v: must not be negative (0: no bound)", d)
		}
		c.timeout = d
		return nil
	}
}

// WithContext stops the exploration when ctx is done (canceled, or past its
// deadline), as WithTimeout does: between executions, inside one at its
// scheduling points (every 256 steps), inside the strategy's analysis, and
// in a failure's shortening and listing; an execution it interrupts counts
// for nothing, and the Result says
// Canceled. Explore returns the Result of
// what ran until then, without an error. A replay ignores it.
func WithContext(ctx context.Context) Option {
	return func(c *config) error {
		if ctx == nil {
			return errors.New("WithContext: nil context; pass context.Background() for none")
		}
		c.ctx = ctx
		return nil
	}
}

// WithWatchdog sets how long a thread may run without reaching a weft
// operation before it is reported as blocked outside weft's control (0:
// the default, 10s). A thread whose goroutine is parked in the Go runtime
// (on a sync.Mutex, a real channel, time.Sleep) is reported after a second
// already: nothing in the execution can wake it.
func WithWatchdog(d time.Duration) Option {
	return func(c *config) error {
		if d < 0 {
			return fmt.Errorf("watchdog %v: must not be negative (0: the default)", d)
		}
		c.watchdog = d
		return nil
	}
}

// KeepGoing makes the exploration continue after a failure, counting
// failures by kind, instead of stopping at the first (or, for executions
// that reach the step bound, at the tenth: see WithMaxSteps).
func KeepGoing() Option { return func(c *config) error { c.stopOnFail = false; return nil } }

// StrictEnv is the environment variable that, set to 1, makes every Check
// strict (WithStrict).
const StrictEnv = "WEFT_STRICT"

// WithStrict makes Check fail the test when the exploration found no
// failure but did not finish either: a bound (WithMaxRuns, WithTimeout)
// stopped it, so a pass would claim more than was checked. The randomised
// strategies (random, pct) never finish: under WithStrict they always fail.
func WithStrict() Option { return func(c *config) error { c.strict = true; return nil } }

// NoReplayFiles stops Check from reading and writing replay files under
// testdata/weft.
func NoReplayFiles() Option { return func(c *config) error { c.replayFiles = replayOff; return nil } }

// WithProgress calls f about once a second during the exploration.
func WithProgress(f func(Progress)) Option {
	return func(c *config) error { c.progress = f; return nil }
}

// Progress is a snapshot of a running exploration.
type Progress struct {
	Executions int
	Failures   int
	Elapsed    time.Duration
}

// WithWorkers spreads the exploration over n workers, each a goroutine
// running executions in a runtime of its own (0: one per core,
// runtime.NumCPU). The strategies that divide their work into units
// (exhaustive, the DPOR family, flip, optimal and the concolic ones) run
// in parallel and explore the same program as one worker: the same
// failures, final states and, for optimal, exactly one worker's
// executions (see Result.Workers and the README); so do unfold and
// reach, and con2, which covers the same branch sides; the others run on
// one worker and say so in Result.NotParallel. With several workers,
// executions of the test body run at the same time: the body must make
// every object and variable it uses (nothing it writes may be shared
// between executions), which weft checks for its own objects. A body whose
// first executions, run on one worker before any unit goes out, touch one
// made outside it is explored on that worker alone (Result.NotParallel
// names the object); one touched only later is refused with
// ErrSharedObject. The default is one worker.
func WithWorkers(n int) Option {
	return func(c *config) error {
		if n < 0 {
			return fmt.Errorf("weft.WithWorkers(%d): the number of workers must not be negative (0: one per core)", n)
		}
		if n == 0 {
			n = runtime.NumCPU()
		}
		c.workers = n
		return nil
	}
}

// WithObserver has every execution of an exploration seen by f as it is
// recorded, on any worker (one call at a time): tests compare
// the traces of explorations made differently with it. The trace is valid
// during the call only.
func WithObserver(f func(tr *trace.Trace, end trace.End)) Option {
	return func(c *config) error { c.observe = f; return nil }
}

// withTestName names the test that runs the exploration, for T.Name.
func withTestName(name string) Option {
	return func(c *config) error { c.testName = name; return nil }
}

// Strategies returns the names of the strategies this program can run,
// sorted. The concolic ones are among them when the program imports
// github.com/weft-go/weft/concolic.
func Strategies() []string { return registry.Names() }

// TimeMode is when virtual time may move in the executions of an
// exploration (WithTime).
type TimeMode uint8

// The time modes.
const (
	// TimeWhenBlocked moves virtual time only when no thread can move,
	// to the earliest deadline of a sleep or a timer, as
	// testing/synctest does: a timer fires only when nothing else can
	// happen first. It is the default of Check and Explore.
	TimeWhenBlocked = TimeMode(engine.TimeWhenBlocked)
	// TimeAnyStep makes advancing virtual time a step of weft's own
	// clock thread, which the strategy may choose at any scheduling
	// point where a deadline lies ahead: a timeout may fire, and a
	// sleeper wake, before a worker that could still send. Reading the
	// time (w.Now, time.Now in weft test) is then a step too. A failure
	// whose clock advanced while another thread could still move says
	// so in its report (Failure.SlowStep).
	TimeAnyStep = TimeMode(engine.TimeAnyStep)
)

// String returns the mode's name on the command line: "blocked" or "any".
func (m TimeMode) String() string { return engine.TimeMode(m).String() }

// ParseTimeMode returns the mode named s: "any" or "blocked".
func ParseTimeMode(s string) (TimeMode, error) {
	switch s {
	case "any":
		return TimeAnyStep, nil
	case "blocked":
		return TimeWhenBlocked, nil
	}
	return 0, fmt.Errorf("time mode %q: want any (time may move at any step) or blocked (only when every thread is blocked)", s)
}

// ErrTimeMode is wrapped by the error of an exploration whose strategy
// does not explore the time mode asked for (WithTime).
var ErrTimeMode = explore.ErrTimeMode

// WithTime chooses when virtual time may move (TimeWhenBlocked, the
// default, or TimeAnyStep). unfold, con2 and reach explore
// TimeWhenBlocked only, and refuse TimeAnyStep with an error wrapping
// ErrTimeMode.
func WithTime(m TimeMode) Option {
	return func(c *config) error {
		if m != TimeWhenBlocked && m != TimeAnyStep {
			return fmt.Errorf("time mode %d: want TimeWhenBlocked or TimeAnyStep", m)
		}
		c.time = engine.TimeMode(m)
		return nil
	}
}
