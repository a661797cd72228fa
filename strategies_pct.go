// This file registers the PCT strategy.

package weft

import (
	"github.com/weft-go/weft/internal/engine"
	"github.com/weft-go/weft/strategy"
	"github.com/weft-go/weft/strategy/pct"
)

func init() {
	strategies["pct"] = func(c *config) strategy.Strategy {
		bound := c.maxSteps
		if bound <= 0 {
			bound = engine.DefaultMaxSteps
		}
		return pct.New(pct.Config{Seed: c.seed, Depth: c.depth, MaxSteps: bound})
	}
}
