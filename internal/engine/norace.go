//go:build !race

// This file marks builds without the race detector (see publish).

package engine

const raceBuild = false
