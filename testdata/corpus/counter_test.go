package corpus

import (
	"sync"
	"sync/atomic"
	"testing"
)

func TestHitsBug(t *testing.T) {
	var h HitsBug
	var wg sync.WaitGroup
	for range 2 {
		wg.Go(h.Hit)
	}
	wg.Wait()
	if n := atomic.LoadInt64(&h.n); n != 2 {
		t.Fatalf("%d hits, want 2", n) // want TestHitsBug: assertion
	}
}

func TestHitsFixed(t *testing.T) {
	var h Hits
	var wg sync.WaitGroup
	for range 2 {
		wg.Go(h.Hit)
	}
	wg.Wait()
	if n := atomic.LoadInt64(&h.n); n != 2 {
		t.Fatalf("%d hits, want 2", n)
	}
}
