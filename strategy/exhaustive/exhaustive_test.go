// This file checks exhaustive search with package strategytest: one
// execution per interleaving, counted apart from this package.

package exhaustive_test

import (
	"testing"

	"github.com/weft-go/weft/internal/long"
	"github.com/weft-go/weft/strategy"
	"github.com/weft-go/weft/strategy/exhaustive"
	"github.com/weft-go/weft/strategy/strategytest"
)

// TestConformance checks exhaustive search on 40 generated programs (200
// with WEFT_LONG=1): it ends its exploration after exactly one execution per
// path of the tree of choices (strategytest.Interleavings), each schedule
// once, and reaches only what the program can reach (trivially: it is its
// own reference).
func TestConformance(t *testing.T) {
	strategytest.Conformance(t, func() strategy.Strategy { return exhaustive.New() },
		strategytest.Options{Programs: long.N(40, 200), Claims: strategytest.Claims{Complete: true, EveryInterleaving: true}})
}
