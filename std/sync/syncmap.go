// This file implements the stand-in of sync.Map: inside an execution, a
// map of the execution's own whose every operation is one step on a weft
// variable standing for the whole map, so that weft orders the operations
// of different threads and explores their orders.

package sync

import (
	"cmp"
	"fmt"
	"slices"
	"sync"
	"unsafe"

	"github.com/weft-go/weft"
	"github.com/weft-go/weft/internal/shim"
)

// Map is sync.Map. Inside an execution each method is one step of the
// calling thread on a variable that stands for the map: Load and Range
// read it, the methods that may change the map add one to it, so that
// weft explores the orders of a change and the operations of other
// threads on the same map, and lets reads commute. Reports show the steps
// as a load or an add of "sync.Map x" (x the expression weft test's
// rewriting names it by, WeftName) or sync.Map#n (the n-th map the
// execution used),
// the value being the count of changes so far.
//
// Each execution starts from the contents the map had outside the
// executions (filled in init or TestMain, say), taken when the execution
// first uses it, and its changes are its own: they are gone when the next
// execution starts, as the state of every stand-in is. Range visits the
// entries in the order they were stored (the contents from outside sorted
// by their printed keys), one order among those sync.Map allows, the same
// in every execution and replay.
type Map struct {
	r    sync.Map
	name string // WeftName
}

// mapState is a Map in one execution: the step variable and the entries,
// in the order they were stored.
type mapState struct {
	steps   *weft.Int[uint64]
	index   map[any]int // key -> position in entries
	entries []mapEntry
}

// mapEntry is an entry of a mapState; a deleted one is not live.
type mapEntry struct {
	key, value any
	live       bool
}

// mapCount keys, in the shim table, the number of Maps the execution has
// used, which names them.
var mapCount byte

// state returns m's state in the current execution, made on its first use
// there from m's contents outside the executions.
//
//go:norace
func (m *Map) state() *mapState {
	return shim.Lookup(unsafe.Pointer(m), func() *mapState {
		n := shim.Lookup(unsafe.Pointer(&mapCount), func() *int { return new(int) })
		*n++
		s := &mapState{steps: new(weft.Int[uint64]), index: map[any]int{}}
		if m.name != "" {
			s.steps.SetName(m.name)
		} else {
			s.steps.SetName(fmt.Sprintf("sync.Map#%d", *n))
		}
		// Read by the thread itself: only the first use in an execution
		// reads the real map, and reads race with no read.
		var outside []mapEntry
		m.r.Range(func(k, v any) bool {
			outside = append(outside, mapEntry{k, v, true})
			return true
		})
		slices.SortFunc(outside, func(a, b mapEntry) int {
			return compareKeys(a.key, b.key)
		})
		for _, e := range outside {
			s.put(e.key, e.value)
		}
		return s
	})
}

// compareKeys orders two keys by their printed form, then by type.
func compareKeys(a, b any) int {
	if c := cmp.Compare(fmt.Sprint(a), fmt.Sprint(b)); c != 0 {
		return c
	}
	return cmp.Compare(fmt.Sprintf("%T", a), fmt.Sprintf("%T", b))
}

// read is the step of an operation that only reads the map.
func (s *mapState) read() { s.steps.Load() }

// change is the step of an operation that may change the map.
func (s *mapState) change() { s.steps.Add(1) }

// The index is a Go map, which the runtime's race checks watch: the
// threads touch it in turn, ordered by weft, and through shim.Hidden, so
// that weft test -race does not take their turns for a race of the
// program's.

// find returns the position of key k among the entries.
func (s *mapState) find(k any) (i int, ok bool) {
	shim.Hidden(func() { i, ok = s.index[k] })
	return i, ok
}

// get returns the value of key k.
func (s *mapState) get(k any) (any, bool) {
	if i, ok := s.find(k); ok {
		return s.entries[i].value, true
	}
	return nil, false
}

// put sets key k to v, as the last entry if k is new.
func (s *mapState) put(k, v any) {
	if i, ok := s.find(k); ok {
		s.entries[i].value = v
		return
	}
	n := len(s.entries)
	shim.Hidden(func() { s.index[k] = n })
	s.entries = append(s.entries, mapEntry{k, v, true})
}

// remove deletes key k.
func (s *mapState) remove(k any) {
	if i, ok := s.find(k); ok {
		s.entries[i] = mapEntry{}
		shim.Hidden(func() { delete(s.index, k) })
	}
}

// Load returns the value stored in the map for a key, or nil if no value
// is present. The ok result indicates whether value was found in the map.
func (m *Map) Load(key any) (value any, ok bool) {
	if !shim.Active() {
		return m.r.Load(key)
	}
	s := m.state()
	s.read()
	return s.get(key)
}

// Store sets the value for a key.
func (m *Map) Store(key, value any) {
	if !shim.Active() {
		m.r.Store(key, value)
		return
	}
	s := m.state()
	s.change()
	s.put(key, value)
}

// LoadOrStore returns the existing value for the key if present.
// Otherwise, it stores and returns the given value. The loaded result is
// true if the value was loaded, false if stored.
func (m *Map) LoadOrStore(key, value any) (actual any, loaded bool) {
	if !shim.Active() {
		return m.r.LoadOrStore(key, value)
	}
	s := m.state()
	s.change()
	if v, ok := s.get(key); ok {
		return v, true
	}
	s.put(key, value)
	return value, false
}

// LoadAndDelete deletes the value for a key, returning the previous value
// if any. The loaded result reports whether the key was present.
func (m *Map) LoadAndDelete(key any) (value any, loaded bool) {
	if !shim.Active() {
		return m.r.LoadAndDelete(key)
	}
	s := m.state()
	s.change()
	value, loaded = s.get(key)
	s.remove(key)
	return value, loaded
}

// Delete deletes the value for a key.
func (m *Map) Delete(key any) {
	if !shim.Active() {
		m.r.Delete(key)
		return
	}
	s := m.state()
	s.change()
	s.remove(key)
}

// Swap swaps the value for a key and returns the previous value if any.
// The loaded result reports whether the key was present.
func (m *Map) Swap(key, value any) (previous any, loaded bool) {
	if !shim.Active() {
		return m.r.Swap(key, value)
	}
	s := m.state()
	s.change()
	previous, loaded = s.get(key)
	s.put(key, value)
	return previous, loaded
}

// CompareAndSwap swaps the old and new values for key if the value stored
// in the map is equal to old. The old value must be of a comparable type.
func (m *Map) CompareAndSwap(key, old, new any) (swapped bool) {
	if !shim.Active() {
		return m.r.CompareAndSwap(key, old, new)
	}
	s := m.state()
	s.change()
	if v, ok := s.get(key); ok && v == old {
		s.put(key, new)
		return true
	}
	return false
}

// CompareAndDelete deletes the entry for key if its value is equal to old.
// The old value must be of a comparable type. If there is no current value
// for key in the map, CompareAndDelete returns false.
func (m *Map) CompareAndDelete(key, old any) (deleted bool) {
	if !shim.Active() {
		return m.r.CompareAndDelete(key, old)
	}
	s := m.state()
	s.change()
	if v, ok := s.get(key); ok && v == old {
		s.remove(key)
		return true
	}
	return false
}

// Range calls f sequentially for each key and value present in the map.
// If f returns false, range stops the iteration. Inside an execution the
// map is read in one step, before the first call of f; as with sync.Map,
// the calls see no consistent snapshot if f changes the map.
func (m *Map) Range(f func(key, value any) bool) {
	if !shim.Active() {
		m.r.Range(f)
		return
	}
	s := m.state()
	s.read()
	for i := 0; i < len(s.entries); i++ {
		if e := s.entries[i]; e.live && !f(e.key, e.value) {
			return
		}
	}
}

// Clear deletes all the entries, resulting in an empty Map.
func (m *Map) Clear() {
	if !shim.Active() {
		m.r.Clear()
		return
	}
	s := m.state()
	s.change()
	shim.Hidden(func() { clear(s.index) })
	s.entries = s.entries[:0]
}
