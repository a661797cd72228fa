// This file checks PCT with package strategytest.

package pct_test

import (
	"fmt"
	"testing"

	"github.com/weft-go/weft/internal/long"
	"github.com/weft-go/weft/strategy"
	"github.com/weft-go/weft/strategy/pct"
	"github.com/weft-go/weft/strategy/strategytest"
)

// TestConformance checks PCT of depths 1 to 3 (seed 1) on 40 generated
// programs (200 with WEFT_LONG=1): 50 executions each (the strategy never
// ends by itself), only enabled threads chosen, and only traces, final
// states and failures exhaustive search reaches.
func TestConformance(t *testing.T) {
	for depth := 1; depth <= 3; depth++ {
		t.Run(fmt.Sprint("depth", depth), func(t *testing.T) {
			strategytest.Conformance(t, func() strategy.Strategy { return pct.New(pct.Config{Seed: 1, Depth: depth}) },
				strategytest.Options{Programs: long.N(40, 200), Executions: 50})
		})
	}
}
