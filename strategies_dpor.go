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
// seed of WithSeed, if not zero, randomises the order of exploration. Without
// sleep sets the backtracking rule is Flanagan and Godefroid's process rule;
// with sleep sets it is the initials of the race's reversal (source-DPOR),
// which stays complete when sleeping threads are skipped, except for DPOR-1
// and DPOR-2 (seed 002 §6.1), which keep the process rule and handle
// sleeping threads their way.
var dporStrategies = map[string]dpor.Options{
	"dpor":             {Algorithm: dpor.VectorClocks, Relation: trace.Plain, Rule: dpor.Process},
	"dpor+sleep":       {Algorithm: dpor.VectorClocks, Relation: trace.Plain, Rule: dpor.Initials, Sleep: true},
	"dpor-clock":       {Algorithm: dpor.ObjectClocks, Rule: dpor.Process},
	"dpor-clock+sleep": {Algorithm: dpor.ObjectClocks, Rule: dpor.Initials, Sleep: true},
	"dpor-cr":          {Algorithm: dpor.CommutingReads, Rule: dpor.Process},
	"dpor-cr+sleep":    {Algorithm: dpor.CommutingReads, Rule: dpor.Initials, Sleep: true},
	"dpor-1":           {Algorithm: dpor.CommutingReads, Rule: dpor.Process, Sleep: true, Asleep: dpor.DPOR1},
	"dpor-2":           {Algorithm: dpor.CommutingReads, Rule: dpor.Process, Sleep: true, Asleep: dpor.DPOR2},
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
