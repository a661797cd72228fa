// This file turns values of shared variables and channels into the 64-bit
// form the trace records, and notes them for the report's steps.

package weft

import (
	"unsafe"

	"github.com/weft-go/weft/internal/engine"
)

// encoder returns the 64-bit encoding of a value of type T when T is an
// integer, a boolean or a pointer-free type of at most 8 bytes, and nil
// otherwise (such values are not recorded in the trace).
func encoder[T any]() func(T) uint64 {
	var zero T
	switch any(zero).(type) {
	case int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64, uintptr, bool:
		switch unsafe.Sizeof(zero) {
		case 1:
			return func(v T) uint64 { return uint64(*(*uint8)(unsafe.Pointer(&v))) }
		case 2:
			return func(v T) uint64 { return uint64(*(*uint16)(unsafe.Pointer(&v))) }
		case 4:
			return func(v T) uint64 { return uint64(*(*uint32)(unsafe.Pointer(&v))) }
		case 8:
			return func(v T) uint64 { return *(*uint64)(unsafe.Pointer(&v)) }
		}
	}
	return nil
}

// encode returns the encoding of v, or 0 if enc is nil. Values are passed,
// not pointed to, so that no operation's value escapes to the heap.
func encode[T any](enc func(T) uint64, v T) uint64 {
	if enc == nil {
		return 0
	}
	return enc(v)
}

// noteValue notes v, the value the step t just ended read, wrote, sent or received, for
// the report's steps, when the execution captures them.
func noteValue[T any](t *engine.Thread, v T) {
	if t.Capturing() {
		t.NoteValue(v)
	}
}
