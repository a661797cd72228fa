// This file turns values of shared variables and channels into the 64-bit
// form the trace records, and notes them for the report's steps.

package weft

import (
	"fmt"
	"math"
	"reflect"
	"unsafe"

	"github.com/weft-go/weft/internal/engine"
	"github.com/weft-go/weft/trace"
)

// encoding is how the values of a type are recorded in the trace: a
// variable or a channel keeps one (bitsEncoding, varEncoding) rather than a
// function, which a generic type would allocate at its first use in every
// execution.
type encoding uint8

const (
	encUnset  encoding = iota // not computed yet: the zero value
	encNone                   // not recorded: 0
	encBits1                  // the bits of an integer or a boolean of 1 byte
	encBits2                  // ... of 2 bytes
	encBits4                  // ... of 4 bytes
	encBits8                  // ... of 8 bytes
	encSym                    // a concolic value's concrete value
	encString                 // a hash of a string's bytes (hashString)
	encHash                   // a hash of the value's contents (hashValue)
)

// hashed reports whether k hashes the value's contents: a report then
// notes the value printed at the step, as later steps may change what it
// refers to.
func (k encoding) hashed() bool { return k >= encString }

// bitsEncoding returns the encoding of values of type T when T is an
// integer or a boolean, their bits, and encNone otherwise (such values are
// not recorded in the trace).
//
//go:norace
func bitsEncoding[T any]() encoding {
	var zero T
	switch any(zero).(type) {
	case int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64, uintptr, bool:
		switch unsafe.Sizeof(zero) {
		case 1:
			return encBits1
		case 2:
			return encBits2
		case 4:
			return encBits4
		case 8:
			return encBits8
		}
	}
	return encNone
}

// varEncoding returns the encoding of a shared variable's values of type
// T: bitsEncoding's when T has one, a concolic value's concrete value,
// and otherwise a hash of the value's contents.
//
//go:norace
func varEncoding[T any]() encoding {
	if k := bitsEncoding[T](); k != encNone {
		return k
	}
	var zero T
	if _, ok := any(zero).(symbolic); ok {
		return encSym
	}
	if _, ok := any(zero).(string); ok {
		return encString
	}
	return encHash
}

// FNV-1a's parameters, for hashString.
const (
	fnvOffset = 14695981039346656037
	fnvPrime  = 1099511628211
)

// hashString continues the FNV-1a hash h with the bytes of s.
func hashString(h uint64, s string) uint64 {
	for i := 0; i < len(s); i++ {
		h = (h ^ uint64(s[i])) * fnvPrime
	}
	return h
}

// hashValue returns a 64-bit hash of the contents of v, the same in every
// execution and process for equal contents: numbers by their bits,
// strings by their bytes, slices, arrays and structs by their elements in
// order, maps by their pairs in any order, interfaces by their dynamic
// type's name and value; pointers, channels, functions and unsafe pointers
// only by whether they are nil, as their addresses change from one
// execution to the next (and following them could loop). Nil and empty
// slices and maps differ. Below depth levels of nesting (a slice that holds
// itself through an interface has no bottom), values count by their kind
// alone.
func hashValue(v reflect.Value, depth int) uint64 {
	h := uint64(v.Kind()) + 1
	if depth == 0 {
		return h
	}
	depth--
	switch v.Kind() {
	case reflect.Bool:
		if v.Bool() {
			h = mix(h, 1)
		}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		h = mix(h, uint64(v.Int()))
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		h = mix(h, v.Uint())
	case reflect.Float32, reflect.Float64:
		h = mix(h, math.Float64bits(v.Float()))
	case reflect.Complex64, reflect.Complex128:
		c := v.Complex()
		h = mix(mix(h, math.Float64bits(real(c))), math.Float64bits(imag(c)))
	case reflect.String:
		h = mix(h, hashString(fnvOffset, v.String()))
	case reflect.Slice, reflect.Array:
		if v.Kind() == reflect.Slice && v.IsNil() {
			return mix(h, 0)
		}
		h = mix(h, uint64(v.Len())+1)
		for i := range v.Len() {
			h = mix(h, hashValue(v.Index(i), depth))
		}
	case reflect.Struct:
		for i := range v.NumField() {
			h = mix(h, hashValue(v.Field(i), depth))
		}
	case reflect.Map:
		if v.IsNil() {
			return mix(h, 0)
		}
		// A sum of the pairs' hashes does not depend on the map's order.
		var sum uint64
		for it := v.MapRange(); it.Next(); {
			sum += mix(hashValue(it.Key(), depth), hashValue(it.Value(), depth))
		}
		h = mix(mix(h, uint64(v.Len())+1), sum)
	case reflect.Interface:
		if v.IsNil() {
			return mix(h, 0)
		}
		e := v.Elem()
		h = mix(mix(h, hashString(fnvOffset, e.Type().String())), hashValue(e, depth))
	case reflect.Pointer, reflect.Chan, reflect.Func, reflect.UnsafePointer:
		if !v.IsNil() {
			h = mix(h, 1)
		}
	}
	return h
}

// hashDepth is the nesting below which hashValue looks no further.
const hashDepth = 32

// mix combines hash h with x.
func mix(h, x uint64) uint64 { return trace.Mix(h*fnvPrime ^ trace.Mix(x)) }

// printed returns v as fmt's %v prints it, for a report: a value whose
// encoding is a hash is noted printed at its step, as it may refer to
// memory that later steps change (a slice's elements, a map).
//
//go:norace
func printed[T any](v T) string { return fmt.Sprint(v) }

// encode returns v in encoding k (0 for encNone and encUnset). Values
// are passed, not pointed to, so that no operation's value escapes to the
// heap.
//
//go:norace
func encode[T any](k encoding, v T) uint64 {
	if k == encBits8 {
		// The common case, inlined: an int's, a pointer's.
		return *(*uint64)(unsafe.Pointer(&v))
	}
	return encodeOther(k, v)
}

// encodeOther is encode past its common case.
//
//go:norace
func encodeOther[T any](k encoding, v T) uint64 {
	switch k {
	case encBits1:
		return uint64(*(*uint8)(unsafe.Pointer(&v)))
	case encBits2:
		return uint64(*(*uint16)(unsafe.Pointer(&v)))
	case encBits4:
		return uint64(*(*uint32)(unsafe.Pointer(&v)))
	case encBits8:
		return *(*uint64)(unsafe.Pointer(&v))
	case encSym, encString, encHash:
		return encodeSlow(k, v)
	}
	return 0
}

// encodeSlow is encode for the encodings that take v as an interface: v,
// a copy, goes to the heap, which the bits of an integer must not.
//
//go:norace
//go:noinline
func encodeSlow[T any](k encoding, v T) uint64 {
	switch k {
	case encSym:
		return any(v).(symbolic).concrete()
	case encString:
		return hashString(fnvOffset, any(v).(string))
	}
	return hashValue(reflect.ValueOf(&v).Elem(), hashDepth)
}

// noteValue notes v, the value the step t just ended read, wrote, sent or received, for
// the report's steps, when the execution captures them.
//
//go:norace
func noteValue[T any](t *engine.Thread, v T) {
	if t.Capturing() {
		t.NoteValue(v)
	}
}
