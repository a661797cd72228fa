//go:build !race

// This file marks builds without the race detector (see publish).

package engine

const raceBuild = false

// RaceErrors returns the number of data races the race detector has
// reported in the process (0 without it).
func RaceErrors() int { return 0 }
