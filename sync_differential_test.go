// This file tests the complete strategies against exhaustive search on
// random programs with the synchronisation primitives beyond mutexes and
// channels (gen.Sync: semaphores, guarded Cond waits and signals, SC and SU
// monitors, awaits and yields) and with selects whose default faces an
// unbuffered case (gen.SelectDefaults), comparing the failures' causal
// pasts too.

package weft_test

import (
	"fmt"
	"testing"

	"github.com/weft-go/weft"
	"github.com/weft-go/weft/internal/gen"
	"github.com/weft-go/weft/internal/gen/genweft"
)

// TestSyncDifferentialGen checks the complete strategies against
// exhaustive search on gen.Sync's programs (optimal may cut executions:
// its model does not know where a w.Await's condition holds) and on
// gen.SelectDefaults' (where it cuts none): the same final states,
// failure kinds, maximal traces and failures, and optimal each trace once.
// 100 programs of each, 1000 with WEFT_LONG=1, or WEFT_SYNC_PROGRAMS; a
// program too large for exhaustive search is replaced by the next seed.
func TestSyncDifferentialGen(t *testing.T) {
	n := sweep(100, 1000, "WEFT_SYNC_PROGRAMS")
	for _, c := range []struct {
		name   string
		opts   gen.Options
		mayCut bool
	}{{"sync", gen.Sync, true}, {"select-defaults", gen.SelectDefaults, false}} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			last, skipped := checkPrograms(t, n, 0, n/5, func(seed uint64) bool {
				p := gen.NewWith(seed, c.opts)
				msg, ok := compareBody(func() func(*weft.T) { return genweft.Body(p) }, fmt.Sprintf("seed %d", seed), p, c.mayCut)
				if msg != "" {
					t.Errorf("%s", msg)
				}
				return ok
			})
			t.Logf("%d %s programs (seeds 0-%d, %d too large) checked", n, c.name, last, skipped)
		})
	}
}
