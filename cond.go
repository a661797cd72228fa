// This file implements Cond, a condition variable with sync.Cond's
// semantics.

package weft

import "github.com/weft-go/weft/internal/engine"

// Locker is an object that can be locked and unlocked, like sync.Locker:
// *Mutex, *RWMutex, or RWMutex.RLocker().
type Locker interface {
	Lock()
	Unlock()
}

// Cond is a condition variable with sync.Cond's semantics: Wait unlocks L,
// waits for a Signal or Broadcast and locks L again; Signal wakes the waiter
// that has waited longest; neither Signal nor Broadcast needs L held. A Wait
// without L held is a fatal error (unlock of unlocked mutex). Set L before
// use, or make one with NewCond; the zero value with L set is ready to use.
//
// With a *Mutex as L, Wait is one step (unlock and enqueue) and the wake-up
// one more (relock once signalled); internal/engine/cond.go states the model.
type Cond struct {
	L Locker
	o engine.Obj
}

// NewCond returns a Cond with Locker l.
func NewCond(l Locker) *Cond {
	c := &Cond{L: l}
	engine.Create(&c.o)
	return c
}

// Wait unlocks c.L, waits until signalled and locks c.L again before
// returning. As with sync.Cond, the condition must be checked in a loop.
func (c *Cond) Wait() {
	t := cur()
	switch l := c.L.(type) {
	case nil:
		panic("weft: Cond.Wait with a nil Locker: set L or use NewCond")
	case *Mutex:
		t.CondWait(&c.o, &l.o)
	default:
		t.CondEnqueue(&c.o)
		l.Unlock()
		t.CondAwait(&c.o)
		l.Lock()
	}
}

// Signal wakes the thread that has waited longest on c, if any.
func (c *Cond) Signal() { cur().CondSignal(&c.o) }

// Broadcast wakes every thread waiting on c.
func (c *Cond) Broadcast() { cur().CondBroadcast(&c.o) }

// SetName names c in reports.
func (c *Cond) SetName(name string) { c.o.SetName(name) }
