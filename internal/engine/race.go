//go:build race

// This file marks race builds: publish orders a step's writes explicitly.

package engine

import "runtime"

const raceBuild = true

// RaceErrors returns the number of data races the race detector has
// reported in the process (0 without it).
func RaceErrors() int { return runtime.RaceErrors() }
