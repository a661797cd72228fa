// This file benchmarks one execution with many goroutines, including the
// strategy's analysis of it: 1,000 goroutines that take 100 steps each,
// and a chain of 10,000 goroutines that each wait for the previous one on a
// channel and then signal the next, and 100 goroutines that sleep and then
// take a shared lock, under optimal and dpor+sleep. The cost of a step
// should not grow with the number of goroutines.

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
	sleepThreads = flag.Int("scale.sleepers", 100, "goroutines of the BenchmarkScaleSleepers benchmarks")
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

// sleepersBody starts sleepThreads workers, the shape of a test whose
// goroutines all wake at the same virtual instant (lestrrat-go/backoff's
// TestLeak, with 100): each starts a helper that waits for a timer of
// half a second or the worker's channel, then for the channel, and the
// worker sleeps for a second, reads a lock they all share twice, closes
// its channel and is done on a WaitGroup the test body waits for. The
// races between the workers put the sleeps, which end only when every
// goroutine is blocked, late in each reversal.
func sleepersBody(w *weft.T) {
	var mu weft.RWMutex
	var wg weft.WaitGroup
	wg.Add(*sleepThreads)
	for range *sleepThreads {
		w.Go(func() {
			done := weft.MakeChan[struct{}](0)
			w.Go(func() {
				tm := weft.NewTimer(time.Second / 2)
				fired := false
				weft.Select(weft.OnRecv(done, func(struct{}, bool) {}), weft.OnRecv(tm.C, func(time.Duration, bool) { fired = true }))
				if fired {
					done.Recv()
				}
			})
			w.Sleep(time.Second)
			for range 2 {
				mu.RLock()
				mu.RUnlock()
			}
			done.Close()
			wg.Done()
		})
	}
	wg.Wait()
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

func BenchmarkScaleWideOptimal(b *testing.B)     { benchScale(b, wideBody, "optimal") }
func BenchmarkScaleWideDPORSleep(b *testing.B)   { benchScale(b, wideBody, "dpor+sleep") }
func BenchmarkScaleChainOptimal(b *testing.B)    { benchScale(b, chainBody, "optimal") }
func BenchmarkScaleChainDPORSleep(b *testing.B)  { benchScale(b, chainBody, "dpor+sleep") }
func BenchmarkScaleSleepersOptimal(b *testing.B) { benchScale(b, sleepersBody, "optimal") }
func BenchmarkScaleSleepersDPORSleep(b *testing.B) {
	benchScale(b, sleepersBody, "dpor+sleep")
}
