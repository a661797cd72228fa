// This file implements the bounds of an exploration (its timeout and its
// context) as the work outside the exploration loop honours them: the
// shortening and the report of a failure.

package explore

import (
	"time"

	"github.com/weft-go/weft/internal/engine"
)

// bounds are an exploration's deadline (zero if none) and the channel
// whose close stops it (nil if none).
type bounds struct {
	deadline time.Time
	stop     <-chan struct{}
}

// passed reports whether the deadline has passed or the channel is closed.
func (b bounds) passed() bool {
	if !b.deadline.IsZero() && !time.Now().Before(b.deadline) {
		return true
	}
	select {
	case <-b.stop:
		return true
	default:
		return false
	}
}

// exec returns a runtime for the executions of c's body that serve a
// failure's report, interrupted by b as the exploration's are.
func (b bounds) exec(c *Config) *engine.Exec {
	return engine.NewExec(engine.Config{MaxSteps: c.MaxSteps, Watchdog: c.Watchdog, Time: c.Time, Deadline: b.deadline, Stop: b.stop, Seed: c.Seed, Epoch: c.Epoch, IgnoreLeak: c.ignoreLeak()})
}
