// This file implements ptrTable, the map from pointers to values that the
// tables of an execution use.

package shim

import "unsafe"

// ptrTable maps pointers to values, with open addressing over slices. It
// is not generic, so that its code is built with package shim's flags, not
// those of the package that instantiates it; and not a Go map, because the race detector checks a map's accesses even
// in code built without its instrumentation: under weft test -race the
// threads of an execution share the table with no order the detector
// sees (internal/engine/racesync.go), and a map would be reported.
type ptrTable struct {
	keys []unsafe.Pointer // nil: a free slot
	vals []any
	n    int
}

// slot returns the slot of p: the one that holds it, or the free one
// where it goes.
func (t *ptrTable) slot(p unsafe.Pointer) int {
	mask := len(t.keys) - 1
	// Fibonacci hashing of the address, whose low bits are alignment.
	i := int((uint64(uintptr(p))*0x9e3779b97f4a7c15)>>32) & mask
	for t.keys[i] != nil && t.keys[i] != p {
		i = (i + 1) & mask
	}
	return i
}

// get returns the value of p.
func (t *ptrTable) get(p unsafe.Pointer) (v any, ok bool) {
	if t.n == 0 {
		return v, false
	}
	i := t.slot(p)
	return t.vals[i], t.keys[i] != nil
}

// put sets the value of p, which must not be nil.
func (t *ptrTable) put(p unsafe.Pointer, v any) {
	if 2*(t.n+1) > len(t.keys) {
		t.grow()
	}
	i := t.slot(p)
	if t.keys[i] == nil {
		t.keys[i] = p
		t.n++
	}
	t.vals[i] = v
}

// grow doubles the table (at least 16 slots) and puts its entries back.
func (t *ptrTable) grow() {
	keys, vals := t.keys, t.vals
	size := max(16, 2*len(keys))
	t.keys, t.vals, t.n = make([]unsafe.Pointer, size), make([]any, size), 0
	for i, k := range keys {
		if k != nil {
			t.put(k, vals[i])
		}
	}
}

// eachEntry calls f with each key of the table and its value.
func (t *ptrTable) eachEntry(f func(p unsafe.Pointer, v any)) {
	if t.n == 0 {
		return
	}
	for i, k := range t.keys {
		if k != nil {
			f(k, t.vals[i])
		}
	}
}

// reset empties the table, keeping its slots.
func (t *ptrTable) reset() {
	if t.n > 0 {
		clear(t.keys)
		clear(t.vals)
		t.n = 0
	}
}
