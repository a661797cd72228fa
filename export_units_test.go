// This file exports, to the tests of package weft_test only, the divided
// exploration (package dividetest) and the parts of a distributed one
// (package explore).

package weft

import (
	"github.com/weft-go/weft/internal/explore"
	"github.com/weft-go/weft/internal/explore/dividetest"
	"github.com/weft-go/weft/strategy"
)

// ExploreDivided explores body with s divided into units: after every
// every-th execution of a strategy it splits off a unit, down to depth
// levels; each unit is explored to a Result of its own, and the Results
// are merged.
func ExploreDivided(body func(*T), s strategy.Splitter, every, depth int, opts ...Option) (*Result, error) {
	return exploreDividedOpts(body, s, every, depth, false, opts)
}

// ExploreDividedApart is ExploreDivided with each unit explored in a
// runtime of its own, as in another process.
func ExploreDividedApart(body func(*T), s strategy.Splitter, every, depth int, opts ...Option) (*Result, error) {
	return exploreDividedOpts(body, s, every, depth, true, opts)
}

func exploreDividedOpts(body func(*T), s strategy.Splitter, every, depth int, apart bool, opts []Option) (*Result, error) {
	c, err := configOf(opts)
	if err != nil {
		return nil, err
	}
	r, err := dividetest.Explore(run(body, c), s, c.exploration(), every, depth, apart)
	return resultOf(r), err
}

// WithParallelBatch has each worker of a parallel exploration run n
// executions between two looks at the others (how often it splits off
// units and joins them).
func WithParallelBatch(n int) Option {
	return func(c *config) error { c.batch = n; return nil }
}

// configOf applies opts to the default configuration.
func configOf(opts []Option) (*config, error) {
	c := defaultConfig()
	for _, o := range opts {
		if err := o(&c); err != nil {
			return nil, err
		}
	}
	return &c, nil
}

// Coordinator is explore.Coordinator with this package's Result.
type Coordinator struct{ *explore.Coordinator }

// NewCoordinator returns the Coordinator of a distributed exploration of
// body with opts.
func NewCoordinator(body func(*T), opts ...Option) (*Coordinator, error) {
	c, err := configOf(opts)
	if err != nil {
		return nil, err
	}
	k, err := explore.NewCoordinator(run(body, c), *c.exploration())
	if err != nil {
		return nil, err
	}
	return &Coordinator{k}, nil
}

// Result is explore.Coordinator.Result as this package's.
func (k *Coordinator) Result(joined bool) *Result { return resultOf(k.Coordinator.Result(joined)) }

// PartExplorer and Part explore the parts of a distributed exploration.
type (
	PartExplorer = explore.PartExplorer
	Part         = explore.Part
)

// NewPartExplorer returns the PartExplorer of a distributed exploration of
// body with opts.
func NewPartExplorer(body func(*T), opts ...Option) (*PartExplorer, error) {
	c, err := configOf(opts)
	if err != nil {
		return nil, err
	}
	return explore.NewPartExplorer(run(body, c), *c.exploration())
}
