package corpus

import "sync/atomic"

// GaugeBug counts requests in flight with atomic adds, but resets the
// count with a plain store: the store races with the adds.
type GaugeBug struct{ n int64 }

// Begin counts a request in.
func (g *GaugeBug) Begin() { atomic.AddInt64(&g.n, 1) }

// Reset sets the count to zero.
func (g *GaugeBug) Reset() {
	g.n = 0 // want -race TestGaugeBug: data race
}

// Gauge counts requests in flight with atomic adds and resets the count
// with an atomic store.
type Gauge struct{ n int64 }

// Begin counts a request in.
func (g *Gauge) Begin() { atomic.AddInt64(&g.n, 1) }

// Reset sets the count to zero.
func (g *Gauge) Reset() { atomic.StoreInt64(&g.n, 0) }
