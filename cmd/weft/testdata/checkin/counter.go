// Package checkin has tests that weft test explores and tests that call
// weft.Check themselves.
package checkin

import "sync"

// Counter counts, safely if Safe.
type Counter struct {
	Safe bool
	mu   sync.Mutex
	n    int
}

// Inc adds one; unless Safe, it reads and writes the count in two
// critical sections, and loses an update when another Inc runs between.
func (c *Counter) Inc() {
	if c.Safe {
		c.mu.Lock()
		defer c.mu.Unlock()
		c.n++
		return
	}
	c.mu.Lock()
	n := c.n
	c.mu.Unlock()
	c.mu.Lock()
	c.n = n + 1
	c.mu.Unlock()
}

// N returns the count.
func (c *Counter) N() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n
}
