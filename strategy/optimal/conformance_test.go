// This file checks Optimal-DPOR against exhaustive search on generated
// programs, with package strategytest.

package optimal

import (
	"fmt"
	"testing"

	"github.com/weft-go/weft/internal/gen"
	"github.com/weft-go/weft/internal/long"
	"github.com/weft-go/weft/strategy"
	"github.com/weft-go/weft/strategy/strategytest"
)

// TestConformance checks Optimal-DPOR, in thread order and in the random
// orders of seeds 1 and 2, verifying the work it keeps across executions, on
// 40 generated programs (200 with WEFT_LONG=1): complete, exactly one
// execution per trace, none cut, and no anomaly of its model (Stats). It
// checks thread order again with persistent clocks, which the programs of
// more than flatMax threads keep, where these few-thread programs keep
// flat ones.
func TestConformance(t *testing.T) {
	t.Parallel()
	resumed := 0
	for _, seed := range []int64{0, 1, 2, -1, -2} {
		// Order -1: thread order, on programs with adds whose result is
		// unused (AddOnly), which commute with each other. Order -2:
		// thread order with persistent clocks.
		g, name, persistent := gen.DefaultOptions, fmt.Sprintf("order%d", seed), false
		switch seed {
		case -1:
			seed, g, name = 0, gen.V3, "addonly"
		case -2:
			seed, name, persistent = 0, "persistent", true
		}
		t.Run(name, func(t *testing.T) {
			var made []*Strategy
			strategytest.Conformance(t, func() strategy.Strategy {
				s := NewWith(Options{Seed: seed})
				s.SetVerify(true)
				s.an.hb.persistent = persistent
				made = append(made, s)
				return s
			}, strategytest.Options{Programs: long.N(40, 200), Gen: g, Claims: strategytest.Claims{Complete: true, OnePerTrace: true}})
			settled, flat := 0, 0
			for i, s := range made {
				if s.an.hb.flatOK {
					flat++
				}
				if st := s.Stats(); st.SleepBlocked != 0 || st.Infeasible != 0 || st.Unmodelled != 0 {
					t.Errorf("program %d: anomalies %+v", i+1, st)
				}
				settled += s.settled
				resumed += s.resumed
			}
			// Under verification every reversal settled from a record of
			// an earlier execution is checked in full (reverse): some must
			// have been, for the check to mean anything.
			if settled == 0 {
				t.Errorf("no reversal of a replayed race was settled from a record")
			}
			// The kind of clocks the last execution of each program kept:
			// persistent where forced, flat otherwise (the programs have
			// a few threads).
			want := len(made)
			if persistent {
				want = 0
			}
			if flat != want {
				t.Errorf("%d of %d programs kept flat clocks, want %d", flat, len(made), want)
			}
		})
	}
	// Likewise, every walk of a wakeup tree resumed below the levels an
	// earlier check took is checked against a walk from the top.
	if resumed == 0 {
		t.Errorf("no walk of a wakeup tree was resumed from a record")
	}
}
