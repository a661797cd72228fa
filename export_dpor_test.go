// This file exports, to the tests of package weft_test only, the
// construction of a strategy by name.

package weft

import "github.com/weft-go/weft/strategy"

// StrategyByName returns a new strategy registered under name, with the
// given seed, or nil.
func StrategyByName(name string, seed int64) strategy.Strategy {
	c := defaultConfig()
	c.strategyName, c.seed = name, seed
	s, err := c.exploration().Build()
	if err != nil {
		return nil
	}
	return s
}
