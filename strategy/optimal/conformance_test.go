// This file checks Optimal-DPOR against exhaustive search on generated
// programs, with package strategytest.

package optimal

import (
	"fmt"
	"testing"

	"github.com/weft-go/weft/strategy"
	"github.com/weft-go/weft/strategy/strategytest"
)

// TestConformance checks Optimal-DPOR, in thread order and in the random
// orders of seeds 1 and 2, verifying the work it keeps across executions,
// on 200 generated programs: complete, exactly one execution per trace,
// none cut, and no anomaly of its model (Stats).
func TestConformance(t *testing.T) {
	for _, seed := range []int64{0, 1, 2} {
		t.Run(fmt.Sprintf("order%d", seed), func(t *testing.T) {
			var made []*Strategy
			strategytest.Conformance(t, func() strategy.Strategy {
				s := NewWith(Options{Seed: seed})
				s.SetVerify(true)
				made = append(made, s)
				return s
			}, strategytest.Options{Programs: 200, Claims: strategytest.Claims{Complete: true, OnePerTrace: true}})
			for i, s := range made {
				if st := s.Stats(); st.SleepBlocked != 0 || st.Infeasible != 0 || st.Unmodelled != 0 {
					t.Errorf("program %d: anomalies %+v", i+1, st)
				}
			}
		})
	}
}
