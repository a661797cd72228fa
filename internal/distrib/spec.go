// This file implements what a worker builds from a run's Spec: the test
// body and the options of the exploration.

package distrib

import (
	"fmt"

	"github.com/weft-go/weft"
	"github.com/weft-go/weft/programs"
)

// A Bodies resolves the program of a spec to its test body.
type Bodies func(Spec) (func(*weft.T), error)

// ProgramBody resolves the built-in programs (package programs).
func ProgramBody(s Spec) (func(*weft.T), error) {
	p := programs.Lookup(s.Program)
	if p == nil {
		return nil, fmt.Errorf("unknown program %q: the worker's weft has no such built-in program (an older or newer version?)", s.Program)
	}
	ps, err := p.Resolve(s.Params)
	if err != nil {
		return nil, fmt.Errorf("program %s: %w", s.Program, err)
	}
	return p.Body(ps), nil
}

// options returns the options of an exploration of s, coordinator's and
// workers' alike.
func (s Spec) options() []weft.Option {
	opts := []weft.Option{weft.WithSeed(s.Seed), weft.NoReplayFiles()}
	if s.Strategy != "" {
		opts = append(opts, weft.WithStrategy(s.Strategy)) // else optimal (weft.NewCoordinator)
	}
	if s.MaxSteps > 0 {
		opts = append(opts, weft.WithMaxSteps(s.MaxSteps))
	}
	if s.KeepGoing {
		opts = append(opts, weft.KeepGoing())
	}
	if s.Races {
		opts = append(opts, weft.WithRaces())
	}
	if s.AnyStepTime {
		opts = append(opts, weft.WithTime(weft.TimeAnyStep))
	}
	return opts
}
