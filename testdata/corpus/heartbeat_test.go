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
	if n := beats.Load(); n != 3 {
		t.Errorf("%d beats in 3.5s, want 3", n) // want -time any TestHeartbeatBug: assertion // want -time any TestHeartbeatFixed: assertion
	}
}

func TestHeartbeatBug(t *testing.T) { heartbeats(t, HeartbeatBug) }

func TestHeartbeatFixed(t *testing.T) { heartbeats(t, Heartbeat) }
