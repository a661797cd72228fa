// This file registers the concolic strategies: input search by dynamic
// symbolic execution around a schedule-exploring strategy (seed 000 §III).

package weft

import (
	"fmt"
	"time"

	"github.com/weft-go/weft/solver/z3"
	"github.com/weft-go/weft/strategy"
	"github.com/weft-go/weft/strategy/concolic"
)

// concolicStrategies maps each concolic strategy to its inner schedule
// strategy. The inner one is looked up when the strategy is built, so a
// name whose inner strategy is not built in fails with a clear error.
var concolicStrategies = map[string]string{
	"concolic":         "exhaustive",
	"concolic-dpor":    "dpor",
	"concolic-optimal": "optimal",
}

// SolverTimeout bounds each solver call of the concolic strategies.
const SolverTimeout = 10 * time.Second

// z3Install is the hint given when Z3 cannot be used.
const z3Install = "concolic testing needs the Z3 library: install it (apt-get install libz3-dev, or brew install z3) and build with cgo enabled"

func init() {
	for name, inner := range concolicStrategies {
		strategies[name] = func(c *config) strategy.Strategy { return newConcolic(c, inner) }
	}
}

// newConcolic builds a concolic strategy around the strategy called inner,
// with a Z3 solver.
func newConcolic(c *config, inner string) strategy.Strategy {
	mk, ok := strategies[inner]
	if !ok {
		return concolic.Failed(fmt.Errorf("its schedule strategy %q is not built in", inner))
	}
	z, err := z3.New(z3.WithTimeout(SolverTimeout))
	if err != nil {
		return concolic.Failed(fmt.Errorf("%s: %w", z3Install, err))
	}
	return concolic.New(func() strategy.Strategy { return mk(c) }, z)
}
