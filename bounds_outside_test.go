// Tests that the timeout and the context stop an exploration within a
// second while a thread runs outside weft's control, where no scheduling
// point looks at them.

package weft_test

import (
	"context"
	"errors"
	"os"
	"sync/atomic"
	"testing"
	"time"

	"github.com/weft-go/weft"
)

// TestWatchdogBoundOutsideWeft bounds explorations to half a second whose
// test body, once a thread has been started, spins in a loop of its own,
// blocks in a read of a pipe nobody writes, or takes steps a twentieth of
// a second apart (a real sleep between them): the first two reach no
// scheduling point, the last one reaches one only every 256 steps' check
// of the clock would see too late. Each exploration returns within two
// seconds, stopped by the bound, with the execution it interrupted
// counted for nothing, not as a failure: before, the loop ran its three
// seconds and its execution counted, the read was reported as blocked
// outside weft's control after the watchdog's ten seconds, and the slow
// steps ran their two seconds.
func TestWatchdogBoundOutsideWeft(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	// Closing the writer ends the reads left blocked, whose threads then
	// unwind at their next weft operation.
	t.Cleanup(func() { w.Close(); r.Close() })
	// quit ends a spinning loop left to itself once its subtest is over.
	bodies := []struct {
		name string
		run  func(quit *atomic.Bool)
	}{
		{"spin", func(quit *atomic.Bool) {
			for start := time.Now(); time.Since(start) < 3*time.Second && !quit.Load(); {
			}
		}},
		{"read", func(*atomic.Bool) {
			var b [1]byte
			r.Read(b[:])
		}},
	}
	for _, b := range bodies {
		for _, bound := range []string{"timeout", "context"} {
			t.Run(b.name+"/"+bound, func(t *testing.T) {
				quit := new(atomic.Bool)
				t.Cleanup(func() { quit.Store(true) })
				body := func(wt *weft.T) {
					x := weft.NewVar[int]("x")
					wt.Go(func() { x.Store(1) })
					b.run(quit)
					x.Load()
				}
				opts := []weft.Option{weft.NoReplayFiles()}
				if bound == "timeout" {
					opts = append(opts, weft.WithTimeout(500*time.Millisecond))
				} else {
					ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
					defer cancel()
					opts = append(opts, weft.WithContext(ctx))
				}
				start, cpu := time.Now(), cpuTime()
				res, err := weft.Explore(body, opts...)
				checkReturn(t, start, cpu)
				if bound == "timeout" {
					if !errors.Is(err, weft.ErrNoExecution) {
						t.Fatalf("Explore: %v, %+v; want ErrNoExecution (the timeout interrupted the only execution)", err, res)
					}
					return
				}
				if err != nil {
					t.Fatal(err)
				}
				if res.Executions != 0 || !res.Canceled || len(res.Failures) != 0 {
					t.Errorf("executions %d, canceled %v, failures %d; want 0, true and none", res.Executions, res.Canceled, len(res.Failures))
				}
			})
		}
	}
	t.Run("slow steps", func(t *testing.T) {
		body := func(wt *weft.T) {
			x := weft.NewVar[int]("x")
			wt.Go(func() { x.Store(1) })
			for range 40 {
				time.Sleep(50 * time.Millisecond)
				x.Load()
			}
		}
		start, cpu := time.Now(), cpuTime()
		_, err := weft.Explore(body, weft.WithTimeout(500*time.Millisecond), weft.NoReplayFiles())
		checkReturn(t, start, cpu)
		if !errors.Is(err, weft.ErrNoExecution) {
			t.Fatalf("Explore: %v; want ErrNoExecution (the timeout interrupted the only execution)", err)
		}
	})
}
