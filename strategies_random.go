// This file registers the random strategy.

package weft

import (
	"github.com/weft-go/weft/strategy"
	"github.com/weft-go/weft/strategy/random"
)

func init() {
	strategies["random"] = func(c *config) strategy.Strategy { return random.New(c.seed) }
}
