// This file tests loops that poll the clock, in both time modes, and the
// report of a failure that needs a thread to be slower than a timer.

package weft_test

import (
	"strings"
	"testing"
	"time"

	"github.com/weft-go/weft"
	"github.com/weft-go/weft/trace"
)

var timeModes = []weft.TimeMode{weft.TimeWhenBlocked, weft.TimeAnyStep}

// TestPollSpin spins on w.Now for 5ms: every third read in a row sleeps
// for a millisecond first, so with time at any step the loop ends after
// 13 turns (reads 2 and 3 at 0, then three reads at each of 1ms to 4ms,
// the last of which moves the clock on), at 5ms, in one execution. With
// time that moves when every thread is blocked, reads with nothing
// between them see one time for their first engine.PurePolls reads (as a
// short burst of them does in Go): the loop ends after 10,011 turns
// (reads 2 to 10,000 at 0, the 10,001st moves the clock, then as above).
func TestPollSpin(t *testing.T) {
	for _, mode := range timeModes {
		want := 13
		if mode == weft.TimeWhenBlocked {
			want = 10_011
		}
		turns, end := -1, time.Duration(-1)
		r, err := weft.Explore(func(w *weft.T) {
			start := w.Now()
			turns = 0
			for w.Now()-start < 5*time.Millisecond {
				turns++
			}
			end = w.Now()
		}, weft.WithTime(mode))
		if err != nil {
			t.Fatal(err)
		}
		if r.Failed() || r.Executions != 1 || turns != want || end != 5*time.Millisecond {
			t.Errorf("%v: %d executions, failures %v, %d turns, end %v; want 1, none, %d, 5ms", mode, r.Executions, r.FailureCounts, turns, end, want)
		}
	}
}

// TestPollFlag polls a flag another thread sets, for 5ms at most: the
// loads between the reads of the clock keep them polls, and the loop ends
// having seen the flag in every execution (the setter runs while the
// poller sleeps, or, with time at any step, before the clock has passed
// over it three times). optimal's counts are pinned.
func TestPollFlag(t *testing.T) {
	for _, c := range []struct {
		mode            weft.TimeMode
		executions, cut int
	}{{weft.TimeWhenBlocked, 3, 1}, {weft.TimeAnyStep, 15, 1}} {
		r, err := weft.Explore(func(w *weft.T) {
			var flag weft.Var[int]
			w.Go(func() { flag.Store(1) })
			start := w.Now()
			for w.Now()-start < 5*time.Millisecond && flag.Load() == 0 {
			}
			w.Assert(flag.Load() == 1, "gave up at %v", w.Now())
		}, weft.WithTime(c.mode), weft.KeepGoing())
		if err != nil {
			t.Fatal(err)
		}
		if r.Failed() || !r.Exhausted || r.Executions != c.executions || r.Cut != c.cut {
			t.Errorf("%v: %d executions (%d cut, exhausted %t), failures %v; want %d (%d cut), none", c.mode, r.Executions, r.Cut, r.Exhausted, r.FailureCounts, c.executions, c.cut)
		}
	}
}

// TestPollSelect polls a channel with a select's default case until a
// deadline of 5ms, as go-co-op/gocron's executor waits for its jobs on
// shutdown: the selects that took their default keep the reads of the
// clock polls, so the loop ends. If nothing is sent it ends at the
// deadline, after 13 turns (as TestPollSpin's loop with time at any
// step), in one execution. If a goroutine sends, it receives the value in
// every execution with time that moves when every thread is blocked; with
// time at any step, one execution delays the sender past the deadline, a
// real outcome (a test that assumes a goroutine runs within some time
// fails by design there). optimal's counts are pinned. The loop ran at
// one time to the step bound.
func TestPollSelect(t *testing.T) {
	for _, c := range []struct {
		send                     bool
		mode                     weft.TimeMode
		executions, cut, failing int
	}{
		{false, weft.TimeWhenBlocked, 1, 0, 0},
		{false, weft.TimeAnyStep, 1, 0, 0},
		{true, weft.TimeWhenBlocked, 3, 1, 0},
		{true, weft.TimeAnyStep, 15, 1, 1},
	} {
		turns, end, got := 0, time.Duration(-1), false
		r, err := weft.Explore(func(w *weft.T) {
			done := weft.MakeChan[bool](1)
			if c.send {
				w.Go(func() { done.Send(true) })
			}
			start := w.Now()
			turns, got = 0, false
			for w.Now()-start < 5*time.Millisecond && !got {
				turns++
				weft.Select(weft.OnRecv(done, func(bool, bool) { got = true }), weft.OnDefault(nil))
			}
			end = w.Now()
			w.Assert(got == c.send, "received %t, want %t", got, c.send)
		}, weft.WithTime(c.mode), weft.KeepGoing())
		if err != nil {
			t.Fatal(err)
		}
		if !r.Exhausted || r.Executions != c.executions || r.Cut != c.cut || r.FailureCounts[trace.Assertion] != c.failing || len(r.FailureCounts) > min(c.failing, 1) {
			t.Errorf("send %t, %v: %d executions (%d cut, exhausted %t), failures %v; want %d (%d cut), %d assertions", c.send, c.mode, r.Executions, r.Cut, r.Exhausted, r.FailureCounts, c.executions, c.cut, c.failing)
		}
		if !c.send && (turns != 13 || end != 5*time.Millisecond) {
			t.Errorf("no send, %v: %d turns, end %v; want 13, 5ms", c.mode, turns, end)
		}
	}
}

// TestPollObserves polls, until a deadline of 5ms, a mutex the body holds
// with TryLock, and a channel's length: the failed TryLocks and the lens
// change nothing, so the reads of the clock between them are polls, and
// each loop ends at the deadline after 13 turns, in one execution, in
// both time modes.
func TestPollObserves(t *testing.T) {
	for _, poll := range []string{"TryLock", "Len"} {
		for _, mode := range timeModes {
			turns, end := 0, time.Duration(-1)
			r, err := weft.Explore(func(w *weft.T) {
				var mu weft.Mutex
				ch := weft.MakeChan[int](1)
				mu.Lock()
				start := w.Now()
				turns = 0
				for w.Now()-start < 5*time.Millisecond {
					turns++
					if poll == "TryLock" && mu.TryLock() || poll == "Len" && ch.Len() > 0 {
						break
					}
				}
				end = w.Now()
				mu.Unlock()
			}, weft.WithTime(mode), weft.WithMaxSteps(1000))
			if err != nil {
				t.Fatal(err)
			}
			if r.Failed() || r.Executions != 1 || turns != 13 || end != 5*time.Millisecond {
				t.Errorf("%s, %v: %d executions, failures %v, %d turns, end %v; want 1, none, 13, 5ms", poll, mode, r.Executions, r.FailureCounts, turns, end)
			}
		}
	}
}

// TestPollWrites checks that a loop whose turns write is no poll: the
// clock never moves, and the loop runs to the step bound.
func TestPollWrites(t *testing.T) {
	for _, mode := range timeModes {
		r, err := weft.Explore(func(w *weft.T) {
			var x weft.Var[int]
			for w.Now() < time.Millisecond {
				x.Store(1)
			}
		}, weft.WithTime(mode), weft.WithMaxSteps(100))
		if err != nil {
			t.Fatal(err)
		}
		if r.Executions != 1 || r.FailureCounts[trace.Livelock] != 1 {
			t.Errorf("%v: %d executions, failures %v; want 1, a livelock", mode, r.Executions, r.FailureCounts)
		}
	}
}

// TestSlowReport runs a watchdog of a second around a quick operation:
// with time that moves when every thread is blocked it never fires; with
// time at any step it fires at the third execution, while the body could
// still receive the answer, and the report says so.
func TestSlowReport(t *testing.T) {
	body := func(w *weft.T) {
		done := weft.MakeChan[int](0)
		w.Go(func() { done.Send(2) })
		weft.Select(weft.OnRecv(done, nil), weft.OnRecv(w.After(time.Second), func(time.Duration, bool) {
			w.Fail("the operation did not finish within a second")
		}))
	}
	r, err := weft.Explore(body)
	if err != nil {
		t.Fatal(err)
	}
	if r.Failed() || !r.Exhausted {
		t.Errorf("time when blocked: failures %v (exhausted %t), want none", r.FailureCounts, r.Exhausted)
	}
	r, err = weft.Explore(body, weft.WithTime(weft.TimeAnyStep))
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Failures) != 1 {
		t.Fatalf("time at any step: failures %v, want one", r.FailureCounts)
	}
	f := r.Failures[0]
	const line = "found with time at any step: it needs a goroutine to be slower than a timer (at step 2 the clock advanced while T0 could still move)\n"
	if f.Kind != trace.Assertion || f.Execution != 3 || f.SlowStep != 2 || f.SlowThread != 0 || !strings.Contains(f.Report(""), line) {
		t.Errorf("time at any step: %v at execution %d, slow step %d of %v; want an assertion at 3, slow step 2 of T0, and the line %q in:\n%s", f.Kind, f.Execution, f.SlowStep, f.SlowThread, line, f.Report(""))
	}
}

// BenchmarkPollSpin explores a spin of 50ms on w.Now (150 reads, 50 of
// them sleeps) in each time mode: one execution per exploration.
func BenchmarkPollSpin(b *testing.B) {
	for _, mode := range timeModes {
		b.Run(mode.String(), func(b *testing.B) {
			b.ReportAllocs()
			for range b.N {
				r, err := weft.Explore(func(w *weft.T) {
					for w.Now() < 50*time.Millisecond {
					}
				}, weft.WithTime(mode), weft.NoReplayFiles())
				if err != nil || r.Failed() || r.Executions != 1 {
					b.Fatalf("explore: %v; %d executions (want 1), failures %v", err, r.Executions, r.FailureCounts)
				}
			}
		})
	}
}

// TestPollYield polls the clock in busy-wait loops that yield: a turn
// that read the clock only yields (it waits for time, not for a write of
// what it loaded), so each loop ends at 5ms, as under Go, even with a
// flag nobody sets.
func TestPollYield(t *testing.T) {
	for _, mode := range timeModes {
		end := time.Duration(-1)
		r, err := weft.Explore(func(w *weft.T) {
			var flag weft.Var[int]
			for w.Now() < 5*time.Millisecond && flag.Load() == 0 {
				w.Yield()
			}
			for w.Now() < 10*time.Millisecond {
				w.Yield()
			}
			end = w.Now()
		}, weft.WithTime(mode))
		if err != nil {
			t.Fatal(err)
		}
		if r.Failed() || r.Executions != 1 || end != 10*time.Millisecond {
			t.Errorf("%v: %d executions, failures %v, end %v; want 1, none, 10ms", mode, r.Executions, r.FailureCounts, end)
		}
	}
}
