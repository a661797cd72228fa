// This file checks the shortening of failing schedules (WithShorten): a
// golden report of a schedule found with a switch at every step and of its
// shortened form, the replay of the shortened token, and the bound.

package weft_test

import (
	"path/filepath"
	"testing"

	"github.com/weft-go/weft"
	"github.com/weft-go/weft/internal/golden"
	"github.com/weft-go/weft/strategy"
	"github.com/weft-go/weft/trace"
)

// roundRobin runs one execution that switches threads at every step it
// can: the next enabled thread after the one that ran last.
type roundRobin struct {
	done bool
	last int
}

func (r *roundRobin) Next() bool { ok := !r.done; r.done = true; return ok }

func (r *roundRobin) Choose(st *strategy.State) strategy.Choice {
	n := len(st.Threads)
	for k := 1; k <= n; k++ {
		p := (r.last + k) % n
		if st.Enabled(trace.ThreadID(p)) {
			r.last = p
			return strategy.Choice{Thread: trace.ThreadID(p)}
		}
	}
	return strategy.Cut
}

func (r *roundRobin) Input(_ *strategy.State, in strategy.InputRequest) uint64 { return in.Default }
func (r *roundRobin) Finish(*trace.Trace, trace.End)                           {}

// preemptedCounter is three threads that each load y twice, increment x
// without a lock and load y again; the body joins them and checks x. It
// counts its runs in *runs.
func preemptedCounter(runs *int) func(w *weft.T) {
	return func(w *weft.T) {
		*runs++
		x := weft.NewVar[int]("x")
		y := weft.NewVar[int]("y")
		var ts []*weft.Thread
		for range 3 {
			ts = append(ts, w.Go(func() {
				y.Load()
				y.Load()
				x.Store(x.Load() + 1)
				y.Load()
			}))
		}
		for _, t := range ts {
			t.Join()
		}
		w.Assert(x.Load() == 3, "lost update: x = %d", x.Load())
	}
}

// TestShortenGolden checks the report of the counter's round-robin
// schedule, as found (WithShorten(0)) and shortened (the default), against
// testdata/report/shorten_*.golden, and that the shortened token replays
// the shortened schedule.
func TestShortenGolden(t *testing.T) {
	for _, c := range []struct {
		name string
		opts []weft.Option
	}{
		{"shorten_off", []weft.Option{weft.WithShorten(0)}},
		{"shorten_on", nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			var runs int
			body := preemptedCounter(&runs)
			opts := append([]weft.Option{weft.WithCustomStrategy(&roundRobin{}), weft.NoReplayFiles()}, c.opts...)
			r, err := weft.Explore(body, opts...)
			if err != nil {
				t.Fatal(err)
			}
			if len(r.Failures) != 1 || r.Failures[0].Kind != trace.Assertion {
				t.Fatalf("failures %v, want one assertion", r.FailureCounts)
			}
			f := r.Failures[0]
			cmd := weft.ReplayEnv + "=" + f.Token + " go test -run '^TestShortenGolden$'"
			golden.Check(t, filepath.Join("testdata", "report", c.name+".golden"), golden.Normalize(f.Report(cmd)), *update)
			rr, err := weft.Replay(body, f.Token)
			if err != nil {
				t.Fatalf("replay of the token: %v", err)
			}
			if len(rr.Failures) != 1 || rr.Failures[0].Kind != trace.Assertion || rr.Failures[0].Message != f.Message {
				t.Fatalf("replay of the token: failures %v, want the assertion %q", rr.FailureCounts, f.Message)
			}
			if got, want := len(rr.Failures[0].Steps), len(f.Steps); got != want {
				t.Errorf("replay of the token: %d steps, want %d", got, want)
			}
		})
	}
}

// TestShortenBound checks that shortening runs the body at most the
// bound's number of times, and that a negative bound is refused.
func TestShortenBound(t *testing.T) {
	for _, bound := range []int{0, 1, 3} {
		var runs int
		r, err := weft.Explore(preemptedCounter(&runs), weft.WithCustomStrategy(&roundRobin{}), weft.WithShorten(bound))
		if err != nil {
			t.Fatal(err)
		}
		// The exploration's one execution, the replay that lists the
		// report's steps, the shortening's, and, if it shortened the
		// schedule, the replay that lists the steps as found.
		want := 2 + bound
		if r.Failures[0].FoundSteps != 0 {
			want++
		}
		if runs != want {
			t.Errorf("WithShorten(%d): %d runs of the body, want %d", bound, runs, want)
		}
		if f := r.Failures[0]; len(f.Found) != f.FoundSteps {
			t.Errorf("WithShorten(%d): %d steps as found described, want %d", bound, len(f.Found), f.FoundSteps)
		}
		if f := r.Failures[0]; (f.FoundSteps != 0) != (bound > 0) {
			t.Errorf("WithShorten(%d): found %d steps, %d switches; now %d switches", bound, f.FoundSteps, f.FoundSwitches, f.Switches)
		}
	}
	if _, err := weft.Explore(func(*weft.T) {}, weft.WithShorten(-1)); err == nil {
		t.Errorf("WithShorten(-1): no error")
	}
}
