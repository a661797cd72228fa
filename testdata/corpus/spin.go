package corpus

import (
	"runtime"
	"sync/atomic"
)

// SpinLockBug waits, yielding, until the lock looks free, then takes it:
// two goroutines that both saw it free both take it.
type SpinLockBug struct{ held atomic.Bool }

// Lock locks l.
func (l *SpinLockBug) Lock() {
	for l.held.Load() {
		runtime.Gosched()
	}
	l.held.Store(true)
}

// Unlock unlocks l.
func (l *SpinLockBug) Unlock() { l.held.Store(false) }

// SpinLock takes the lock in the step that sees it free.
type SpinLock struct{ held atomic.Bool }

// Lock locks l.
func (l *SpinLock) Lock() {
	for !l.held.CompareAndSwap(false, true) {
		runtime.Gosched()
	}
}

// Unlock unlocks l.
func (l *SpinLock) Unlock() { l.held.Store(false) }
