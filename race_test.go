//go:build race

// This file tells the tests that the race detector is on.

package weft_test

func init() { raceEnabled = true }
