// Package shim holds what the stand-in packages under std share: whether
// the calling goroutine runs a thread of a weft execution, and tables that
// map the address of a Go value (a channel, an atomically accessed word) to
// the weft object that models it in the current execution.
package shim

import (
	"unsafe"

	"github.com/weft-go/weft/internal/engine"
)

// Active reports whether the caller runs a thread of a weft execution. A
// goroutine that a thread started with a plain go statement while
// explorations run is a misuse, which engine.Current records and ends.
func Active() bool { return engine.Current() != nil }

// table holds the objects of an Exec's execution (an Exec runs its
// executions one after another; parallel workers have one Exec each). It
// is the Exec's shim state (engine.Exec.ShimState), which only the
// running thread touches: no synchronisation, which the race detector
// would see under weft test -race.
type table struct {
	serial  uint64
	objs    ptrTable // values of the type Lookup makes
	origins ptrTable // string: MadeOutside
	inside  ptrTable // bool: MadeInside
	end     func()   // restore, registered with each execution (engine.Exec.AtEnd)
	last    []Restorer
	e       *engine.Exec
	// keys is the memory the last execution changed (the Restorers it
	// changed, the channels it made), and dirty how it left it mid-way
	// ("" if it did not: taint.go).
	keys  []unsafe.Pointer
	dirty string
	// cleanups are the functions the execution registered with
	// t.Cleanup (AddCleanup).
	cleanups []func()
}

// Restorer is an object of Lookup's that undoes, at the end of the
// execution, what the execution did to the Go value it models, memory
// that may outlive the execution (a package-level variable's, or one made
// before the exploration): an atomic word gets back the value it held at
// its first use in the execution, so that the next execution starts from
// the same memory as this one did. After the last execution of an Exec
// (engine.Exec.AtClose), the objects of that execution redo what it did,
// so that the code that runs next (the next test) finds the memory as one
// run of the test left it, as under go test, with the atomic words and
// the plain variables of that same run. If that execution did not run to
// its end (taint.go), they get back the values of before the exploration
// instead, and a later exploration that uses them stops as inconclusive.
type Restorer interface {
	// Restore records the value's state and gives it back the one it
	// had at its first use in the execution; it reports whether the two
	// differ (the execution changed the value).
	Restore() (changed bool)
	// Redo gives the value the state Restore recorded.
	Redo()
}

// restore calls Restore on the objects of the execution that ended,
// keeps them for redo, and empties the table.
func (tb *table) restore() {
	clear(tb.last)
	tb.last = tb.last[:0]
	tb.dirty = dirty(tb.e.EndState(), tb.e.Interrupted())
	clear(tb.keys)
	tb.keys = tb.keys[:0]
	taint := tb.dirty != "" && OnTainted != nil
	tb.objs.eachEntry(func(p unsafe.Pointer, o any) {
		if r, ok := o.(Restorer); ok {
			if r.Restore() && taint {
				tb.keys = append(tb.keys, p)
			}
			tb.last = append(tb.last, r)
		}
	})
	if taint {
		// The channels the execution made, which memory that outlives
		// it may hold.
		tb.inside.eachEntry(func(p unsafe.Pointer, _ any) { tb.keys = append(tb.keys, p) })
	}
	tb.objs.reset()
	tb.origins.reset()
	tb.inside.reset()
}

// current returns the table of the current execution, emptied if it holds
// the objects of a previous one.
func current() *table {
	e := engine.Current().Exec()
	st := e.ShimState()
	tb, _ := (*st).(*table)
	if tb == nil {
		tb = &table{e: e}
		tb.end = tb.restore
		*st = tb
		e.AtClose(tb.redo)
	}
	if s := e.Serial(); tb.serial != s {
		// A new execution: the objects of the previous one are gone, as
		// the channels and words the execution makes are new ones.
		tb.serial = s
		clear(tb.cleanups)
		tb.cleanups = tb.cleanups[:0]
		tb.objs.reset()
		tb.origins.reset()
		tb.inside.reset()
		e.AtEnd(tb.end)
	}
	return tb
}

// redo calls Redo on the objects of the last execution, unless it left
// them mid-way: then they are tainted (taint.go).
func (tb *table) redo() {
	if tb.dirty != "" {
		addTaint(tb.keys, tb.dirty)
		tb.keys = nil
		clear(tb.last)
		tb.last = tb.last[:0]
		return
	}
	for _, r := range tb.last {
		r.Redo()
	}
	clear(tb.last)
	tb.last = tb.last[:0]
}

// Lookup returns the object mapped to p in the current execution, making it
// with mk on the first use of p in the execution; at the end of the
// execution, an object that is a Restorer is restored. It must be called from a
// thread of an execution (Active).
//
// mk must take no step: a thread runs until it announces its next one,
// and another thread that looked p up meanwhile would make an object of
// its own.
//
//go:norace
func Lookup[O any](p unsafe.Pointer, mk func() O) O {
	tb := current()
	if o, ok := tb.objs.get(p); ok {
		return o.(O)
	}
	checkTaint(p)
	o := mk()
	tb.objs.put(p, o)
	return o
}

// Found returns the object mapped to p in the current execution, if one
// is (Lookup made it), without making one. It must be called from a thread
// of an execution (Active).
//
//go:norace
func Found(p unsafe.Pointer) (o any, ok bool) { return current().objs.get(p) }

// AddCleanup registers f to run when the test's body returns in the
// current execution (t.Cleanup inside it). It must be called from a
// thread of an execution.
func AddCleanup(f func()) {
	tb := current()
	tb.cleanups = append(tb.cleanups, f)
}

// TakeCleanups returns the functions registered with AddCleanup in the
// current execution, in the order of their registration, and forgets them.
// It must be called from a thread of an execution.
func TakeCleanups() []func() {
	tb := current()
	fs := tb.cleanups
	tb.cleanups = nil
	return fs
}

// Now returns the virtual time of the current execution, in nanoseconds.
// It must be called from a thread of an execution.
func Now() int64 { return engine.Current().Now() }

// Epoch returns the instant of the wall clock, in Unix nanoseconds, at
// which virtual time starts in the current execution (engine.NextEpoch).
// It must be called from a thread of an execution.
func Epoch() int64 { return engine.Current().Exec().Epoch() }

// SawWallClock notes that code outside any execution read the wall clock
// at t, in Unix nanoseconds: the explorations that start later begin at
// that instant or after it (engine.NextEpoch).
func SawWallClock(t int64) { engine.SawWallClock(t) }

// Seed returns the seed of the program's random numbers and map orders in
// the current execution (weft.WithSeed, weft.WithVaryingSeed). It must be
// called from a thread of an execution.
func Seed() int64 { return engine.Current().Exec().Seed() }

// ChanPointer returns the pointer of c, a channel value of any channel
// type, nil for a nil channel: the key of its objects in the tables.
//
//go:norace
func ChanPointer[C any](c C) unsafe.Pointer {
	return *(*unsafe.Pointer)(unsafe.Pointer(&c))
}

// BeginCall marks the steps the calling thread takes until EndCall as the
// inner steps of one call of a stand-in, which reports show as one step
// labelled label (engine.BeginCall). Outside an execution it does nothing.
func BeginCall(label string) { engine.BeginCall(label) }

// EndCall ends the call BeginCall began.
func EndCall() { engine.EndCall() }

// MadeOutside records that the channel whose pointer is p was made, in the
// current execution, by origin, a function outside weft's control, unless
// the execution already uses it: the weft object made for it
// (MakingOutside) says so in reports.
func MadeOutside(p unsafe.Pointer, origin string) {
	tb := current()
	if _, ok := tb.objs.get(p); !ok {
		tb.origins.put(p, origin)
	}
}

// MadeInside records that the channel whose pointer is p was made by the
// current execution, in code weft test rewrote (weftrt.MakeChan) or in a
// stand-in.
func MadeInside(p unsafe.Pointer) {
	current().inside.put(p, true)
}

// Inside reports whether the channel whose pointer is p was made by the
// current execution (MadeInside). It must be called from a thread of an
// execution.
func Inside(p unsafe.Pointer) bool {
	_, ok := current().inside.get(p)
	return ok
}

// MakingOutside tells the engine, before the weft object of the channel
// whose pointer is p is made, where code outside weft's control made the
// channel (MadeOutside), if it did, or that the execution did not make it
// (engine.BeforeExecution): code outside any execution made it (package
// initialisation, TestMain, an earlier execution), or a package weft test
// does not rewrite did.
func MakingOutside(p unsafe.Pointer) {
	tb := current()
	if o, ok := tb.origins.get(p); ok {
		engine.MadeOutside(o.(string))
		return
	}
	if _, ok := tb.inside.get(p); !ok {
		engine.MadeOutside(engine.BeforeExecution)
	}
}

// Elsewhere reports whether the caller evaluates the condition of an Await
// on another thread's goroutine (engine.Thread.Elsewhere).
func Elsewhere() bool {
	t := engine.Current()
	return t != nil && t.Elsewhere()
}
