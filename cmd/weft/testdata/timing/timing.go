// Package timing holds ordinary Go tests of timeouts and of loops that poll
// the clock, which weft test must run as Go does by default (cmd/weft's
// TestTestTime).
package timing

import (
	"errors"
	"time"
)

// ErrTimeout is Fetch's error when the work takes longer than its timeout.
var ErrTimeout = errors.New("timed out")

// Fetch does 10ms of work in a goroutine and gives up after timeout.
func Fetch(timeout time.Duration) (string, error) {
	result := make(chan string, 1)
	go func() {
		time.Sleep(10 * time.Millisecond)
		result <- "done"
	}()
	select {
	case v := <-result:
		return v, nil
	case <-time.After(timeout):
		return "", ErrTimeout
	}
}

// WaitUntil polls cond until it holds or timeout has passed on the clock.
func WaitUntil(cond func() bool, timeout time.Duration) bool {
	start := time.Now()
	for time.Since(start) < timeout {
		if cond() {
			return true
		}
	}
	return cond()
}
