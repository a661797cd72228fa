// This file registers Optimal-DPOR (Abdulla et al., POPL 2014): one
// execution per Mazurkiewicz trace, none blocked by a sleep set.

package weft

import (
	"github.com/weft-go/weft/strategy"
	"github.com/weft-go/weft/strategy/optimal"
)

func init() {
	strategies["optimal"] = func(c *config) strategy.Strategy { return optimal.NewWith(optimal.Options{Seed: c.seed}) }
}
