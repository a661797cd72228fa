// This file implements the step that stands for an atomic access inside an
// execution: the table that maps a word's address to its weft variable.

package atomic

import (
	"unsafe"

	"github.com/weft-go/weft"
	"github.com/weft-go/weft/internal/shim"
)

// intVar returns the weft variable of the integer word at addr in the
// current execution.
//
//go:norace
func intVar[T weft.Integer](addr *T) *weft.Int[T] {
	return &shim.Lookup(unsafe.Pointer(addr), func() *intWord[T] { return newInt(addr, "") }).Int
}

// intWord is the weft variable of an integer word in an execution, with
// the word's value at its first use there, which the word gets back at
// the end of the execution (shim.Restorer).
type intWord[T weft.Integer] struct {
	weft.Int[T]
	addr        *T
	init, final T
}

// newInt makes the weft variable of the integer word at addr, named name
// if that is not "".
//
//go:norace
func newInt[T weft.Integer](addr *T, name string) *intWord[T] {
	w := &intWord[T]{addr: addr, init: load(addr)}
	if name != "" {
		w.SetName(name)
	}
	if w.init != 0 {
		w.SetInitial(w.init)
	}
	return w
}

// Restore gives the word back the value it held at its first use in the
// execution that ended, records the one it ended with, and reports
// whether the two differ.
//
//go:norace
func (w *intWord[T]) Restore() bool {
	w.final = load(w.addr)
	restore(w.addr, w.init)
	return w.final != w.init
}

// Redo gives the word the value the execution ended with.
//
//go:norace
func (w *intWord[T]) Redo() { restore(w.addr, w.final) }

// ptrVar returns the weft variable of the pointer word at addr.
func ptrVar(addr *unsafe.Pointer) *weft.Var[unsafe.Pointer] {
	return &shim.Lookup(unsafe.Pointer(addr), func() *ptrWord { return newPtr(addr, "") }).Var
}

// ptrWord is intWord for a pointer word.
type ptrWord struct {
	weft.Var[unsafe.Pointer]
	addr        *unsafe.Pointer
	init, final unsafe.Pointer
}

// newPtr is newInt for a pointer word.
//
//go:norace
func newPtr(addr *unsafe.Pointer, name string) *ptrWord {
	w := &ptrWord{addr: addr, init: load(addr)}
	if name != "" {
		w.SetName(name)
	}
	w.SetAtomic()
	if w.init != nil {
		w.SetInitial(w.init)
	}
	return w
}

// Restore is intWord's.
//
//go:norace
func (w *ptrWord) Restore() bool {
	w.final = load(w.addr)
	restore(w.addr, w.init)
	return w.final != w.init
}

// Redo is intWord's.
//
//go:norace
func (w *ptrWord) Redo() { restore(w.addr, w.final) }

// load reads the word at addr to start its weft variable with, unseen by
// the race detector: the read is weft's, not the program's.
//
//go:norace
func load[T any](addr *T) T { return *addr }

// restore writes x to the word at addr if it holds another value, unseen
// by the race detector: the write is weft's, not the program's.
//
//go:norace
func restore[T comparable](addr *T, x T) {
	if *addr != x {
		*addr = x
	}
}

// andOr applies op to the weft variable of the word at addr as a
// compare-and-swap loop; the caller then applies it to the word.
func andOr[T weft.Integer](addr *T, op func(T) T) {
	v := intVar(addr)
	for {
		old := v.Load()
		if v.CompareAndSwap(old, op(old)) {
			return
		}
	}
}
