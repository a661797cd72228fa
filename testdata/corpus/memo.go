package corpus

import (
	"sync"
	"sync/atomic"
)

// MemoBug memoises a computation in a sync.Map, it says: a miss loads,
// computes and stores, so two callers that miss together both compute.
type MemoBug struct {
	values   sync.Map
	computed atomic.Int32
}

// Get returns key's value, computing it on a miss.
func (m *MemoBug) Get(key string) int {
	if v, ok := m.values.Load(key); ok {
		return v.(int)
	}
	m.computed.Add(1)
	v := len(key)
	m.values.Store(key, v)
	return v
}

// Memo stores one entry per key with LoadOrStore, and the entry computes
// its value once.
type Memo struct {
	values   sync.Map
	computed atomic.Int32
}

// memoEntry is a key's value, computed by the first caller.
type memoEntry struct {
	once  sync.Once
	value int
}

// Get returns key's value, computing it on the first call for key.
func (m *Memo) Get(key string) int {
	e, _ := m.values.LoadOrStore(key, new(memoEntry))
	entry := e.(*memoEntry)
	entry.once.Do(func() {
		m.computed.Add(1)
		entry.value = len(key)
	})
	return entry.value
}
