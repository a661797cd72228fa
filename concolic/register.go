// This file registers the concolic strategies and con2 with a Z3 solver.

package concolic

import (
	"fmt"
	"time"

	"github.com/weft-go/weft/internal/registry"
	"github.com/weft-go/weft/solver"
	"github.com/weft-go/weft/solver/z3"
	"github.com/weft-go/weft/strategy"
	"github.com/weft-go/weft/strategy/con2"
	"github.com/weft-go/weft/strategy/concolic"
)

// SolverTimeout bounds each solver call of the concolic strategies.
const SolverTimeout = 10 * time.Second

// z3Install is the hint given when Z3 cannot be used.
const z3Install = "concolic testing needs the Z3 library: install it (apt-get install libz3-dev, or brew install z3) and build with cgo enabled"

func init() {
	for name, inner := range registry.ConcolicInners {
		registry.Register(name, func(p registry.Params) strategy.Strategy { return build(p, inner) })
	}
	registry.Register("con2", buildCon2)
	registry.SetSolver(func() (solver.Solver, error) {
		z, err := z3.New(z3.WithTimeout(SolverTimeout))
		if err != nil {
			return nil, fmt.Errorf("%s: %w", z3Install, err)
		}
		return z, nil
	})
}

// buildCon2 builds the con2colic strategy (Farzan et al. 2013) with bound p.K and a
// Z3 solver.
func buildCon2(p registry.Params) strategy.Strategy {
	z, err := z3.New(z3.WithTimeout(SolverTimeout))
	if err != nil {
		return con2.Failed(fmt.Errorf("%s: %w", z3Install, err))
	}
	return con2.New(con2.Options{K: p.K}, z)
}

// build builds a concolic strategy around the strategy called inner, with
// a Z3 solver. A strategy that cannot be built says why through its Err
// method (strategy.Failer).
func build(p registry.Params, inner string) strategy.Strategy {
	mk, err := registry.Lookup(inner)
	if err != nil {
		return concolic.Failed(fmt.Errorf("its schedule strategy: %w", err))
	}
	z, err := z3.New(z3.WithTimeout(SolverTimeout))
	if err != nil {
		return concolic.Failed(fmt.Errorf("%s: %w", z3Install, err))
	}
	return concolic.New(func() strategy.Strategy { return mk(p) }, z)
}
