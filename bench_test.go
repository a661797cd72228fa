// This file benchmarks the runtime: the cost of a step with and without a
// thread switch beside a bare goroutine hand-off, and executions per second
// of exhaustive exploration on xy and fib n=2. Targets:
// a switching step at most twice the bare hand-off, a step
// without a switch at most 50 ns.

package weft_test

import (
	"testing"
	"time"

	"github.com/weft-go/weft"
	"github.com/weft-go/weft/strategy"
	"github.com/weft-go/weft/trace"
)

// stepsPerRun is the length of the executions of the step benchmarks: long
// enough that starting an execution costs little per step.
const stepsPerRun = 1000

// lowest runs the lowest enabled thread, for a number of executions.
type lowest struct{ runs int }

func (s *lowest) Next() bool { s.runs--; return s.runs >= 0 }
func (s *lowest) Choose(st *strategy.State) strategy.Choice {
	for i := range st.Threads {
		if st.Threads[i].Alts > 0 {
			return strategy.Choice{Thread: trace.ThreadID(i)}
		}
	}
	panic("no enabled thread")
}
func (s *lowest) Input(_ *strategy.State, in strategy.InputRequest) uint64 { return in.Default }
func (s *lowest) Finish(*trace.Trace, trace.End)                           {}

// alternate runs an enabled thread other than the last one it chose, so
// that every step switches threads while two are enabled.
type alternate struct {
	lowest
	last trace.ThreadID
}

func (s *alternate) Choose(st *strategy.State) strategy.Choice {
	n := len(st.Threads)
	for k := 1; k <= n; k++ {
		i := (int(s.last) + k) % n
		if st.Threads[i].Alts > 0 {
			s.last = trace.ThreadID(i)
			return strategy.Choice{Thread: s.last}
		}
	}
	panic("no enabled thread")
}

// benchSteps runs body under s for about b.N steps in executions of
// stepsPerRun steps, and reports the time per step.
func benchSteps(b *testing.B, body func(w *weft.T), s strategy.Strategy, runs int) {
	b.ReportAllocs()
	b.ResetTimer()
	start := time.Now()
	r, err := weft.Explore(body, weft.WithCustomStrategy(s), weft.WithMaxRuns(0), weft.NoReplayFiles())
	elapsed := time.Since(start)
	if err != nil || r.Failed() || r.Complete != runs || r.Events != int64(runs*stepsPerRun) {
		b.Fatalf("explore: %v; %d complete, %d events, failures %v", err, r.Complete, r.Events, r.FailureCounts)
	}
	b.ReportMetric(float64(elapsed.Nanoseconds())/float64(r.Events), "ns/step")
}

func runsFor(n int) int { return (n + stepsPerRun - 1) / stepsPerRun }

// BenchmarkStepNoSwitch measures a step of a single thread: a Var load,
// its scheduling point and its record, without a hand-off.
func BenchmarkStepNoSwitch(b *testing.B) {
	body := func(w *weft.T) {
		var x weft.Var[int]
		for range stepsPerRun {
			x.Load()
		}
	}
	runs := runsFor(b.N)
	benchSteps(b, body, &lowest{runs: runs}, runs)
}

// BenchmarkStepSwitch measures a step that hands control to another
// thread: two threads load a Var in strict alternation.
func BenchmarkStepSwitch(b *testing.B) {
	body := func(w *weft.T) {
		var x weft.Var[int]
		w.Go(func() {
			for range stepsPerRun / 2 {
				x.Load()
			}
		})
		for range stepsPerRun / 2 {
			x.Load()
		}
	}
	runs := runsFor(b.N)
	benchSteps(b, body, &alternate{lowest: lowest{runs: runs}}, runs)
}

// BenchmarkBareHandoff measures a hand-off between goroutines over
// channels, each sending on the other's buffered(1) wake channel and then
// receiving on its own: what the runtime did before its threads became
// coroutines (internal/engine, dispatch.go), the baseline BenchmarkStepSwitch
// compares with.
func BenchmarkBareHandoff(b *testing.B) {
	wakeA, wakeB := make(chan struct{}, 1), make(chan struct{}, 1)
	rounds := (b.N + 1) / 2 // two hand-offs per round
	done := make(chan struct{})
	go func() {
		for range rounds {
			<-wakeB
			wakeA <- struct{}{}
		}
		close(done)
	}()
	b.ReportAllocs()
	b.ResetTimer()
	start := time.Now()
	for range rounds {
		wakeB <- struct{}{}
		<-wakeA
	}
	elapsed := time.Since(start)
	<-done
	b.ReportMetric(float64(elapsed.Nanoseconds())/float64(2*rounds), "ns/handoff")
}

// fib2 is SV-COMP's fib_bench with n = 2: T1 repeats i := i+j, T2
// repeats j := j+i, and the body checks both stay at most fib(6) = 8.
func fib2(w *weft.T) {
	const n, bound = 2, 8
	var i, j weft.Var[int]
	i.Store(1)
	j.Store(1)
	w.Go(func() {
		for range n {
			a, b := i.Load(), j.Load()
			i.Store(a + b)
		}
	})
	w.Go(func() {
		for range n {
			b, a := j.Load(), i.Load()
			j.Store(b + a)
		}
	})
	a, b := i.Load(), j.Load()
	w.Assert(a <= bound && b <= bound, "i = %d, j = %d: above fib(6) = %d", a, b, bound)
}

// benchExec explores body exhaustively b.N times and reports executions
// per second.
func benchExec(b *testing.B, body func(w *weft.T), want int) {
	b.ReportAllocs()
	execs := 0
	start := time.Now()
	for range b.N {
		r, err := weft.Explore(body, weft.WithStrategy("exhaustive"), weft.WithMaxRuns(0), weft.NoReplayFiles())
		if err != nil || r.Failed() || !r.Exhausted || r.Executions != want {
			b.Fatalf("explore: %v; %d executions (want %d), failures %v", err, r.Executions, want, r.FailureCounts)
		}
		execs += r.Executions
	}
	elapsed := time.Since(start)
	b.ReportMetric(float64(execs)/elapsed.Seconds(), "exec/s")
	b.ReportMetric(float64(elapsed.Nanoseconds())/float64(execs), "ns/exec")
}

// BenchmarkExecXY explores xy's 6 interleavings.
func BenchmarkExecXY(b *testing.B) { benchExec(b, xy, 6) }

// BenchmarkExecFib2 explores every interleaving of fib n=2: after the two
// initial stores, T1's 6 steps, T2's 6 and the body's 2 loads merge in
// 14!/(6! 6! 2!) = 84084 ways.
func BenchmarkExecFib2(b *testing.B) { benchExec(b, fib2, 84084) }
