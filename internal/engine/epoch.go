// This file implements the epoch of an exploration: the instant of the
// wall clock that virtual time 0 stands for in its executions.

package engine

import "sync/atomic"

// DefaultEpoch is the epoch, in Unix nanoseconds, of an exploration of a
// program that has read no wall clock outside executions: midnight UTC
// on 1 January 2000, as in testing/synctest.
const DefaultEpoch int64 = 946_684_800 * 1e9

// wallSeen is the latest instant of the wall clock, in Unix nanoseconds,
// that code outside any execution has read (SawWallClock), or 0.
var wallSeen atomic.Int64

// SawWallClock notes that code outside any execution read the wall clock
// and got instant t, in Unix nanoseconds: the time a test function read
// before it explores a subtest, or a package's var start = time.Now().
func SawWallClock(t int64) {
	for {
		seen := wallSeen.Load()
		if t <= seen || wallSeen.CompareAndSwap(seen, t) {
			return
		}
	}
}

// NextEpoch returns the epoch of an exploration that starts now: the
// latest instant of the wall clock read outside executions
// (SawWallClock), or DefaultEpoch if none was read or it was earlier.
// Go's clock does not go back: a time the program read before the
// exploration, kept in a value its executions use (a deadline, an
// expiry), lies at or before every time they read. Each of the
// exploration's executions starts at the same epoch, which Config.Epoch
// carries to every Exec that runs them, so they stay repeatable; an
// exploration of a program that reads no wall clock outside starts at
// DefaultEpoch, in every process.
func NextEpoch() int64 { return max(DefaultEpoch, wallSeen.Load()) }

// Epoch returns the epoch of e's executions, in Unix nanoseconds
// (Config.Epoch).
func (e *Exec) Epoch() int64 {
	if e.cfg.Epoch == 0 {
		return DefaultEpoch
	}
	return e.cfg.Epoch
}
