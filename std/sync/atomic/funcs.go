// This file implements the functions of sync/atomic: the standard
// library's outside an execution, a step on the word's weft variable
// followed by the standard library's operation inside one. The package is
// built with the race detector's instrumentation under weft test -race
// (unlike weft's other packages), so that the standard library's
// operation on the program's word tells the detector of an atomic access,
// as it does under go test -race: an atomic access and a plain one to the
// same word, unordered, are a race.
// The five integer types' functions are alike, one template each.

package atomic

import (
	"sync/atomic"
	"unsafe"

	"github.com/weft-go/weft/internal/shim"
)

// AddInt32 atomically adds delta to *addr and returns the new value.
func AddInt32(addr *int32, delta int32) (new int32) {
	if shim.Active() {
		intVar(addr).Add(delta)
	}
	return atomic.AddInt32(addr, delta)
}

// AddOnlyInt32 is AddInt32 with its result discarded: weft test calls it for a
// statement atomic.AddInt32(addr, delta), so that such adds commute
// (weft.Int.AddOnly).
func AddOnlyInt32(addr *int32, delta int32) {
	if shim.Active() {
		intVar(addr).AddOnly(delta)
	}
	atomic.AddInt32(addr, delta)
}

// LoadInt32 atomically loads *addr.
func LoadInt32(addr *int32) (val int32) {
	if shim.Active() {
		x := intVar(addr).Load()
		if shim.Elsewhere() {
			return x // an await's condition, on another goroutine
		}
	}
	return atomic.LoadInt32(addr)
}

// StoreInt32 atomically stores val into *addr.
func StoreInt32(addr *int32, val int32) {
	if shim.Active() {
		intVar(addr).Store(val)
	}
	atomic.StoreInt32(addr, val)
}

// SwapInt32 atomically stores new into *addr and returns the previous value.
func SwapInt32(addr *int32, new int32) (old int32) {
	if shim.Active() {
		intVar(addr).Swap(new)
	}
	return atomic.SwapInt32(addr, new)
}

// CompareAndSwapInt32 executes the compare-and-swap operation for a int32 value.
func CompareAndSwapInt32(addr *int32, old, new int32) (swapped bool) {
	if shim.Active() {
		intVar(addr).CompareAndSwap(old, new)
	}
	return atomic.CompareAndSwapInt32(addr, old, new)
}

// AndInt32 atomically performs a bitwise AND of *addr and mask and returns
// the old value.
func AndInt32(addr *int32, mask int32) (old int32) {
	if shim.Active() {
		andOr(addr, func(x int32) int32 { return x & mask })
	}
	return atomic.AndInt32(addr, mask)
}

// OrInt32 atomically performs a bitwise OR of *addr and mask and returns the
// old value.
func OrInt32(addr *int32, mask int32) (old int32) {
	if shim.Active() {
		andOr(addr, func(x int32) int32 { return x | mask })
	}
	return atomic.OrInt32(addr, mask)
}

// AddInt64 atomically adds delta to *addr and returns the new value.
func AddInt64(addr *int64, delta int64) (new int64) {
	if shim.Active() {
		intVar(addr).Add(delta)
	}
	return atomic.AddInt64(addr, delta)
}

// AddOnlyInt64 is AddInt64 with its result discarded: weft test calls it for a
// statement atomic.AddInt64(addr, delta), so that such adds commute
// (weft.Int.AddOnly).
func AddOnlyInt64(addr *int64, delta int64) {
	if shim.Active() {
		intVar(addr).AddOnly(delta)
	}
	atomic.AddInt64(addr, delta)
}

// LoadInt64 atomically loads *addr.
func LoadInt64(addr *int64) (val int64) {
	if shim.Active() {
		x := intVar(addr).Load()
		if shim.Elsewhere() {
			return x // an await's condition, on another goroutine
		}
	}
	return atomic.LoadInt64(addr)
}

// StoreInt64 atomically stores val into *addr.
func StoreInt64(addr *int64, val int64) {
	if shim.Active() {
		intVar(addr).Store(val)
	}
	atomic.StoreInt64(addr, val)
}

// SwapInt64 atomically stores new into *addr and returns the previous value.
func SwapInt64(addr *int64, new int64) (old int64) {
	if shim.Active() {
		intVar(addr).Swap(new)
	}
	return atomic.SwapInt64(addr, new)
}

// CompareAndSwapInt64 executes the compare-and-swap operation for a int64 value.
func CompareAndSwapInt64(addr *int64, old, new int64) (swapped bool) {
	if shim.Active() {
		intVar(addr).CompareAndSwap(old, new)
	}
	return atomic.CompareAndSwapInt64(addr, old, new)
}

// AndInt64 atomically performs a bitwise AND of *addr and mask and returns
// the old value.
func AndInt64(addr *int64, mask int64) (old int64) {
	if shim.Active() {
		andOr(addr, func(x int64) int64 { return x & mask })
	}
	return atomic.AndInt64(addr, mask)
}

// OrInt64 atomically performs a bitwise OR of *addr and mask and returns the
// old value.
func OrInt64(addr *int64, mask int64) (old int64) {
	if shim.Active() {
		andOr(addr, func(x int64) int64 { return x | mask })
	}
	return atomic.OrInt64(addr, mask)
}

// AddUint32 atomically adds delta to *addr and returns the new value.
func AddUint32(addr *uint32, delta uint32) (new uint32) {
	if shim.Active() {
		intVar(addr).Add(delta)
	}
	return atomic.AddUint32(addr, delta)
}

// AddOnlyUint32 is AddUint32 with its result discarded: weft test calls it for a
// statement atomic.AddUint32(addr, delta), so that such adds commute
// (weft.Int.AddOnly).
func AddOnlyUint32(addr *uint32, delta uint32) {
	if shim.Active() {
		intVar(addr).AddOnly(delta)
	}
	atomic.AddUint32(addr, delta)
}

// LoadUint32 atomically loads *addr.
func LoadUint32(addr *uint32) (val uint32) {
	if shim.Active() {
		x := intVar(addr).Load()
		if shim.Elsewhere() {
			return x // an await's condition, on another goroutine
		}
	}
	return atomic.LoadUint32(addr)
}

// StoreUint32 atomically stores val into *addr.
func StoreUint32(addr *uint32, val uint32) {
	if shim.Active() {
		intVar(addr).Store(val)
	}
	atomic.StoreUint32(addr, val)
}

// SwapUint32 atomically stores new into *addr and returns the previous value.
func SwapUint32(addr *uint32, new uint32) (old uint32) {
	if shim.Active() {
		intVar(addr).Swap(new)
	}
	return atomic.SwapUint32(addr, new)
}

// CompareAndSwapUint32 executes the compare-and-swap operation for a uint32 value.
func CompareAndSwapUint32(addr *uint32, old, new uint32) (swapped bool) {
	if shim.Active() {
		intVar(addr).CompareAndSwap(old, new)
	}
	return atomic.CompareAndSwapUint32(addr, old, new)
}

// AndUint32 atomically performs a bitwise AND of *addr and mask and returns
// the old value.
func AndUint32(addr *uint32, mask uint32) (old uint32) {
	if shim.Active() {
		andOr(addr, func(x uint32) uint32 { return x & mask })
	}
	return atomic.AndUint32(addr, mask)
}

// OrUint32 atomically performs a bitwise OR of *addr and mask and returns the
// old value.
func OrUint32(addr *uint32, mask uint32) (old uint32) {
	if shim.Active() {
		andOr(addr, func(x uint32) uint32 { return x | mask })
	}
	return atomic.OrUint32(addr, mask)
}

// AddUint64 atomically adds delta to *addr and returns the new value.
func AddUint64(addr *uint64, delta uint64) (new uint64) {
	if shim.Active() {
		intVar(addr).Add(delta)
	}
	return atomic.AddUint64(addr, delta)
}

// AddOnlyUint64 is AddUint64 with its result discarded: weft test calls it for a
// statement atomic.AddUint64(addr, delta), so that such adds commute
// (weft.Int.AddOnly).
func AddOnlyUint64(addr *uint64, delta uint64) {
	if shim.Active() {
		intVar(addr).AddOnly(delta)
	}
	atomic.AddUint64(addr, delta)
}

// LoadUint64 atomically loads *addr.
func LoadUint64(addr *uint64) (val uint64) {
	if shim.Active() {
		x := intVar(addr).Load()
		if shim.Elsewhere() {
			return x // an await's condition, on another goroutine
		}
	}
	return atomic.LoadUint64(addr)
}

// StoreUint64 atomically stores val into *addr.
func StoreUint64(addr *uint64, val uint64) {
	if shim.Active() {
		intVar(addr).Store(val)
	}
	atomic.StoreUint64(addr, val)
}

// SwapUint64 atomically stores new into *addr and returns the previous value.
func SwapUint64(addr *uint64, new uint64) (old uint64) {
	if shim.Active() {
		intVar(addr).Swap(new)
	}
	return atomic.SwapUint64(addr, new)
}

// CompareAndSwapUint64 executes the compare-and-swap operation for a uint64 value.
func CompareAndSwapUint64(addr *uint64, old, new uint64) (swapped bool) {
	if shim.Active() {
		intVar(addr).CompareAndSwap(old, new)
	}
	return atomic.CompareAndSwapUint64(addr, old, new)
}

// AndUint64 atomically performs a bitwise AND of *addr and mask and returns
// the old value.
func AndUint64(addr *uint64, mask uint64) (old uint64) {
	if shim.Active() {
		andOr(addr, func(x uint64) uint64 { return x & mask })
	}
	return atomic.AndUint64(addr, mask)
}

// OrUint64 atomically performs a bitwise OR of *addr and mask and returns the
// old value.
func OrUint64(addr *uint64, mask uint64) (old uint64) {
	if shim.Active() {
		andOr(addr, func(x uint64) uint64 { return x | mask })
	}
	return atomic.OrUint64(addr, mask)
}

// AddUintptr atomically adds delta to *addr and returns the new value.
func AddUintptr(addr *uintptr, delta uintptr) (new uintptr) {
	if shim.Active() {
		intVar(addr).Add(delta)
	}
	return atomic.AddUintptr(addr, delta)
}

// AddOnlyUintptr is AddUintptr with its result discarded: weft test calls it for a
// statement atomic.AddUintptr(addr, delta), so that such adds commute
// (weft.Int.AddOnly).
func AddOnlyUintptr(addr *uintptr, delta uintptr) {
	if shim.Active() {
		intVar(addr).AddOnly(delta)
	}
	atomic.AddUintptr(addr, delta)
}

// LoadUintptr atomically loads *addr.
func LoadUintptr(addr *uintptr) (val uintptr) {
	if shim.Active() {
		x := intVar(addr).Load()
		if shim.Elsewhere() {
			return x // an await's condition, on another goroutine
		}
	}
	return atomic.LoadUintptr(addr)
}

// StoreUintptr atomically stores val into *addr.
func StoreUintptr(addr *uintptr, val uintptr) {
	if shim.Active() {
		intVar(addr).Store(val)
	}
	atomic.StoreUintptr(addr, val)
}

// SwapUintptr atomically stores new into *addr and returns the previous value.
func SwapUintptr(addr *uintptr, new uintptr) (old uintptr) {
	if shim.Active() {
		intVar(addr).Swap(new)
	}
	return atomic.SwapUintptr(addr, new)
}

// CompareAndSwapUintptr executes the compare-and-swap operation for a uintptr value.
func CompareAndSwapUintptr(addr *uintptr, old, new uintptr) (swapped bool) {
	if shim.Active() {
		intVar(addr).CompareAndSwap(old, new)
	}
	return atomic.CompareAndSwapUintptr(addr, old, new)
}

// AndUintptr atomically performs a bitwise AND of *addr and mask and returns
// the old value.
func AndUintptr(addr *uintptr, mask uintptr) (old uintptr) {
	if shim.Active() {
		andOr(addr, func(x uintptr) uintptr { return x & mask })
	}
	return atomic.AndUintptr(addr, mask)
}

// OrUintptr atomically performs a bitwise OR of *addr and mask and returns the
// old value.
func OrUintptr(addr *uintptr, mask uintptr) (old uintptr) {
	if shim.Active() {
		andOr(addr, func(x uintptr) uintptr { return x | mask })
	}
	return atomic.OrUintptr(addr, mask)
}

// LoadPointer atomically loads *addr.
func LoadPointer(addr *unsafe.Pointer) (val unsafe.Pointer) {
	if shim.Active() {
		x := ptrVar(addr).Load()
		if shim.Elsewhere() {
			return x // an await's condition, on another goroutine
		}
	}
	return atomic.LoadPointer(addr)
}

// StorePointer atomically stores val into *addr.
func StorePointer(addr *unsafe.Pointer, val unsafe.Pointer) {
	if shim.Active() {
		ptrVar(addr).Store(val)
	}
	atomic.StorePointer(addr, val)
}

// SwapPointer atomically stores new into *addr and returns the previous
// value.
func SwapPointer(addr *unsafe.Pointer, new unsafe.Pointer) (old unsafe.Pointer) {
	if shim.Active() {
		ptrVar(addr).Swap(new)
	}
	return atomic.SwapPointer(addr, new)
}

// CompareAndSwapPointer executes the compare-and-swap operation for an
// unsafe.Pointer value.
func CompareAndSwapPointer(addr *unsafe.Pointer, old, new unsafe.Pointer) (swapped bool) {
	if shim.Active() {
		ptrVar(addr).CompareAndSwap(old, new)
	}
	return atomic.CompareAndSwapPointer(addr, old, new)
}
