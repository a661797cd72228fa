package corpus

import "sync"

// PoolBug makes its connection on first use, with double-checked locking
// done wrong: it checks under the read lock, and after taking the write
// lock it does not check again, so two first users both dial.
type PoolBug struct {
	dial func() int
	mu   sync.RWMutex
	conn int
}

// Conn returns the pool's connection.
func (p *PoolBug) Conn() int {
	p.mu.RLock()
	c := p.conn
	p.mu.RUnlock()
	if c != 0 {
		return c
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.conn = p.dial()
	return p.conn
}

// Pool dials once, whoever comes first (sync.OnceValue).
type Pool struct {
	conn func() int
}

// NewPool returns a pool that dials with dial, once.
func NewPool(dial func() int) *Pool { return &Pool{conn: sync.OnceValue(dial)} }

// Conn returns the pool's connection.
func (p *Pool) Conn() int { return p.conn() }
