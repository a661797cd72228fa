package corpus

import (
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

func limit(t *testing.T, allow func() bool) {
	var allowed atomic.Int32
	var wg sync.WaitGroup
	for range 2 {
		wg.Go(func() {
			if allow() {
				allowed.Add(1)
			}
		})
	}
	wg.Wait()
	if n := allowed.Load(); n != 1 {
		t.Errorf("%d calls allowed in one period, want 1", n) // want TestLimiterBug: assertion
	}
	time.Sleep(time.Second)
	if !allow() {
		t.Error("no call allowed a period later")
	}
}

func TestLimiterBug(t *testing.T) { limit(t, (&LimiterBug{period: time.Second}).Allow) }

func TestLimiterFixed(t *testing.T) { limit(t, (&Limiter{period: time.Second}).Allow) }
