package corpus

import "sync"

// CacheBug computes each key's value once, it says: the lookup and the
// insertion are two critical sections, and two callers both compute.
type CacheBug struct {
	mu       sync.Mutex
	values   map[string]int
	computed int
}

// Get returns key's value, computing it on a miss.
func (c *CacheBug) Get(key string) int {
	c.mu.Lock()
	v, ok := c.values[key]
	c.mu.Unlock()
	if ok {
		return v
	}
	v = len(key)
	c.mu.Lock()
	c.values[key] = v
	c.computed++
	c.mu.Unlock()
	return v
}

// Cache looks up and inserts in one critical section.
type Cache struct {
	mu       sync.Mutex
	values   map[string]int
	computed int
}

// Get returns key's value, computing it on a miss.
func (c *Cache) Get(key string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	if v, ok := c.values[key]; ok {
		return v
	}
	v := len(key)
	c.values[key] = v
	c.computed++
	return v
}
