// This file lists the strategies known by name.

package weft

import (
	"github.com/weft-go/weft/internal/registry"
	"github.com/weft-go/weft/strategy"
)

// Strategies returns the names of the strategies this program can run,
// sorted. The concolic ones are among them when the program imports
// github.com/weft-go/weft/concolic.
func Strategies() []string { return registry.Names() }

// build builds the strategy of c.
func (c *config) build() (strategy.Strategy, error) {
	if c.strategy != nil {
		if err := checkHidden(c.strategy); err != nil {
			return nil, err
		}
		return c.strategy, c.checkTime(c.strategy, "(custom)")
	}
	mk, err := registry.Lookup(c.strategyName)
	if err != nil {
		return nil, err
	}
	s := mk(registry.Params{Seed: c.seed, Depth: c.depth, MaxSteps: c.maxSteps, K: c.k})
	return s, c.checkTime(s, c.strategyName)
}
