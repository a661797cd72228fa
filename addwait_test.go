// This file tests the check of sync.WaitGroup's rule that an Add from a
// counter of zero happens before Wait.

package weft_test

import (
	"strings"
	"testing"

	"github.com/weft-go/weft"
	"github.com/weft-go/weft/trace"
)

// TestAddConcurrentWithWait explores, with KeepGoing, bodies whose
// WaitGroup's Adds from zero are or are not ordered before its Waits:
// each misuse is reported in every execution where the two are unordered
// (with Go's message and both steps), and only there; the correct uses
// (an Add before the go statement, a reuse after Wait, an Add ordered by
// a channel, Adds from a counter above zero) pass.
func TestAddConcurrentWithWait(t *testing.T) {
	for _, c := range []struct {
		name        string
		body        func(w *weft.T)
		executions  int
		misuses     int
		message     string // a part of the first misuse's message
		otherFailed int
	}{
		{"add in the goroutine", func(w *weft.T) {
			var wg weft.WaitGroup
			w.Go(func() {
				wg.Add(1)
				wg.Done()
			})
			wg.Wait()
		}, 2, 2, "T1's Add(1) at step 2, from a counter of 0, is ordered by no synchronisation but the WaitGroup's own with T0's Wait at step 1, which ran before it", 0},
		{"add before go", func(w *weft.T) {
			var wg weft.WaitGroup
			wg.Add(1)
			w.Go(wg.Done)
			wg.Wait()
		}, 1, 0, "", 0},
		{"reuse after wait", func(w *weft.T) {
			var wg weft.WaitGroup
			for range 2 {
				wg.Add(1)
				w.Go(wg.Done)
				wg.Wait()
			}
		}, 1, 0, "", 0},
		{"add ordered by a channel", func(w *weft.T) {
			var wg weft.WaitGroup
			ready := weft.MakeChan[bool](0)
			w.Go(func() {
				wg.Add(1)
				ready.Send(true)
				wg.Done()
			})
			ready.Recv()
			wg.Wait()
		}, 1, 0, "", 0},
		{"adds above zero in goroutines", func(w *weft.T) {
			var wg weft.WaitGroup
			wg.Add(1)
			w.Go(func() {
				wg.Add(1)
				w.Go(wg.Done)
				wg.Done()
			})
			wg.Wait()
		}, 2, 0, "", 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			r, err := weft.Explore(c.body, weft.KeepGoing())
			if err != nil {
				t.Fatal(err)
			}
			failed := 0
			for _, n := range r.FailureCounts {
				failed += n
			}
			got := r.FailureCounts[trace.WaitGroupMisuse]
			if r.Executions != c.executions || got != c.misuses || failed-got != c.otherFailed {
				t.Errorf("%d executions, %d misuses, %d other failures; want %d, %d, %d: %v", r.Executions, got, failed-got, c.executions, c.misuses, c.otherFailed, r.FailureCounts)
			}
			if c.misuses > 0 {
				if f := r.Failures[0]; f.Kind != trace.WaitGroupMisuse || !strings.Contains(f.Message, "sync: WaitGroup misuse: Add called concurrently with Wait: ") || !strings.Contains(f.Message, c.message) {
					t.Errorf("failure %v: %q, want a WaitGroup misuse saying %q", f.Kind, f.Message, c.message)
				}
			}
		})
	}
}
