// This file implements Value.

package atomic

import (
	"sync/atomic"
	"unsafe"

	"github.com/weft-go/weft"
	"github.com/weft-go/weft/internal/shim"
)

// Value provides an atomic load and store of a consistently typed value,
// as sync/atomic.Value does (and it panics as that one does).
type Value struct {
	r atomic.Value
}

// step makes the access a step on v's weft variable inside an execution.
func (v *Value) step(f func(w *weft.Var[any])) {
	if !shim.Active() {
		return
	}
	f(&shim.Lookup(unsafe.Pointer(v), func() *valueWord { return v.newVar("") }).Var)
}

// valueWord is intWord for a Value.
type valueWord struct {
	weft.Var[any]
	v           *Value
	init, final any
}

// newVar makes v's weft variable, named name if that is not "".
//
//go:norace
func (v *Value) newVar(name string) *valueWord {
	w := &valueWord{v: v, init: load((*any)(unsafe.Pointer(&v.r)))}
	if name != "" {
		w.SetName(name)
	}
	w.SetAtomic()
	if x := v.r.Load(); x != nil {
		w.SetInitial(x)
	}
	return w
}

// Restore is intWord's: v holds again what it held at its first use in
// the execution (nothing, if no Store came before).
//
//go:norace
func (w *valueWord) Restore() bool {
	p := (*any)(unsafe.Pointer(&w.v.r))
	w.final = *p
	*p = w.init
	// The interface values' words: another type or another value
	// (compared by their words, as the values may not be comparable).
	return *(*[2]unsafe.Pointer)(unsafe.Pointer(&w.final)) != *(*[2]unsafe.Pointer)(unsafe.Pointer(&w.init))
}

// Redo is intWord's.
//
//go:norace
func (w *valueWord) Redo() { *(*any)(unsafe.Pointer(&w.v.r)) = w.final }

// Load returns the value set by the most recent Store, or nil.
func (v *Value) Load() (val any) {
	v.step(func(w *weft.Var[any]) { val = w.Load() })
	if shim.Active() && shim.Elsewhere() {
		return val // an await's condition, on another goroutine
	}
	return v.r.Load()
}

// Store sets the value of v to val.
func (v *Value) Store(val any) {
	v.step(func(w *weft.Var[any]) { w.Store(val) })
	v.r.Store(val)
}

// Swap stores new into v and returns the previous value.
func (v *Value) Swap(new any) (old any) {
	v.step(func(w *weft.Var[any]) { w.Swap(new) })
	return v.r.Swap(new)
}

// CompareAndSwap executes the compare-and-swap operation for v.
func (v *Value) CompareAndSwap(old, new any) (swapped bool) {
	v.step(func(w *weft.Var[any]) { w.CompareAndSwap(old, new) })
	return v.r.CompareAndSwap(old, new)
}
