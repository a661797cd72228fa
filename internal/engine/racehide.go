//go:build race && weftrace

// This file holds the race detector's functions through which racesync.go
// hides weft's own hand-offs from it and tells it of the program's
// synchronisation, in the builds of weft test -race (the build tag
// weftrace, with weft's own packages not instrumented).

package engine

import (
	"runtime"
	"unsafe"
)

// RaceHide reports whether racesync.go's hiding is built in.
const RaceHide = true

func raceDisable()                      { runtime.RaceDisable() }
func raceEnable()                       { runtime.RaceEnable() }
func raceAcquire(p unsafe.Pointer)      { runtime.RaceAcquire(p) }
func raceRelease(p unsafe.Pointer)      { runtime.RaceRelease(p) }
func raceReleaseMerge(p unsafe.Pointer) { runtime.RaceReleaseMerge(p) }
