// This file implements the time modes of an exploration (WithTime): when
// virtual time may move.

package weft

import (
	"fmt"

	"github.com/weft-go/weft/internal/engine"
	"github.com/weft-go/weft/internal/explore"
)

// TimeMode is when virtual time may move in the executions of an
// exploration (WithTime).
type TimeMode uint8

// The time modes.
const (
	// TimeWhenBlocked moves virtual time only when no thread can move,
	// to the earliest deadline of a sleep or a timer, as
	// testing/synctest does: a timer fires only when nothing else can
	// happen first. It is the default of Check and Explore.
	TimeWhenBlocked = TimeMode(engine.TimeWhenBlocked)
	// TimeAnyStep makes advancing virtual time a step of weft's own
	// clock thread, which the strategy may choose at any scheduling
	// point where a deadline lies ahead: a timeout may fire, and a
	// sleeper wake, before a worker that could still send. Reading the
	// time (w.Now, time.Now in weft test) is then a step too. A failure
	// whose clock advanced while another thread could still move says
	// so in its report (Failure.SlowStep).
	TimeAnyStep = TimeMode(engine.TimeAnyStep)
)

// String returns the mode's name on the command line: "blocked" or "any".
func (m TimeMode) String() string { return engine.TimeMode(m).String() }

// ParseTimeMode returns the mode named s: "any" or "blocked".
func ParseTimeMode(s string) (TimeMode, error) {
	switch s {
	case "any":
		return TimeAnyStep, nil
	case "blocked":
		return TimeWhenBlocked, nil
	}
	return 0, fmt.Errorf("time mode %q: want any (time may move at any step) or blocked (only when every thread is blocked)", s)
}

// ErrTimeMode is wrapped by the error of an exploration whose strategy
// does not explore the time mode asked for (WithTime).
var ErrTimeMode = explore.ErrTimeMode

// WithTime chooses when virtual time may move (TimeWhenBlocked, the
// default, or TimeAnyStep). unfold, con2 and reach explore
// TimeWhenBlocked only, and refuse TimeAnyStep with an error wrapping
// ErrTimeMode.
func WithTime(m TimeMode) Option {
	return func(c *config) error {
		if m != TimeWhenBlocked && m != TimeAnyStep {
			return fmt.Errorf("time mode %d: want TimeWhenBlocked or TimeAnyStep", m)
		}
		c.time = engine.TimeMode(m)
		return nil
	}
}
