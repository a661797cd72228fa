// This file implements the parts of a distributed exploration and their
// outcomes, as bytes any process can take; coordinator.go and part.go
// explore them (package distrib carries them over NATS JetStream).

package explore

import (
	"errors"
	"fmt"
	"time"

	"github.com/weft-go/weft/internal/engine"
	"github.com/weft-go/weft/solver"
	"github.com/weft-go/weft/strategy"
	"github.com/weft-go/weft/trace"
)

// ErrBadPart is wrapped by the errors of PartExplorer.Explore and
// Coordinator.Join for bytes that are no part or outcome of the
// exploration: corrupt, of another strategy or options, or of another
// version of weft.
var ErrBadPart = errors.New("not a part of this distributed exploration")

// partData is a part: a unit of the strategy and the naming tables of
// the runtime that split it off (engine.Names.Export).
type partData struct {
	Unit   strategy.Unit
	Tables engine.Tables
}

// outcomeData is what the exploration of a part found: the unit's
// handback, the Result, and the naming tables of the runtime that
// explored it.
type outcomeData struct {
	Handback strategy.Handback
	Result   wireResult
	Tables   engine.Tables
}

// wireResult is a Result as encoding/gob sees it.
type wireResult struct {
	Executions, Complete, Cut, Assumed, AwaitBlocked int
	Events                                           int64
	Exhausted, TimedOut, Canceled                    bool
	Failures                                         []*Failure
	FailureCounts                                    map[trace.FailureKind]int
	Finals                                           *FinalStates
	Branches                                         []BranchSite
	Solver                                           solver.Stats
	Counters                                         []strategy.Counter
	Wall                                             time.Duration
}

func wireOf(r *Result) wireResult {
	return wireResult{Executions: r.Executions, Complete: r.Complete, Cut: r.Cut, Assumed: r.Assumed, AwaitBlocked: r.AwaitBlocked, Events: r.Events,
		Exhausted: r.Exhausted, TimedOut: r.TimedOut, Canceled: r.Canceled, Failures: r.Failures, FailureCounts: r.FailureCounts,
		Finals: &r.finals, Branches: r.Branches, Solver: r.Solver, Counters: r.Counters, Wall: r.Wall}
}

func (w *wireResult) result(name string) *Result {
	r := &Result{Strategy: name, Executions: w.Executions, Complete: w.Complete, Cut: w.Cut, Assumed: w.Assumed, AwaitBlocked: w.AwaitBlocked, Events: w.Events,
		Exhausted: w.Exhausted, TimedOut: w.TimedOut, Canceled: w.Canceled, Failures: w.Failures, FailureCounts: w.FailureCounts,
		Branches: w.Branches, Solver: w.Solver, Counters: w.Counters, Wall: w.Wall}
	if r.FailureCounts == nil {
		r.FailureCounts = map[trace.FailureKind]int{}
	}
	if w.Finals != nil {
		r.finals = *w.Finals
	}
	r.FinalStates = r.finals.Count()
	return r
}

// partTag names the parts and outcomes of an exploration with strategy
// name; the units inside carry the strategy's own tag and options.
func partTag(name string) string { return "weft-part:" + name }

// splitterOf builds c's strategy, which must divide into units.
func splitterOf(c *Config) (strategy.Splitter, error) {
	s, err := c.build()
	if err != nil {
		return nil, err
	}
	if err := refused(s, c.Strategy); err != nil {
		return nil, err
	}
	sp, ok := s.(strategy.Splitter)
	if !ok || c.Custom != nil {
		release(s)
		return nil, fmt.Errorf("strategy %s does not divide its work into units (strategy.Splitter): it cannot be distributed; choose one of dpor*, flip*, optimal, reach, unfold, con2 or the concolic ones", c.Strategy)
	}
	return sp, nil
}

// distributedSplitter sets c up for a part of a distributed exploration
// (the strategy is optimal unless one is chosen; bounds on executions and
// progress reports do not apply to a part) and builds its strategy, which
// must divide into units.
func distributedSplitter(c Config) (Config, strategy.Splitter, error) {
	if !c.Chosen {
		c.Strategy, c.Chosen = DefaultStrategy, true
	}
	c.MaxRuns, c.Progress = 0, nil
	s, err := splitterOf(&c)
	return c, s, err
}

// sharedObject returns err, or an error wrapping ErrSharedObject if the
// test body used an object made outside it (names.SharedObject).
func sharedObject(names *engine.Names, err error) error {
	if msg := names.SharedObject(); msg != "" && err == nil {
		return fmt.Errorf("%w: %s", ErrSharedObject, msg)
	}
	return err
}
