// This file benchmarks executions with many threads: the memory
// each live thread costs the runtime, and the time and allocation of
// dpor+sleep and optimal on 1,000 threads writing one variable.

package weft_test

import (
	"runtime"
	"testing"

	"github.com/weft-go/weft"
)

// manyThreads is the number of threads of the benchmarks.
const manyThreads = 1000

// BenchmarkThreadMemory measures the memory of a live thread: the body
// starts manyThreads threads that each block on a receive, and compares the
// heap and stacks in use then with before, then closes the channel to
// release them. Each exploration runs one execution, so that no thread
// reuses the goroutine of an earlier execution's (internal/engine keeps
// them for the next execution). Reported: bytes per thread.
func BenchmarkThreadMemory(b *testing.B) {
	var perThread float64
	var samples int
	body := func(w *weft.T) {
		c := weft.MakeChan[int](0)
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		threads := make([]*weft.Thread, manyThreads)
		for i := range threads {
			threads[i] = w.Go(func() { c.RecvOK() })
		}
		runtime.ReadMemStats(&after)
		used := func(m *runtime.MemStats) float64 { return float64(m.HeapAlloc + m.StackInuse) }
		perThread += (used(&after) - used(&before)) / manyThreads
		samples++
		c.Close()
		for _, t := range threads {
			t.Join()
		}
	}
	for range b.N {
		runtime.GC()
		if _, err := weft.Explore(body, weft.WithStrategy("random"), weft.WithMaxRuns(1), weft.NoReplayFiles()); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(perThread/float64(samples), "B/thread")
}

// benchManyWriters explores manyThreads threads storing to one variable
// under strategy name for 20 executions.
func benchManyWriters(b *testing.B, name string) {
	body := func(w *weft.T) {
		x := weft.NewVar[int]("x")
		var wg weft.WaitGroup
		for i := range manyThreads {
			wg.Go(func() { x.Store(i) })
		}
		wg.Wait()
	}
	b.ReportAllocs()
	for range b.N {
		r, err := weft.Explore(body, weft.WithStrategy(name), weft.WithMaxRuns(20), weft.KeepGoing(), weft.NoReplayFiles())
		if err != nil || r.Executions != 20 {
			b.Fatalf("explore: %v, %d executions", err, r.Executions)
		}
	}
}

func BenchmarkManyWritersDPORSleep(b *testing.B) { benchManyWriters(b, "dpor+sleep") }
func BenchmarkManyWritersOptimal(b *testing.B)   { benchManyWriters(b, "optimal") }
