// Package shim holds what the stand-in packages under std share: whether
// the calling goroutine runs a thread of a weft execution, and tables that
// map the address of a Go value (a channel, an atomically accessed word) to
// the weft object that models it in the current execution.
package shim

import (
	"sync"
	"unsafe"

	"github.com/weft-go/weft/internal/engine"
)

// Active reports whether the caller runs a thread of a weft execution. A
// goroutine that a thread started with a plain go statement while
// explorations run is a misuse, which engine.Current records and ends.
func Active() bool { return engine.Current() != nil }

// tables holds one table per Exec (an Exec runs its executions one after
// another; parallel workers have one Exec each).
var tables sync.Map // *engine.Exec -> *table

type table struct {
	serial uint64
	objs   map[unsafe.Pointer]any
}

// Lookup returns the object mapped to p in the current execution, making it
// with mk on the first use of p in the execution. It must be called from a
// thread of an execution (Active).
func Lookup[O any](p unsafe.Pointer, mk func() O) O {
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
	}
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
