package corpus

import (
	"sync"
	"sync/atomic"
	"testing"
)

func dialOnce(t *testing.T, pool func(dial func() int) func() int) {
	var dials atomic.Int32
	conn := pool(func() int { return int(dials.Add(1)) })
	var wg sync.WaitGroup
	wg.Go(func() { conn() })
	wg.Go(func() { conn() })
	wg.Wait()
	if n := dials.Load(); n != 1 {
		t.Errorf("%d dials, want 1", n) // want TestPoolBug: assertion
	}
}

func TestPoolBug(t *testing.T) {
	dialOnce(t, func(dial func() int) func() int { return (&PoolBug{dial: dial}).Conn })
}

func TestPoolFixed(t *testing.T) {
	dialOnce(t, func(dial func() int) func() int { return NewPool(dial).Conn })
}
