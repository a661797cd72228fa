// This file benchmarks the determinism check on the states of a real
// exploration: those of fib with n=4 under optimal, recorded once.

package explore_test

import (
	"slices"
	"sync"
	"testing"

	"github.com/weft-go/weft"
	"github.com/weft-go/weft/internal/explore"
	"github.com/weft-go/weft/programs"
	"github.com/weft-go/weft/strategy"
	"github.com/weft-go/weft/strategy/optimal"
	"github.com/weft-go/weft/trace"
)

// recordedStep is a state a strategy chose in, and its choice.
type recordedStep struct {
	st strategy.State
	ch strategy.Choice
}

// recording is the steps of an exploration's executions in order; ends
// holds the index of the step after each execution's last.
type recording struct {
	steps []recordedStep
	ends  []int
}

// recorder records the states its strategy chooses in.
type recorder struct {
	strategy.Strategy
	rec *recording
}

func (r *recorder) Choose(st *strategy.State) strategy.Choice {
	ch := r.Strategy.Choose(st)
	r.rec.steps = append(r.rec.steps, recordedStep{
		st: strategy.State{Step: st.Step, Threads: slices.Clone(st.Threads), Changed: slices.Clone(st.Changed)},
		ch: ch,
	})
	return ch
}

func (r *recorder) Finish(tr *trace.Trace, end trace.End) {
	r.rec.ends = append(r.rec.ends, len(r.rec.steps))
	r.Strategy.Finish(tr, end)
}

// fibExecutions is the number of executions of fib n=4 recorded (of its
// 19,605): enough for the check's steady state, and few enough that their
// states stay in the cache, as the runtime's one reused state does.
const fibExecutions = 100

var fibRecording = sync.OnceValues(func() (*recording, error) {
	rec := &recording{}
	body := programs.Lookup("fib").MustBody(map[string]int{"n": 4})
	_, err := weft.Explore(body, weft.WithCustomStrategy(&recorder{Strategy: optimal.New(), rec: rec}),
		weft.WithMaxRuns(fibExecutions), weft.WithSeed(0), weft.KeepGoing(), weft.NoReplayFiles())
	return rec, err
})

// replayer makes the choices of a recording, in order.
type replayer struct {
	rec *recording
	k   int
}

func (r *replayer) Next() bool { return true }
func (r *replayer) Choose(*strategy.State) strategy.Choice {
	ch := r.rec.steps[r.k].ch
	r.k++
	return ch
}
func (r *replayer) Input(*strategy.State, strategy.InputRequest) uint64 { return 0 }
func (r *replayer) Finish(*trace.Trace, trace.End)                      {}

// BenchmarkCheckedFib measures Checked.Choose per step on the states of
// fib n=4 under optimal, with the recorded choices (its first 100
// executions, of 28 steps each, replayed in a loop). The states are those
// the runtime hands the check, with st.Changed, threads that start during
// the execution and the prefixes optimal replays, which a synthetic state
// (BenchmarkCheckedChoose) lacks.
func BenchmarkCheckedFib(b *testing.B) {
	rec, err := fibRecording()
	if err != nil {
		b.Fatal(err)
	}
	if len(rec.ends) != fibExecutions || len(rec.steps) != 28*fibExecutions {
		b.Fatalf("recorded %d executions of %d steps in all, want %d of 28 each", len(rec.ends), len(rec.steps), fibExecutions)
	}
	r := &replayer{rec: rec}
	c := explore.NewChecked(r, "replayer")
	tr := &trace.Trace{}
	end := trace.End{Status: trace.Complete, Thread: trace.NoThread}
	exec := 0
	c.Next()
	b.ReportAllocs()
	for b.Loop() {
		if r.k == rec.ends[exec] {
			c.Finish(tr, end)
			if exec++; exec == len(rec.ends) {
				exec, r.k = 0, 0
			}
			c.Next()
		}
		st := &rec.steps[r.k].st
		if ch := c.Choose(st); ch != rec.steps[r.k-1].ch {
			b.Fatalf("the check chose %v at step %d, not %v: %v", ch, st.Step, rec.steps[r.k-1].ch, c.Diverged())
		}
	}
}
