// This file implements the naming of atomically accessed words in reports:
// weft test's rewriting calls WeftName with the expression a method is
// called on (c.hits.WeftName("c.hits").Load()), and WeftWord with the
// operand of a function's address argument (atomic.LoadInt64(
// atomic.WeftWord("total", &total))), so that a report shows "load
// c.hits", not "load var#1".

package atomic

import (
	"unsafe"

	"github.com/weft-go/weft"
	"github.com/weft-go/weft/internal/shim"
)

// nameInt names the weft variable of the integer word at addr, if the
// current execution makes it now: the name of a word is that of its first
// access in the execution.
//
//go:norace
func nameInt[T weft.Integer](addr *T, name string) {
	shim.Lookup(unsafe.Pointer(addr), func() *intWord[T] {
		return newInt(addr, name)
	})
}

// namePtr is nameInt for a pointer word.
//
//go:norace
func namePtr(addr *unsafe.Pointer, name string) {
	shim.Lookup(unsafe.Pointer(addr), func() *ptrWord {
		return newPtr(addr, name)
	})
}

// WeftWord names, in weft's reports, the word at addr, given to one of the
// package's functions, and returns addr: weft test rewrites
// atomic.AddInt64(&n, 1) to atomic.AddInt64(atomic.WeftWord("n", &n), 1).
// It is not in package sync/atomic.
//
//go:noinline
func WeftWord[T any](name string, addr *T) *T {
	if !shim.Active() || addr == nil {
		return addr
	}
	switch a := any(addr).(type) {
	case *int32:
		nameInt(a, name)
	case *int64:
		nameInt(a, name)
	case *uint32:
		nameInt(a, name)
	case *uint64:
		nameInt(a, name)
	case *uintptr:
		nameInt(a, name)
	case *unsafe.Pointer:
		namePtr(a, name)
	}
	return addr
}

// WeftName names x in weft's reports, if the current execution has not
// accessed it yet, and returns x. It is not in package sync/atomic.
//
//go:noinline
func (x *Bool) WeftName(name string) *Bool {
	if shim.Active() {
		nameInt(&x.v, name)
	}
	return x
}

// WeftName names x as Bool.WeftName does.
//
//go:noinline
func (x *Int32) WeftName(name string) *Int32 {
	if shim.Active() {
		nameInt(&x.v, name)
	}
	return x
}

// WeftName names x as Bool.WeftName does.
//
//go:noinline
func (x *Int64) WeftName(name string) *Int64 {
	if shim.Active() {
		nameInt(&x.v, name)
	}
	return x
}

// WeftName names x as Bool.WeftName does.
//
//go:noinline
func (x *Uint32) WeftName(name string) *Uint32 {
	if shim.Active() {
		nameInt(&x.v, name)
	}
	return x
}

// WeftName names x as Bool.WeftName does.
//
//go:noinline
func (x *Uint64) WeftName(name string) *Uint64 {
	if shim.Active() {
		nameInt(&x.v, name)
	}
	return x
}

// WeftName names x as Bool.WeftName does.
//
//go:noinline
func (x *Uintptr) WeftName(name string) *Uintptr {
	if shim.Active() {
		nameInt(&x.v, name)
	}
	return x
}

// WeftName names x as Bool.WeftName does.
//
//go:noinline
func (x *Pointer[T]) WeftName(name string) *Pointer[T] {
	if shim.Active() {
		namePtr(&x.v, name)
	}
	return x
}

// WeftName names v as Bool.WeftName does.
//
//go:noinline
func (v *Value) WeftName(name string) *Value {
	if shim.Active() {
		shim.Lookup(unsafe.Pointer(v), func() *valueWord { return v.newVar(name) })
	}
	return v
}
