package corpus

import (
	"sync"
	"sync/atomic"
)

// GateBug opens once Open is called; Open sets its atomic flag and signals
// without holding the lock, so a waiter between its check and its Wait
// misses the signal.
type GateBug struct {
	mu    sync.Mutex
	cond  *sync.Cond
	ready atomic.Bool
}

// NewGateBug returns a closed gate.
func NewGateBug() *GateBug {
	g := &GateBug{}
	g.cond = sync.NewCond(&g.mu)
	return g
}

// Wait blocks until the gate is open.
func (g *GateBug) Wait() {
	g.mu.Lock()
	if !g.ready.Load() {
		g.cond.Wait() // want TestGateBug: deadlock
	}
	g.mu.Unlock()
}

// Open opens the gate.
func (g *GateBug) Open() {
	g.ready.Store(true)
	g.cond.Signal()
}

// Gate signals under the lock, and its waiters wait in a loop.
type Gate struct {
	mu    sync.Mutex
	cond  *sync.Cond
	ready bool
}

// NewGate returns a closed gate.
func NewGate() *Gate {
	g := &Gate{}
	g.cond = sync.NewCond(&g.mu)
	return g
}

// Wait blocks until the gate is open.
func (g *Gate) Wait() {
	g.mu.Lock()
	for !g.ready {
		g.cond.Wait()
	}
	g.mu.Unlock()
}

// Open opens the gate.
func (g *Gate) Open() {
	g.mu.Lock()
	g.ready = true
	g.cond.Signal()
	g.mu.Unlock()
}
