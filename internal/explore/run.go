// This file implements the entry points of an exploration: Explore, on one
// worker or several, and Run, one strategy in one session.

package explore

import (
	"fmt"

	"github.com/weft-go/weft/internal/engine"
	"github.com/weft-go/weft/strategy"
)

// Explore explores the executions of body with c: with the strategy c
// names, or, if the caller chose none, with the one chosen for body
// (choose.go); on the workers c asks for. The error says why the
// strategy could not be built or set up, or, wrapping ErrInternal, that a
// strategy panicked (the Result then holds what was explored until
// then).
func Explore(body func(), c *Config) (*Result, error) {
	if !c.Chosen {
		return exploreChosen(body, c)
	}
	s, err := c.build()
	if err != nil {
		return nil, err
	}
	// A strategy that could not be set up (the concolic ones without Z3)
	// says why.
	if err := refused(s, c.Strategy); err != nil {
		return nil, err
	}
	return exploreOn(body, s, c)
}

// exploreOn explores body with s on the workers c asks for: in parallel
// when there are several and s divides its work into units
// (strategy.Splitter) that other strategies c builds can resume; with one
// worker otherwise, saying why in Result.NotParallel.
func exploreOn(body func(), s strategy.Strategy, c *Config) (*Result, error) {
	n := c.workerCount()
	if n <= 1 {
		return Run(body, s, c)
	}
	sp, ok := s.(strategy.Splitter)
	why := ""
	switch {
	case c.Custom != nil:
		why = "a custom strategy (WithCustomStrategy) runs on one worker: weft cannot make more of it"
	case !ok:
		why = fmt.Sprintf("strategy %s does not divide its work into units (strategy.Splitter)", c.Strategy)
	}
	if why != "" {
		r, err := Run(body, s, c)
		if r != nil {
			r.NotParallel = why
		}
		return r, err
	}
	return exploreParallel(body, sp, c, n)
}

// Run runs the exploration loop with strategy s in a session of its own,
// and releases s. The error, wrapping ErrInternal, says that a strategy
// panicked; the Result holds what was explored until then.
func Run(body func(), s strategy.Strategy, c *Config) (*Result, error) {
	x := newSession(body, c, nil)
	defer x.Close()
	defer release(s)
	return ExplorePart(x, body, s, c)
}

// newSession starts the runtime of an exploration of body with c, whose
// naming tables are names (nil: its own), shared with the sessions of
// other workers (parallel.go).
func newSession(body func(), c *Config, names *engine.Names) *Session {
	return NewSession(c.SessionConfig(names), body)
}

// SessionConfig returns the configuration of a session that runs the
// executions of an exploration with c, whose naming tables are names (nil:
// its own).
func (c *Config) SessionConfig(names *engine.Names) SessionConfig {
	return SessionConfig{MaxSteps: c.MaxSteps, Watchdog: c.Watchdog, Time: c.Time, Timeout: c.Timeout, Stop: c.Stop, Names: names,
		Seed: c.Seed, VarySeed: c.VarySeed, Epoch: c.Epoch, IgnoreLeak: c.ignoreLeak()}
}
