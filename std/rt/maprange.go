// This file implements Map and MapLoop: a range over a Go map whose
// order, inside an execution, is fixed by the execution's seed.

package rt

import (
	"cmp"
	"iter"
	"math"
	"reflect"
	"slices"

	"github.com/weft-go/weft/internal/shim"
	"github.com/weft-go/weft/trace"
)

// Map returns the pairs of m for a range over m (weft test rewrites
// for k, v := range m, over a map, to for k, v := range rt.Map(m)).
//
// Go visits a map's keys in an order that differs from one range to the
// next. Inside an execution Map visits them in the order of a hash of
// each key's contents mixed with the execution's seed (weft.WithSeed,
// weft test -seed; weft.WithVaryingSeed gives each execution its own):
// the same order in every execution with that seed, and in the replay of
// a failure, whatever the map's history (the order of its insertions).
// Keys that hold pointers or channels, whose contents are addresses, are
// ordered by their addresses among keys of equal other contents: the same
// from one execution to the next only as far as the allocator repeats
// itself. As in Go, a pair deleted during the range before it is reached
// is not visited, and a pair added during it is not (Go may or may not
// visit it). Outside an execution Map is Go's own range.
func Map[M ~map[K]V, K comparable, V any](m M) iter.Seq2[K, V] {
	return func(yield func(K, V) bool) {
		if len(m) == 0 {
			return
		}
		if !shim.Active() {
			for k, v := range m {
				if !yield(k, v) {
					return
				}
			}
			return
		}
		for _, p := range orderedPairs(m) {
			v, ok := p.current(m)
			if !ok {
				continue // deleted during the range
			}
			if !yield(p.k, v) {
				return
			}
		}
	}
}

// MapLoop starts a range over m in a file whose Go version lacks range
// over functions (before go1.23), where weft test rewrites
//
//	for k, v := range m {
//
// to
//
//	for weftM_, k, v := weftrt.MapLoop(m); ; { weftK_, weftV_, weftOK_ := weftM_.Next(); if !weftOK_ { break }; k, v = weftK_, weftV_;
//
// The loop's variables are declared by the loop's init statement, as a
// range declares them: one for the whole loop before go1.22, one per
// turn from go1.22 on. Its other results are the zero key and value,
// which declare them. It visits the pairs Map would, in Map's order;
// outside an execution, in the order of a range over m when MapLoop is
// called.
func MapLoop[M ~map[K]V, K comparable, V any](m M) (it *MapIter[K, V], zeroKey K, zeroValue V) {
	it = &MapIter[K, V]{m: m}
	if len(m) == 0 {
		return it, zeroKey, zeroValue
	}
	if !shim.Active() {
		it.pairs = make([]mapPair[K, V], 0, len(m))
		for k, v := range m {
			it.pairs = append(it.pairs, mapPair[K, V]{k: k, v: v})
		}
		return it, zeroKey, zeroValue
	}
	it.pairs = orderedPairs(m)
	return it, zeroKey, zeroValue
}

// MapIter is a range over a map that MapLoop started.
type MapIter[K comparable, V any] struct {
	m     map[K]V
	pairs []mapPair[K, V]
}

// Next returns the next pair of the range and true, or false once every
// pair has been visited. As in Go, a pair deleted before it is reached is
// not visited, and its value is the one the map holds when it is reached.
func (it *MapIter[K, V]) Next() (K, V, bool) {
	for len(it.pairs) > 0 {
		p := &it.pairs[0]
		it.pairs = it.pairs[1:]
		if v, ok := p.current(it.m); ok {
			return p.k, v, true
		}
	}
	var k K
	var v V
	return k, v, false
}

// orderedPairs returns the pairs of m, which is not empty, in the order
// of a hash of each key's contents mixed with the execution's seed (Map).
func orderedPairs[K comparable, V any](m map[K]V) []mapPair[K, V] {
	seed := trace.Mix(uint64(shim.Seed()) ^ 0x5bd1e995)
	pairs := make([]mapPair[K, V], 0, len(m))
	for k, v := range m {
		h, addr := keyHash(seed, reflect.ValueOf(&k).Elem())
		pairs = append(pairs, mapPair[K, V]{k: k, v: v, h: h, addr: addr})
	}
	slices.SortFunc(pairs, func(a, b mapPair[K, V]) int {
		if c := cmp.Compare(a.h, b.h); c != 0 {
			return c
		}
		return cmp.Compare(a.addr, b.addr)
	})
	return pairs
}

// mapPair is a pair of a map, with its key's hash and addresses.
type mapPair[K comparable, V any] struct {
	k    K
	v    V
	h    uint64 // keyHash's hash of the contents
	addr uint64 // keyHash's hash of the addresses
}

// current returns the value m holds for p's key now, and false if the
// key was deleted since the pairs were taken. A key that holds a NaN
// cannot be looked up: its value is the one taken.
func (p *mapPair[K, V]) current(m map[K]V) (V, bool) {
	if !equal(p.k, p.k) {
		return p.v, true
	}
	v, ok := m[p.k]
	return v, ok
}

// equal reports whether a == b: false for a key that holds a NaN.
func equal[K comparable](a, b K) bool { return a == b }

// keyHash returns a hash of the contents of v, a value of a comparable
// type, continuing h (numbers by their bits, strings by their bytes,
// arrays and structs by their elements, interfaces by their dynamic type
// and value, pointers and channels by whether they are nil), and a hash
// of the addresses it holds (0 if none).
func keyHash(h uint64, v reflect.Value) (content, addrs uint64) {
	mix := func(x uint64) { h = trace.Mix(h ^ trace.Mix(x)) }
	mix(uint64(v.Kind()))
	switch v.Kind() {
	case reflect.Bool:
		if v.Bool() {
			mix(1)
		}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		mix(uint64(v.Int()))
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		mix(v.Uint())
	case reflect.Float32, reflect.Float64:
		mix(math.Float64bits(v.Float()))
	case reflect.Complex64, reflect.Complex128:
		c := v.Complex()
		mix(math.Float64bits(real(c)))
		mix(math.Float64bits(imag(c)))
	case reflect.String:
		s := v.String()
		mix(uint64(len(s)))
		for i := 0; i+8 <= len(s); i += 8 {
			mix(uint64(s[i]) | uint64(s[i+1])<<8 | uint64(s[i+2])<<16 | uint64(s[i+3])<<24 |
				uint64(s[i+4])<<32 | uint64(s[i+5])<<40 | uint64(s[i+6])<<48 | uint64(s[i+7])<<56)
		}
		var tail uint64
		for i := len(s) &^ 7; i < len(s); i++ {
			tail = tail<<8 | uint64(s[i])
		}
		mix(tail)
	case reflect.Array:
		for i := range v.Len() {
			var a uint64
			h, a = keyHash(h, v.Index(i))
			addrs = trace.Mix(addrs ^ a)
		}
	case reflect.Struct:
		for i := range v.NumField() {
			var a uint64
			h, a = keyHash(h, v.Field(i))
			addrs = trace.Mix(addrs ^ a)
		}
	case reflect.Interface:
		if !v.IsNil() {
			e := v.Elem()
			for _, c := range e.Type().String() {
				mix(uint64(c))
			}
			var a uint64
			h, a = keyHash(h, e)
			addrs = trace.Mix(addrs ^ a)
		}
	case reflect.Pointer, reflect.Chan, reflect.UnsafePointer:
		if !v.IsNil() {
			mix(1)
			addrs = trace.Mix(addrs ^ uint64(v.Pointer()))
		}
	}
	return h, addrs
}
