package corpus

import (
	"sync/atomic"
	"testing"
	"time"
)

func heartbeats(t *testing.T, start func(time.Duration, func()) func()) {
	var beats atomic.Int32
	stop := start(time.Second, func() { beats.Add(1) })
	time.Sleep(3500 * time.Millisecond)
	stop()
	// At most one beat per period: Go does not promise that the
	// goroutine runs within 3.5s, so fewer is no failure. Nor does it
	// promise that this goroutine stops the ticker soon after its sleep.
	if n := beats.Load(); n > 3 {
		t.Errorf("%d beats in 3.5s, want at most 3", n) // want -time any TestHeartbeatFixed: assertion
	}
}

func TestHeartbeatBug(t *testing.T) { heartbeats(t, HeartbeatBug) }

func TestHeartbeatFixed(t *testing.T) { heartbeats(t, Heartbeat) }
