// Tests of the watchdog's early report of a thread whose goroutine is
// parked in the Go runtime.

package weft_test

import (
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/weft-go/weft"
	"github.com/weft-go/weft/trace"
)

// TestParkedReportedEarly: a thread that blocks on a real sync.Mutex or a
// real channel is parked in the Go runtime; the watchdog reports it after
// about a second without progress, naming the goroutine's state, instead
// of waiting for its whole delay (an hour here). The three explorations
// run at the same time.
func TestParkedReportedEarly(t *testing.T) {
	if testing.Short() {
		t.Skip("waits a second per case")
	}
	var real sync.Mutex
	real.Lock()
	never := make(chan int)
	// The blocked goroutines return once the test is over: from threads of
	// abandoned executions, which must not disturb anything.
	t.Cleanup(func() { real.Unlock(); close(never) })
	for _, tc := range []struct {
		name, state string
		block       func()
	}{
		{"mutex", "[sync.Mutex.Lock]", func() { real.Lock() }},
		{"channel", "[chan receive]", func() { <-never }},
		{"sleep", "[sleep]", func() { time.Sleep(3 * time.Second) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel() // explorations run at the same time
			r, err := weft.Explore(func(w *weft.T) {
				var x weft.Var[int]
				x.Store(1)
				tc.block()
			}, weft.WithWatchdog(time.Hour), weft.NoReplayFiles())
			if err != nil || len(r.Failures) != 1 || r.Failures[0].Kind != trace.Blocked {
				t.Fatalf("Explore: %v, failures %v; want one %v", err, r.FailureCounts, trace.Blocked)
			}
			if msg := r.Failures[0].Message; !strings.Contains(msg, "waited in the Go runtime "+tc.state) {
				t.Errorf("message does not name the state %s:\n%s", tc.state, msg)
			}
		})
	}
}
