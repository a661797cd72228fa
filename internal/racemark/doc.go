// Package racemark writes the number of one of weft's threads into the
// stack at which Go's race detector sees its goroutine created, so that
// weft test -race can name, in the detector's reports, the goroutines
// that are weft's threads.
//
// The detector names a goroutine by a number of its own, which is not the
// goroutine's id (runtime.Stack's) and which no API gives; but a report
// prints, for each goroutine it names, the stack at which the goroutine was
// created ("Goroutine 9 (running) created at:"). Weft's engine creates the
// goroutine of thread Tn (its coroutine, which runs Tn in every execution
// of its Exec) inside Thread(n, ...), whose frames spell n in decimal,
// one function per digit (D0 to D9) below Thread's:
//
//	iter.Pull[...]()
//	github.com/weft-go/weft/internal/racemark.digits()
//	github.com/weft-go/weft/internal/racemark.D2()
//	github.com/weft-go/weft/internal/racemark.digits()
//	github.com/weft-go/weft/internal/racemark.D1()
//	github.com/weft-go/weft/internal/racemark.digits()
//	github.com/weft-go/weft/internal/racemark.Thread()
//
// is the goroutine of T12 (Frames reads them back). The detector records
// only the frames of the packages it instruments, and weft test -race
// builds weft's own without instrumentation: this one is the exception
// (its build flags), and the engine calls it only in those builds.
package racemark
