// This file measures the exploration of the spin locks of
// spinlocks_test.go, their busy waits as w.Await (with dpor+sleep) and as
// loops that yield (with optimal): executions per exploration and time.

package weft_test

import (
	"fmt"
	"testing"

	"github.com/weft-go/weft"
	"github.com/weft-go/weft/programs"
)

// BenchmarkSpinLocks explores each spin lock both ways of waiting, and
// reports the executions of one exploration (execs/op).
func BenchmarkSpinLocks(b *testing.B) {
	for _, c := range []struct {
		lock    string
		threads int
	}{{"peterson", 2}, {"dekker", 2}, {"ttas", 2}, {"ttas", 3}, {"bakery", 2}, {"filter", 3}} {
		for _, await := range []bool{true, false} {
			b.Run(fmt.Sprintf("%s%d/await=%v", c.lock, c.threads, await), func(b *testing.B) {
				body := programs.SpinLockNamed(c.lock, c.threads).Body(await)
				// optimal can miss a trace of a body that awaits (and says
				// so); dpor+sleep, which weft chooses for them, covers all.
				strategy := "optimal"
				if await {
					strategy = "dpor+sleep"
				}
				n := 0
				for b.Loop() {
					r, err := weft.Explore(body, weft.WithStrategy(strategy), weft.KeepGoing(), weft.WithMaxRuns(0))
					if err != nil || !r.Exhausted {
						b.Fatalf("Explore: %v, exhausted %v", err, r.Exhausted)
					}
					n = r.Executions
				}
				b.ReportMetric(float64(n), "execs/op")
			})
		}
	}
}
