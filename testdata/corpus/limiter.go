package corpus

import (
	"sync"
	"time"
)

// LimiterBug allows one call per period: it checks the time of the last
// allowed call, unlocks, and locks again to record the new one, so two
// callers can both pass the check.
type LimiterBug struct {
	period time.Duration
	mu     sync.Mutex
	last   time.Time
}

// Allow reports whether a call may proceed now.
func (l *LimiterBug) Allow() bool {
	l.mu.Lock()
	ok := l.last.IsZero() || time.Since(l.last) >= l.period
	l.mu.Unlock()
	if !ok {
		return false
	}
	l.mu.Lock()
	l.last = time.Now()
	l.mu.Unlock()
	return true
}

// Limiter checks and records under one lock.
type Limiter struct {
	period time.Duration
	mu     sync.Mutex
	last   time.Time
}

// Allow reports whether a call may proceed now.
func (l *Limiter) Allow() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if !l.last.IsZero() && time.Since(l.last) < l.period {
		return false
	}
	l.last = time.Now()
	return true
}
