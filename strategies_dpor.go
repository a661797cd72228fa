// This file registers the DPOR strategies (seed 000 Figs. 1-3 and 7, seed 002
// §6.1) and race detection and flipping (seed 001).

package weft

import (
	"github.com/weft-go/weft/strategy"
	"github.com/weft-go/weft/strategy/dpor"
	"github.com/weft-go/weft/strategy/flip"
	"github.com/weft-go/weft/trace"
)

// dporStrategies maps the names of the DPOR family to their options; the
// seed of WithSeed, if not zero, randomises the order of exploration.
var dporStrategies = map[string]dpor.Options{
	"dpor":             {Algorithm: dpor.VectorClocks, Relation: trace.Plain},
	"dpor+sleep":       {Algorithm: dpor.VectorClocks, Relation: trace.Plain, Sleep: true},
	"dpor-clock":       {Algorithm: dpor.ObjectClocks},
	"dpor-clock+sleep": {Algorithm: dpor.ObjectClocks, Sleep: true},
	"dpor-cr":          {Algorithm: dpor.CommutingReads},
	"dpor-cr+sleep":    {Algorithm: dpor.CommutingReads, Sleep: true},
	"dpor-1":           {Algorithm: dpor.CommutingReads, Sleep: true, Asleep: dpor.DPOR1},
	"dpor-2":           {Algorithm: dpor.CommutingReads, Sleep: true, Asleep: dpor.DPOR2},
}

func init() {
	for name, o := range dporStrategies {
		strategies[name] = func(c *config) strategy.Strategy {
			o := o
			o.Seed = c.seed
			return dpor.New(o)
		}
	}
	strategies["flip"] = func(c *config) strategy.Strategy { return flip.New(flip.Options{Seed: c.seed}) }
	strategies["flip+sleep"] = func(c *config) strategy.Strategy { return flip.New(flip.Options{Sleep: true, Seed: c.seed}) }
}
