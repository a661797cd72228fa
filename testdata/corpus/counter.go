package corpus

import "sync/atomic"

// HitsBug counts hits with an atomic load and an atomic store: two hits
// at once count one.
type HitsBug struct{ n int64 }

// Hit counts a hit.
func (h *HitsBug) Hit() {
	n := atomic.LoadInt64(&h.n)
	atomic.StoreInt64(&h.n, n+1)
}

// Hits counts hits with an atomic add.
type Hits struct{ n int64 }

// Hit counts a hit.
func (h *Hits) Hit() { atomic.AddInt64(&h.n, 1) }
