// This file benchmarks the analysis of one failed execution of 100,000
// steps (a thread that spins on a variable until the step bound) by the
// strategies whose race analysis looks at each event's races: every DPOR
// strategy, flip and optimal.

package weft_test

import (
	"testing"
	"time"

	"github.com/weft-go/weft"
	"github.com/weft-go/weft/internal/registry"
	"github.com/weft-go/weft/strategy"
	"github.com/weft-go/weft/trace"
)

// spinSteps is the step bound of the spinning body's executions.
const spinSteps = 100_000

// spin is a body whose every execution hits the step bound: one thread
// loads a variable until it is not 0, which it never is (the other thread
// writes 0, or has not run yet).
func spin(w *weft.T) {
	var x weft.Var[int]
	w.Go(func() {
		for x.Load() == 0 {
		}
	})
	w.Go(func() { x.Store(0) })
}

// timedFinish measures the time its strategy spends in Finish, on the
// clock and in processor time (which a loaded machine does not inflate).
type timedFinish struct {
	strategy.Strategy
	spent, cpu time.Duration
}

func (s *timedFinish) Finish(tr *trace.Trace, end trace.End) {
	start, cpu := time.Now(), cpuTime()
	s.Strategy.Finish(tr, end)
	s.spent += time.Since(start)
	s.cpu += cpuTime() - cpu
}

// Unwrap returns the strategy, so that its capabilities are found.
func (s *timedFinish) Unwrap() strategy.Strategy { return s.Strategy }

// analysedStrategies are the strategies BenchmarkAnalysisFailedSpin
// measures.
var analysedStrategies = []string{
	"optimal",
	"dpor", "dpor+sleep",
	"dpor-clock", "dpor-clock+sleep",
	"dpor-cr", "dpor-cr+sleep",
	"dpor-1", "dpor-2",
	"flip", "flip+sleep",
}

// BenchmarkAnalysisFailedSpin reports the time a strategy's Finish takes
// on one execution of spin that hits the bound of 100,000 steps (a
// possible livelock), as analysis-s/op (on the clock) and analysis-cpu-s/op
// (processor time of the process, where it is known); ns/op and cpu-s/op
// include the execution and the failure's report.
func BenchmarkAnalysisFailedSpin(b *testing.B) {
	for _, name := range analysedStrategies {
		b.Run(name, func(b *testing.B) {
			build, err := registry.Lookup(name)
			if err != nil {
				b.Fatal(err)
			}
			var spent, cpu time.Duration
			all := cpuTime()
			for b.Loop() {
				s := &timedFinish{Strategy: build(registry.Params{MaxSteps: spinSteps})}
				r, err := weft.Explore(spin, weft.WithCustomStrategy(s), weft.WithMaxRuns(1), weft.WithMaxSteps(spinSteps), weft.NoReplayFiles())
				if err != nil {
					b.Fatal(err)
				}
				if r.Executions != 1 || r.FailureCounts[trace.Livelock] != 1 {
					b.Fatalf("executions %d, livelocks %d; want 1, 1", r.Executions, r.FailureCounts[trace.Livelock])
				}
				spent += s.spent
				cpu += s.cpu
			}
			b.ReportMetric(spent.Seconds()/float64(b.N), "analysis-s/op")
			b.ReportMetric(cpu.Seconds()/float64(b.N), "analysis-cpu-s/op")
			b.ReportMetric((cpuTime()-all).Seconds()/float64(b.N), "cpu-s/op")
		})
	}
}
