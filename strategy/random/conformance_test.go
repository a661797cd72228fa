// This file checks the random strategy with package strategytest.

package random_test

import (
	"fmt"
	"testing"

	"github.com/weft-go/weft/internal/long"
	"github.com/weft-go/weft/strategy"
	"github.com/weft-go/weft/strategy/random"
	"github.com/weft-go/weft/strategy/strategytest"
)

// TestConformance checks random schedules of seeds 1 to 3 on 40 generated
// programs (200 with WEFT_LONG=1): 50 executions each (the strategy never
// ends by itself), only enabled threads chosen, and only traces, final
// states and failures exhaustive search reaches.
func TestConformance(t *testing.T) {
	for seed := int64(1); seed <= 3; seed++ {
		t.Run(fmt.Sprint("seed", seed), func(t *testing.T) {
			strategytest.Conformance(t, func() strategy.Strategy { return random.New(seed) },
				strategytest.Options{Programs: long.N(40, 200), Executions: 50})
		})
	}
}
