// This file benchmarks parallel exploration (WithWorkers) against one
// worker on three programs: fib, indexer and dining.

package weft_test

import (
	"fmt"
	"testing"

	"github.com/weft-go/weft"
	"github.com/weft-go/weft/programs"
)

// BenchmarkWorkers explores a program with optimal on 1 and 2 workers and
// reports executions, repeated executions (beyond one worker's count) and
// each worker's idle share.
func BenchmarkWorkers(b *testing.B) {
	for _, c := range []struct {
		prog   string
		params map[string]int
	}{
		{"fib", map[string]int{"n": 3}},
		{"fib", map[string]int{"n": 4}},
		{"readloop", map[string]int{"m": 400}},
		{"dining", map[string]int{"n": 5, "meals": 2}},
	} {
		body := programs.Lookup(c.prog).MustBody(c.params)
		for _, strat := range []string{"optimal", "dpor-cr+sleep"} {
			var single int
			for _, workers := range []int{1, 2} {
				b.Run(fmt.Sprintf("%s%v/%s/workers=%d", c.prog, c.params, strat, workers), func(b *testing.B) {
					var r *weft.Result
					for b.Loop() {
						var err error
						r, err = weft.Explore(body, weft.WithStrategy(strat), weft.WithMaxRuns(0), weft.WithWorkers(workers), weft.KeepGoing())
						if err != nil || !r.Exhausted {
							b.Fatalf("%v, exhausted %v", err, r != nil && r.Exhausted)
						}
					}
					if workers == 1 {
						single = r.Executions
					}
					b.ReportMetric(float64(r.Executions), "executions")
					b.ReportMetric(float64(r.Executions)/b.Elapsed().Seconds()*float64(b.N), "exec/s")
					if single > 0 {
						b.ReportMetric(float64(r.Executions-single)/float64(single), "repeated")
					}
					for i, w := range r.Workers {
						b.ReportMetric(w.IdleFraction(), fmt.Sprintf("idle%d", i))
					}
				})
			}
		}
	}
}
