// This file implements Mutex and WaitGroup.

package weft

import (
	"github.com/weft-go/weft/internal/engine"
	"github.com/weft-go/weft/trace"
)

// Mutex is a mutual exclusion lock with sync.Mutex's semantics: not
// reentrant (locking it twice from one thread deadlocks), and unlocking an
// unlocked Mutex is a fatal error, reported as a failure. The zero value is
// an unlocked mutex.
type Mutex struct {
	o engine.Obj
}

// NewMutex returns a mutex with a name for reports. Made in the test body,
// it is named after the thread that made it, as NewVar's variables are:
// the same object in every execution whichever thread locks it first,
// where a zero Mutex made there is named by the threads that touch it and
// can have two names until an execution shows them one (which con2 does
// not handle).
func NewMutex(name string) *Mutex {
	m := &Mutex{}
	m.o.SetName(name)
	engine.Create(&m.o)
	return m
}

// Lock locks m, blocking while another thread holds it.
func (m *Mutex) Lock() { cur().Lock(&m.o, trace.ClassMutex) }

// TryLock locks m if it is unlocked and reports whether it did.
func (m *Mutex) TryLock() bool { return cur().TryLock(&m.o) }

// Unlock unlocks m.
func (m *Mutex) Unlock() { cur().Unlock(&m.o, trace.ClassMutex) }

// SetName names m in reports.
func (m *Mutex) SetName(name string) { m.o.SetName(name) }

// WaitGroup waits for a collection of threads to finish, with
// sync.WaitGroup's semantics: a negative counter panics. The zero value is
// ready to use.
type WaitGroup struct {
	o engine.Obj
}

// Add adds delta, which may be negative, to the counter.
func (wg *WaitGroup) Add(delta int) { cur().WaitGroupAdd(&wg.o, delta) }

// Done decrements the counter by one.
func (wg *WaitGroup) Done() { cur().WaitGroupAdd(&wg.o, -1) }

// Wait blocks until the counter is zero.
func (wg *WaitGroup) Wait() { cur().WaitGroupWait(&wg.o) }

// SetName names wg in reports.
func (wg *WaitGroup) SetName(name string) { wg.o.SetName(name) }

// Go calls f in a new thread, adding it to the group, as
// sync.WaitGroup.Go does.
func (wg *WaitGroup) Go(f func()) {
	wg.Add(1)
	Go(func() {
		defer wg.Done()
		f()
	})
}
