// Package shim holds what the stand-in packages under std share: whether
// the calling goroutine runs a thread of a weft execution, and tables that
// map the address of a Go value (a channel, an atomically accessed word) to
// the weft object that models it in the current execution.
package shim

import (
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/weft-go/weft/internal/engine"
)

// Active reports whether the caller runs a thread of a weft execution. A
// goroutine that a thread started with a plain go statement while
// explorations run is a misuse, which engine.Current records and ends.
func Active() bool { return engine.Current() != nil }

// anyHooks says whether OnReceive was ever called: until then Received
// has nothing to look up.
var anyHooks atomic.Bool

// tables holds one table per Exec (an Exec runs its executions one after
// another; parallel workers have one Exec each).
var tables sync.Map // *engine.Exec -> *table

type table struct {
	serial uint64
	objs   map[unsafe.Pointer]any
	hooks  map[unsafe.Pointer]func()
}

// current returns the table of the current execution, emptied if it holds
// the objects of a previous one.
func current() *table {
	e := engine.Current().Exec()
	v, ok := tables.Load(e)
	if !ok {
		v, _ = tables.LoadOrStore(e, &table{})
	}
	tb := v.(*table)
	if s := e.Serial(); tb.serial != s {
		// A new execution: the objects of the previous one are gone, as
		// the channels and words the execution makes are new ones.
		tb.serial = s
		clear(tb.objs)
		clear(tb.hooks)
	}
	return tb
}

// Lookup returns the object mapped to p in the current execution, making it
// with mk on the first use of p in the execution. It must be called from a
// thread of an execution (Active).
func Lookup[O any](p unsafe.Pointer, mk func() O) O {
	tb := current()
	if o, ok := tb.objs[p]; ok {
		return o.(O)
	}
	if tb.objs == nil {
		tb.objs = make(map[unsafe.Pointer]any)
	}
	o := mk()
	tb.objs[p] = o
	return o
}

// OnReceive makes f run, in the current execution, after each receive from
// the channel whose pointer is p, by the thread that received (package
// std/time re-arms a ticker so). It must be called from a thread of an
// execution.
func OnReceive(p unsafe.Pointer, f func()) {
	anyHooks.Store(true)
	tb := current()
	if tb.hooks == nil {
		tb.hooks = make(map[unsafe.Pointer]func())
	}
	tb.hooks[p] = f
}

// Received runs the function OnReceive gave for the channel whose pointer
// is p, if any. It must be called from a thread of an execution.
func Received(p unsafe.Pointer) {
	if !anyHooks.Load() {
		return
	}
	if tb := current(); len(tb.hooks) > 0 {
		if f := tb.hooks[p]; f != nil {
			f()
		}
	}
}

// BodyReturned reports whether the test body of the current execution has
// returned. It must be called from a thread of an execution.
func BodyReturned() bool { return engine.Current().Exec().BodyReturned() }

// Now returns the virtual time of the current execution, in nanoseconds.
// It must be called from a thread of an execution.
func Now() int64 { return engine.Current().Exec().Now() }

// ChanPointer returns the pointer of c, a channel value of any channel
// type, nil for a nil channel: the key of its objects in the tables.
func ChanPointer[C any](c C) unsafe.Pointer {
	return *(*unsafe.Pointer)(unsafe.Pointer(&c))
}
