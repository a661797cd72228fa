//go:build race

// This file records that the race detector, which inflates RSS, is on.

package z3_test

func init() { raceEnabled = true }
