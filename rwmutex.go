// This file implements RWMutex, a reader/writer mutex with sync.RWMutex's
// semantics.

package weft

import "github.com/weft-go/weft/internal/engine"

// RWMutex is a reader/writer mutual exclusion lock with sync.RWMutex's
// semantics: any number of readers or one writer; a writer waiting for the
// readers to leave blocks new readers, so a thread that read-locks twice while
// a writer waits deadlocks, as in Go; RUnlock or Unlock of an RWMutex not
// locked that way is a fatal error, reported as a failure. The zero value is
// an unlocked RWMutex.
//
// A writer's Lock takes one step when no reader is active, and two when
// readers are active: it announces itself, then takes the lock when the last
// reader leaves (internal/engine/rwmutex.go states the model).
type RWMutex struct {
	o engine.Obj
}

// Lock locks rw for writing.
func (rw *RWMutex) Lock() { cur().RWLock(&rw.o) }

// Unlock unlocks rw for writing.
func (rw *RWMutex) Unlock() { cur().RWUnlock(&rw.o) }

// RLock locks rw for reading.
func (rw *RWMutex) RLock() { cur().RLock(&rw.o) }

// RUnlock undoes one RLock.
func (rw *RWMutex) RUnlock() { cur().RUnlock(&rw.o) }

// TryLock locks rw for writing if it is free and no writer waits, and reports
// whether it did.
func (rw *RWMutex) TryLock() bool { return cur().RWTryLock(&rw.o) }

// TryRLock locks rw for reading if no writer holds it or waits, and reports
// whether it did.
func (rw *RWMutex) TryRLock() bool { return cur().TryRLock(&rw.o) }

// RLocker returns a Locker whose Lock and Unlock call rw.RLock and
// rw.RUnlock.
func (rw *RWMutex) RLocker() Locker { return (*rlocker)(rw) }

// SetName names rw in reports.
func (rw *RWMutex) SetName(name string) { rw.o.SetName(name) }

type rlocker RWMutex

func (r *rlocker) Lock()   { (*RWMutex)(r).RLock() }
func (r *rlocker) Unlock() { (*RWMutex)(r).RUnlock() }
