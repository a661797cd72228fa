// This file implements the stand-ins of Mutex, RWMutex, WaitGroup, Once and
// Cond: weft's primitives inside an execution, the standard library's
// outside.

package sync

import (
	"sync"

	"github.com/weft-go/weft"
	"github.com/weft-go/weft/internal/shim"
)

// Locker is sync.Locker.
type Locker = sync.Locker

// Mutex is sync.Mutex backed by weft.Mutex inside an execution.
type Mutex struct {
	w     weft.Mutex
	r     sync.Mutex
	named bool // WeftName
}

// Lock locks m.
func (m *Mutex) Lock() {
	if shim.Active() {
		m.w.Lock()
		return
	}
	m.r.Lock()
}

// TryLock tries to lock m and reports whether it succeeded.
func (m *Mutex) TryLock() bool {
	if shim.Active() {
		return m.w.TryLock()
	}
	return m.r.TryLock()
}

// Unlock unlocks m.
func (m *Mutex) Unlock() {
	if shim.Active() {
		m.w.Unlock()
		return
	}
	m.r.Unlock()
}

// RWMutex is sync.RWMutex backed by weft.RWMutex inside an execution.
type RWMutex struct {
	w     weft.RWMutex
	r     sync.RWMutex
	named bool // WeftName
}

// Lock locks rw for writing.
func (rw *RWMutex) Lock() {
	if shim.Active() {
		rw.w.Lock()
		return
	}
	rw.r.Lock()
}

// Unlock unlocks rw for writing.
func (rw *RWMutex) Unlock() {
	if shim.Active() {
		rw.w.Unlock()
		return
	}
	rw.r.Unlock()
}

// RLock locks rw for reading.
func (rw *RWMutex) RLock() {
	if shim.Active() {
		rw.w.RLock()
		return
	}
	rw.r.RLock()
}

// RUnlock undoes one RLock.
func (rw *RWMutex) RUnlock() {
	if shim.Active() {
		rw.w.RUnlock()
		return
	}
	rw.r.RUnlock()
}

// TryLock tries to lock rw for writing and reports whether it succeeded.
func (rw *RWMutex) TryLock() bool {
	if shim.Active() {
		return rw.w.TryLock()
	}
	return rw.r.TryLock()
}

// TryRLock tries to lock rw for reading and reports whether it succeeded.
func (rw *RWMutex) TryRLock() bool {
	if shim.Active() {
		return rw.w.TryRLock()
	}
	return rw.r.TryRLock()
}

// RLocker returns a Locker whose Lock and Unlock call rw.RLock and
// rw.RUnlock.
func (rw *RWMutex) RLocker() Locker { return (*rlocker)(rw) }

type rlocker RWMutex

func (r *rlocker) Lock()   { (*RWMutex)(r).RLock() }
func (r *rlocker) Unlock() { (*RWMutex)(r).RUnlock() }

// WaitGroup is sync.WaitGroup backed by weft.WaitGroup inside an
// execution: a negative counter panics, which weft reports as a failure.
type WaitGroup struct {
	w     weft.WaitGroup
	r     sync.WaitGroup
	named bool // WeftName
}

// Add adds delta, which may be negative, to the counter.
func (wg *WaitGroup) Add(delta int) {
	if shim.Active() {
		wg.w.Add(delta)
		return
	}
	wg.r.Add(delta)
}

// Done decrements the counter by one.
func (wg *WaitGroup) Done() {
	if shim.Active() {
		wg.w.Done()
		return
	}
	wg.r.Done()
}

// Wait blocks until the counter is zero.
func (wg *WaitGroup) Wait() {
	if shim.Active() {
		wg.w.Wait()
		return
	}
	wg.r.Wait()
}

// Go calls f in a new goroutine (a weft thread inside an execution), adding
// it to the group.
func (wg *WaitGroup) Go(f func()) {
	if shim.Active() {
		wg.w.Go(f)
		return
	}
	wg.r.Go(f)
}

// Once performs exactly one action, backed by weft.Once inside an
// execution.
type Once struct {
	w     weft.Once
	r     sync.Once
	named bool // WeftName
}

// Do calls f if and only if Do is being called for the first time for o.
func (o *Once) Do(f func()) {
	if shim.Active() {
		o.w.Do(f)
		return
	}
	o.r.Do(f)
}

// Cond is sync.Cond backed by weft.Cond inside an execution. L is held
// while the condition is observed or changed.
type Cond struct {
	L Locker
	w weft.Cond
	r *sync.Cond // made on the first use outside an execution

	named bool // WeftName
}

// NewCond returns a Cond with Locker l.
func NewCond(l Locker) *Cond { return &Cond{L: l} }

// Wait unlocks c.L, suspends the caller until a Signal or Broadcast, and
// locks c.L again before it returns.
func (c *Cond) Wait() {
	if shim.Active() {
		c.w.L = c.L
		c.w.Wait()
		return
	}
	c.real().Wait()
}

// Signal wakes one goroutine waiting on c, if there is one.
func (c *Cond) Signal() {
	if shim.Active() {
		c.w.Signal()
		return
	}
	c.real().Signal()
}

// Broadcast wakes all goroutines waiting on c.
func (c *Cond) Broadcast() {
	if shim.Active() {
		c.w.Broadcast()
		return
	}
	c.real().Broadcast()
}

func (c *Cond) real() *sync.Cond {
	if c.r == nil {
		c.r = sync.NewCond(c.L)
	}
	return c.r
}
