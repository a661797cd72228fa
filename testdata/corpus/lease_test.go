package corpus

import (
	"sync"
	"sync/atomic"
	"testing"
)

func lease(t *testing.T, newRelease func(func()) func()) {
	var n atomic.Int32
	release := newRelease(func() { n.Add(1) })
	var wg sync.WaitGroup
	for range 2 {
		wg.Go(release)
	}
	wg.Wait()
	if got := n.Load(); got != 1 {
		t.Errorf("released %d times", got) // want TestLeaseBug: assertion
	}
}

func TestLeaseBug(t *testing.T) {
	lease(t, func(f func()) func() { return (&LeaseBug{release: f}).Release })
}

func TestLeaseFixed(t *testing.T) {
	lease(t, func(f func()) func() { return NewLease(f).Release })
}
