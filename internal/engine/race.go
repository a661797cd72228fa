//go:build race

// This file marks race builds: publish orders a step's writes explicitly.

package engine

const raceBuild = true
