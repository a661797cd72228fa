package corpus

import (
	"sync"
	"time"
)

// DebouncerBug calls f once calls of Trigger stop for a quiet period:
// each Trigger stops the pending timer and starts another. Two Triggers at
// once both stop the same timer and both start one: f runs twice.
type DebouncerBug struct {
	quiet time.Duration
	f     func()
	timer *time.Timer
}

// Trigger restarts the quiet period.
func (d *DebouncerBug) Trigger() {
	if d.timer != nil {
		d.timer.Stop()
	}
	d.timer = time.AfterFunc(d.quiet, d.f)
}

// Debouncer stops and restarts the timer under a lock.
type Debouncer struct {
	quiet time.Duration
	f     func()
	mu    sync.Mutex
	timer *time.Timer
}

// Trigger restarts the quiet period.
func (d *Debouncer) Trigger() {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.timer != nil {
		d.timer.Stop()
	}
	d.timer = time.AfterFunc(d.quiet, d.f)
}
