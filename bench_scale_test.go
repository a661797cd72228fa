// This file benchmarks one execution with many goroutines, including the
// strategy's analysis of it: 1,000 goroutines that take 100 steps each,
// and a chain of 10,000 goroutines that each wait for the previous one on a
// channel and then signal the next, under optimal and dpor+sleep. The cost
// of a step should not grow with the number of goroutines.

package weft_test

import (
	"flag"
	"testing"
	"time"

	"github.com/weft-go/weft"
)

// Sizes of the scale benchmarks; flags change them, to profile at a
// smaller size.
var (
	scaleThreads = flag.Int("scale.wide", 1000, "goroutines of the BenchmarkScaleWide benchmarks")
	chainThreads = flag.Int("scale.chain", 10_000, "goroutines of the BenchmarkScaleChain benchmarks")
)

// scaleSteps is the number of steps of each goroutine of
// BenchmarkScaleWide.
const scaleSteps = 100

// wideBody starts scaleThreads goroutines that each store to and load
// their own variable scaleSteps times in all, and joins them. Nothing
// races: the strategy's analysis finds no reversal, and what is measured
// is the cost of the steps and of the analysis of one execution.
func wideBody(w *weft.T) {
	threads := make([]*weft.Thread, *scaleThreads)
	for k := range threads {
		x := weft.NewVar[int]("x")
		threads[k] = w.Go(func() {
			for i := range scaleSteps / 2 {
				x.Store(i)
				x.Load()
			}
		})
	}
	for _, t := range threads {
		t.Join()
	}
}

// chainBody starts chainThreads goroutines in a chain: each receives from
// the channel of the one before it and sends on its own; the test body
// starts the chain and waits for its end.
func chainBody(w *weft.T) {
	first := weft.MakeChan[int](0)
	in := first
	n := *chainThreads
	for range n {
		out := weft.MakeChan[int](0)
		w.Go(func() { out.Send(in.Recv() + 1) })
		in = out
	}
	first.Send(0)
	v := in.Recv()
	w.Assert(v == n, "chain ends with %d, want %d", v, n)
}

// benchScale explores body under strategy name for one execution, the
// strategy's analysis included, and reports the processor time per
// execution (the machine may be shared: wall time alone misleads).
func benchScale(b *testing.B, body func(w *weft.T), name string) {
	b.ReportAllocs()
	var cpu time.Duration
	for range b.N {
		start := cpuTime()
		r, err := weft.Explore(body, weft.WithStrategy(name), weft.WithMaxRuns(1), weft.WithMaxSteps(1_000_000), weft.NoReplayFiles())
		cpu += cpuTime() - start
		if err != nil || r.Complete != 1 {
			b.Fatalf("explore: %v; %d complete, failures %v", err, r.Complete, r.FailureCounts)
		}
	}
	b.ReportMetric(cpu.Seconds()/float64(b.N), "cpu-s/op")
}

func BenchmarkScaleWideOptimal(b *testing.B)    { benchScale(b, wideBody, "optimal") }
func BenchmarkScaleWideDPORSleep(b *testing.B)  { benchScale(b, wideBody, "dpor+sleep") }
func BenchmarkScaleChainOptimal(b *testing.B)   { benchScale(b, chainBody, "optimal") }
func BenchmarkScaleChainDPORSleep(b *testing.B) { benchScale(b, chainBody, "dpor+sleep") }
