// This file implements what a worker builds from a run's Spec: the
// configuration of the exploration; its test body comes from the caller
// (Bodies).

package distrib

import (
	"errors"

	"github.com/weft-go/weft/internal/engine"
	"github.com/weft-go/weft/internal/explore"
	"github.com/weft-go/weft/trace"
)

// A Bodies resolves the program of a spec to its test body, as the
// runtime runs it (each call one execution).
type Bodies func(Spec) (func(), error)

// ErrNoBodies is wrapped by the error of Coordinate and Work called
// without Options.Bodies: nothing resolves the programs.
var ErrNoBodies = errors.New("no Bodies to resolve the programs of runs")

// config returns the configuration of an exploration of s, coordinator's
// and workers' alike (replay files do not apply), whose executions
// observe sees if it is not nil.
func (s Spec) config(observe func(*trace.Trace, trace.End)) explore.Config {
	c := explore.Default()
	c.Seed, c.Observe = s.Seed, observe
	if s.Strategy != "" {
		c.Strategy, c.Chosen = s.Strategy, true // else optimal (explore.NewCoordinator)
	}
	if s.MaxSteps > 0 {
		c.MaxSteps = s.MaxSteps
	}
	c.StopOnFail = !s.KeepGoing
	c.Races = s.Races
	if s.AnyStepTime {
		c.Time = engine.TimeAnyStep
	}
	return c
}
