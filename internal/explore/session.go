// This file implements the session: the runtime of an exploration.

package explore

import (
	"time"

	"github.com/weft-go/weft/internal/engine"
)

// SessionConfig configures a session's runtime.
type SessionConfig struct {
	// MaxSteps bounds the steps of one execution (0: the runtime's
	// default).
	MaxSteps int
	// Watchdog is how long a goroutine may block outside weft's control
	// before the runtime reports it (0: the runtime's default).
	Watchdog time.Duration
	// Time is when virtual time may move (engine.TimeMode).
	Time engine.TimeMode
	// Timeout bounds the whole session (0: no bound): Run stops when it
	// expires, inside an execution if need be.
	Timeout time.Duration
	// Stop, if not nil, stops Run when it is closed (a context's Done),
	// inside an execution if need be.
	Stop <-chan struct{}
	// Names, if not nil, are naming tables the session's runtime shares
	// with the sessions of other workers of the same exploration.
	Names *engine.Names
	// Seed, VarySeed, Epoch and IgnoreLeak are engine.Config's.
	Seed       int64
	VarySeed   bool
	Epoch      int64
	IgnoreLeak func(function string) bool
}

// Session is the runtime of an exploration: one engine.Exec running a
// test body, shared by the runs of the exploration loop in it.
type Session struct {
	e        *engine.Exec
	run      func()
	deadline time.Time
	stop     <-chan struct{}
	// chk is the determinism check Run wraps its strategy in, reset for
	// each Run (its memory kept).
	chk *Checked
}

// NewSession starts the runtime of an exploration of body with c.
func NewSession(c SessionConfig, body func()) *Session {
	x := &Session{run: body, stop: c.Stop}
	if c.Timeout > 0 {
		x.deadline = time.Now().Add(c.Timeout)
	}
	x.e = engine.NewExec(engine.Config{MaxSteps: c.MaxSteps, Watchdog: c.Watchdog, Time: c.Time, Deadline: x.deadline, Stop: c.Stop, Names: c.Names, Seed: c.Seed, VarySeed: c.VarySeed, Epoch: c.Epoch, IgnoreLeak: c.IgnoreLeak})
	return x
}

// Bounds returns the session's deadline (zero if none) and the channel
// whose close stops it (nil if none), for the work that serves the
// exploration outside its loop (the shortening and report of a failure).
func (x *Session) Bounds() (deadline time.Time, stop <-chan struct{}) { return x.deadline, x.stop }

// Exec returns the session's runtime.
func (x *Session) Exec() *engine.Exec { return x.e }

// stopped reports whether SessionConfig.Stop is closed.
func (x *Session) stopped() bool {
	select {
	case <-x.stop:
		return true
	default:
		return false
	}
}

// Close releases the runtime.
func (x *Session) Close() { x.e.Close() }
