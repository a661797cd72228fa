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

// encoder returns the 64-bit encoding of a value of type T when T is an
// integer, a boolean or a pointer-free type of at most 8 bytes, and nil
// otherwise (such values are not recorded in the trace).
//
//go:norace
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

// varEncoder returns the encoding of a shared variable's values of type T:
// encoder's when T has one, a concolic value's concrete value, and
// otherwise a hash of the value's contents (hashValue), with hashed set.
//
//go:norace
func varEncoder[T any]() (enc func(T) uint64, hashed bool) {
	if enc := encoder[T](); enc != nil {
		return enc, false
	}
	var zero T
	if _, ok := any(zero).(symbolic); ok {
		return func(v T) uint64 { return any(v).(symbolic).concrete() }, false
	}
	if _, ok := any(zero).(string); ok {
		return func(v T) uint64 { return hashString(fnvOffset, any(v).(string)) }, true
	}
	return func(v T) uint64 { return hashValue(reflect.ValueOf(&v).Elem(), hashDepth) }, true
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

// encode returns the encoding of v, or 0 if enc is nil. Values are passed,
// not pointed to, so that no operation's value escapes to the heap.
//
//go:norace
func encode[T any](enc func(T) uint64, v T) uint64 {
	if enc == nil {
		return 0
	}
	return enc(v)
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
