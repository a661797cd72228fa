// This file exports, to the tests of package weft_test only, the divided
// exploration (divide.go).

package weft

import "github.com/weft-go/weft/strategy"

// ExploreDivided explores body with s divided into units: after every
// every-th execution of a strategy it splits off a unit, down to depth
// levels; each unit is explored to a Result of its own, and the Results
// are merged.
func ExploreDivided(body func(*T), s strategy.Splitter, every, depth int, opts ...Option) (*Result, error) {
	return exploreDividedOpts(body, s, divideOptions{every: every, depth: depth}, opts)
}

// ExploreDividedApart is ExploreDivided with each unit explored in a
// runtime of its own, as in another process.
func ExploreDividedApart(body func(*T), s strategy.Splitter, every, depth int, opts ...Option) (*Result, error) {
	return exploreDividedOpts(body, s, divideOptions{every: every, depth: depth, apart: true}, opts)
}

func exploreDividedOpts(body func(*T), s strategy.Splitter, o divideOptions, opts []Option) (*Result, error) {
	c := defaultConfig()
	for _, o := range opts {
		if err := o(&c); err != nil {
			return nil, err
		}
	}
	return exploreDivided(body, s, &c, o)
}

// WithParallelBatch has each worker of a parallel exploration run n
// executions between two looks at the others (how often it splits off
// units and joins them).
func WithParallelBatch(n int) Option {
	return func(c *config) error { c.batch = n; return nil }
}
