package corpus

import (
	"sync"
	"sync/atomic"
)

// LeaseBug runs its release once, it means to: two goroutines that
// release the lease at once may both find it held and both run it.
type LeaseBug struct {
	released atomic.Bool
	release  func()
}

// Release runs the release unless it ran.
func (l *LeaseBug) Release() {
	if !l.released.Load() {
		l.released.Store(true)
		l.release()
	}
}

// Lease runs its release through sync.OnceFunc.
type Lease struct {
	Release func()
}

// NewLease returns a lease that runs release once.
func NewLease(release func()) *Lease {
	return &Lease{Release: sync.OnceFunc(release)}
}
