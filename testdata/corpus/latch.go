package corpus

import "sync"

// LatchBug releases its waiters when Release is called, but wakes only
// one of them.
type LatchBug struct {
	mu   sync.Mutex
	cond *sync.Cond
	open bool
}

// NewLatchBug returns a closed latch.
func NewLatchBug() *LatchBug {
	l := &LatchBug{}
	l.cond = sync.NewCond(&l.mu)
	return l
}

// Await blocks until the latch is released.
func (l *LatchBug) Await() {
	l.mu.Lock()
	defer l.mu.Unlock()
	for !l.open {
		l.cond.Wait() // want TestLatchBug: deadlock
	}
}

// Release opens the latch.
func (l *LatchBug) Release() {
	l.mu.Lock()
	l.open = true
	l.cond.Signal()
	l.mu.Unlock()
}

// Latch wakes all its waiters.
type Latch struct {
	mu   sync.Mutex
	cond *sync.Cond
	open bool
}

// NewLatch returns a closed latch.
func NewLatch() *Latch {
	l := &Latch{}
	l.cond = sync.NewCond(&l.mu)
	return l
}

// Await blocks until the latch is released.
func (l *Latch) Await() {
	l.mu.Lock()
	defer l.mu.Unlock()
	for !l.open {
		l.cond.Wait()
	}
}

// Release opens the latch.
func (l *Latch) Release() {
	l.mu.Lock()
	l.open = true
	l.cond.Broadcast()
	l.mu.Unlock()
}
