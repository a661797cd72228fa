// This file implements Config, how an exploration runs, and the building
// of its strategy: the one place a strategy is made by name.

package explore

import (
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/weft-go/weft/internal/engine"
	"github.com/weft-go/weft/internal/registry"
	"github.com/weft-go/weft/strategy"
	"github.com/weft-go/weft/trace"
)

// The defaults of package weft's options, which a distributed exploration
// (whose processes make their Config without package weft) shares.
const (
	// DefaultStrategy is the strategy Explore starts with when the caller
	// names none; InputStrategy the one it turns to for a body that
	// reads inputs (choose.go).
	DefaultStrategy = "optimal"
	InputStrategy   = "concolic-optimal"
	// AwaitStrategy is the one it turns to for a body that waits in
	// w.Await (or a busy-wait loop weft test makes one), where optimal
	// can miss a trace (strategy.Incomplete).
	AwaitStrategy = "dpor+sleep"
	// DefaultShorten is the number of executions spent, at most, on
	// shortening each failing schedule (shorten.go).
	DefaultShorten = 200
	// DefaultDepth is PCT's bug depth, DefaultInterferences con2's bound.
	DefaultDepth         = 3
	DefaultInterferences = 2
)

// ErrTimeMode is wrapped by the error of an exploration whose strategy
// cannot explore the time mode asked for.
var ErrTimeMode = errors.New("the strategy does not explore this time mode")

// Config is how an exploration runs: package weft's options, as this
// package reads them.
type Config struct {
	// Strategy names the strategy (the registry's name, or "custom" for
	// Custom, the caller's own). Chosen says the caller chose it;
	// otherwise Explore chooses (choose.go).
	Strategy string
	Custom   strategy.Strategy
	Chosen   bool
	// Seed, Depth and K are the parameters of the strategies that take
	// them (random and pct, pct, con2).
	Seed  int64
	Depth int
	K     int
	// ReachPV and ReachSymmetric are reach's reductions (P/V, symmetry).
	ReachPV        bool
	ReachSymmetric [][]int
	// MaxRuns bounds the executions (0: no bound), MaxSteps the steps of
	// one (0: the runtime's default).
	MaxRuns, MaxSteps int
	// Timeout bounds the wall time (0: no bound); Stop, if not nil, stops
	// the exploration when it is closed (a context's Done).
	Timeout time.Duration
	Stop    <-chan struct{}
	// Watchdog is how long a goroutine may block outside weft's control
	// before it is reported (0: the runtime's default).
	Watchdog time.Duration
	// Time is when virtual time may move.
	Time engine.TimeMode
	// StopOnFail ends the exploration at its first failure.
	StopOnFail bool
	// Progress, if set, is called about once a second.
	Progress func(Progress)
	// Workers is the number of workers (0 or 1: one).
	Workers int
	// Shorten bounds the executions spent shortening each failure (0:
	// none).
	Shorten int
	// Races checks every execution for data races.
	Races bool
	// Batch, if not 0 (tests), is how many executions a parallel worker
	// runs between two looks at the others (parallelBatch).
	Batch int
	// Observe, if set, sees every execution as it is recorded.
	Observe func(tr *trace.Trace, end trace.End)
	// VarySeed gives each execution a seed of its own, mixed from Seed
	// (engine.Config.VarySeed); IgnoreLeaks makes an execution that ended
	// with a leak complete.
	VarySeed, IgnoreLeaks bool
	// IgnoreLeak names the functions in which a thread left blocked at
	// the end does not count as a leak (engine.Config.IgnoreLeak).
	IgnoreLeak []string
	// Epoch is the instant of the wall clock, in Unix nanoseconds, at
	// which virtual time starts in every execution (engine.NextEpoch at
	// the exploration's start; 0: engine.DefaultEpoch).
	Epoch int64

	// Log, if set, returns the lines the last execution of a runtime
	// logged (the API's T.Log and T.Error), for a failure's report.
	Log func(e *engine.Exec) []string
	// Uncontrolled, if set, returns the goroutines the body of the last
	// execution of a runtime started outside weft's control, as far as
	// it counted them (Result.Uncontrolled).
	Uncontrolled func(e *engine.Exec) int

	// finals, if set, collects the final states of the complete
	// executions in place of the Result's: a parallel worker's own,
	// merged into the total once, at the end, rather than one set per
	// batch merged after each.
	finals *FinalStates
}

// ignoreLeak returns engine.Config.IgnoreLeak for c, nil if it ignores
// no function.
func (c *Config) ignoreLeak() func(string) bool {
	if len(c.IgnoreLeak) == 0 {
		return nil
	}
	fns := c.IgnoreLeak
	return func(f string) bool { return slices.Contains(fns, f) }
}

// Progress is a snapshot of a running exploration.
type Progress struct {
	Executions int
	Failures   int
	Elapsed    time.Duration
}

// Default returns the Config of package weft's defaults.
func Default() Config {
	return Config{Strategy: DefaultStrategy, MaxRuns: 100_000, Depth: DefaultDepth, K: DefaultInterferences, StopOnFail: true, Shorten: DefaultShorten}
}

// build builds the strategy of c: Custom, refused if it hides a
// capability the driver needs (ErrHiddenCapability), or the one
// registered under c.Strategy.
func (c *Config) build() (strategy.Strategy, error) {
	if c.Custom != nil {
		if err := checkHidden(c.Custom); err != nil {
			return nil, err
		}
		return c.Custom, c.checkTime(c.Custom, "(custom)")
	}
	mk, err := registry.Lookup(c.Strategy)
	if err != nil {
		return nil, err
	}
	s := mk(registry.Params{Seed: c.Seed, Depth: c.Depth, MaxSteps: c.MaxSteps, K: c.K, ReachPV: c.ReachPV, ReachSymmetric: c.ReachSymmetric})
	return s, c.checkTime(s, c.Strategy)
}

// Build builds c's strategy, for a caller that runs it in a mode of its
// own: a test.
func (c *Config) Build() (strategy.Strategy, error) { return c.build() }

// checkTime refuses a strategy that cannot explore c's time mode.
func (c *Config) checkTime(s strategy.Strategy, name string) error {
	if c.Time != engine.TimeAnyStep {
		return nil
	}
	if blockedTimeOnly(s) {
		return fmt.Errorf("strategy %s with time mode any: %w (it models time that moves only when every thread is blocked); use -time blocked (WithTime(TimeWhenBlocked)) or another strategy, such as optimal", name, ErrTimeMode)
	}
	return nil
}

// workerCount returns the number of workers to run.
func (c *Config) workerCount() int { return max(c.Workers, 1) }
