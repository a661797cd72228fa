//go:build !race || !weftrace

// This file stands for racehide.go in the other builds (go test -race of
// weft itself among them, where weft's hand-offs order its own state):
// its functions do nothing.

package engine

import "unsafe"

// RaceHide reports whether racesync.go's hiding is built in.
const RaceHide = false

func raceDisable()                    {}
func raceEnable()                     {}
func raceAcquire(unsafe.Pointer)      {}
func raceRelease(unsafe.Pointer)      {}
func raceReleaseMerge(unsafe.Pointer) {}
