package time_test

import (
	"testing"
	"time"

	"github.com/weft-go/weft"
	"github.com/weft-go/weft/internal/long"
	"github.com/weft-go/weft/internal/stdtest"
	"github.com/weft-go/weft/std/rt"
	wsync "github.com/weft-go/weft/std/sync"
	wtime "github.com/weft-go/weft/std/time"
)

// tickerLock is a keeper goroutine that counts the additions it receives
// and, at each tick of a 1ns ticker, takes the producers' mutex if it
// counted some; n producers each send an addition on a channel with
// room for one. If a producer sends while it holds the mutex (bug), a
// producer can block on the full channel holding it while the keeper,
// after a tick, waits for it: a deadlock. Without the bug, no failure.
func tickerLock(bug bool, n int) func() {
	return func() {
		var mu wsync.Mutex
		add := rt.Of("", rt.MakeChan(make(chan struct{}, 1)))
		stop := rt.Of("", rt.MakeChan(make(chan struct{})))
		done := rt.Of("", rt.MakeChan(make(chan struct{})))
		rt.Go(func() {
			tk := wtime.NewTicker(time.Nanosecond)
			defer tk.Stop()
			n := 0
			for {
				switch rt.Select(false, add.RecvCase(), rt.OfRecv("", tk.C).RecvCase(), stop.RecvCase()) {
				case 0:
					n++
				case 1:
					if n > 0 {
						mu.Lock()
						mu.Unlock()
					}
				case 2:
					done.Close()
					return
				}
			}
		})
		var wg wsync.WaitGroup
		for range n {
			wg.Add(1)
			rt.Go(func() {
				defer wg.Done()
				mu.Lock()
				if bug {
					add.Send(struct{}{})
					mu.Unlock()
					return
				}
				mu.Unlock()
				add.Send(struct{}{})
			})
		}
		wg.Wait()
		stop.Close()
		done.Recv()
	}
}

// TestTickerLockFairness checks, with time at any step, that every
// strategy of the DPOR family that has sleep sets, and optimal, finds the
// deadlock of tickerLock and reports no livelock: before the fairness rule,
// optimal explored the keeper's tick loop, with the producers asleep,
// to the step bound. Without the bug, optimal explores the whole (finite,
// under the rule) space with no failure.
func TestTickerLockFairness(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		strategy   string
		executions int
	}{
		{"optimal", 96_167}, {"dpor+sleep", 101_732}, {"dpor-cr+sleep", 101_732}, {"dpor-2", 101_765},
		{"flip+sleep", 109_368}, {"random", 0}, {"pct", 0},
	} {
		t.Run(c.strategy, func(t *testing.T) {
			if c.executions > 0 {
				long.Skip(t, "20 to 60 s")
			}
			opts := []weft.Option{weft.WithStrategy(c.strategy), weft.WithTime(weft.TimeAnyStep), weft.WithMaxRuns(1_000_000)}
			if c.executions == 0 {
				opts = append(opts, weft.WithSeed(1)) // random and pct
			}
			r := stdtest.Explore(t, tickerLock(true, 3), opts...)
			if !r.Failed() || r.Failures[0].Kind.String() != "deadlock" {
				t.Fatalf("%d executions, failures %v; want a deadlock", r.Executions, r.Failures)
			}
			if c.executions != 0 && r.Executions != c.executions {
				t.Errorf("deadlock at execution %d; want %d", r.Executions, c.executions)
			}
		})
	}
}

// TestTickerLockFixed checks that optimal, with time at any step, explores
// tickerLock without the bug, with one producer, to the end and finds no
// failure: the ticks make infinitely many executions, which the fairness
// rule makes finitely many fair ones (two producers make more than a
// million).
func TestTickerLockFixed(t *testing.T) {
	t.Parallel()
	r := stdtest.Explore(t, tickerLock(false, 1), weft.WithTime(weft.TimeAnyStep), weft.WithMaxRuns(1_000_000))
	if r.Failed() || !r.Exhausted || r.Executions != 22_033 || r.Cut != 565 {
		t.Errorf("%d executions (%d cut), exhausted %v, failures %v; want 22033 (565 cut), exhausted, none",
			r.Executions, r.Cut, r.Exhausted, r.Failures)
	}
}
