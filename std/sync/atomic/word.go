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
	return shim.Lookup(unsafe.Pointer(addr), func() *weft.Int[T] { return newInt(addr, "") })
}

// newInt makes the weft variable of the integer word at addr, named name
// if that is not "".
//
//go:norace
func newInt[T weft.Integer](addr *T, name string) *weft.Int[T] {
	v := new(weft.Int[T])
	if name != "" {
		v.SetName(name)
	}
	if x := load(addr); x != 0 {
		v.SetInitial(x)
	}
	return v
}

// ptrVar returns the weft variable of the pointer word at addr.
func ptrVar(addr *unsafe.Pointer) *weft.Var[unsafe.Pointer] {
	return shim.Lookup(unsafe.Pointer(addr), func() *weft.Var[unsafe.Pointer] { return newPtr(addr, "") })
}

// newPtr is newInt for a pointer word.
func newPtr(addr *unsafe.Pointer, name string) *weft.Var[unsafe.Pointer] {
	v := new(weft.Var[unsafe.Pointer])
	if name != "" {
		v.SetName(name)
	}
	v.SetAtomic()
	if x := load(addr); x != nil {
		v.SetInitial(x)
	}
	return v
}

// load reads the word at addr to start its weft variable with, unseen by
// the race detector: the read is weft's, not the program's.
//
//go:norace
func load[T any](addr *T) T { return *addr }

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
