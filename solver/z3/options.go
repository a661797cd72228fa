// This file implements the options of New.

package z3

import "time"

// DefaultTimeout is the per-call time limit used unless WithTimeout is given.
const DefaultTimeout = 10 * time.Second

// Option configures New.
type Option func(*config)

type config struct {
	timeout time.Duration
}

// WithTimeout sets the per-call time limit (rounded to whole milliseconds,
// at least 1ms). A context deadline that is sooner takes precedence.
func WithTimeout(d time.Duration) Option {
	return func(c *config) { c.timeout = d }
}
