package corpus

import "sync"

// RegistryBug's Names read-locks and calls Len, which read-locks again: a
// writer waiting between the two blocks the second RLock, and the writer
// waits for the first.
type RegistryBug struct {
	mu    sync.RWMutex
	names []string
}

// Add adds a name.
func (r *RegistryBug) Add(n string) {
	r.mu.Lock()
	r.names = append(r.names, n)
	r.mu.Unlock()
}

// Len returns the number of names.
func (r *RegistryBug) Len() int {
	r.mu.RLock() // want TestRegistryBug: deadlock
	defer r.mu.RUnlock()
	return len(r.names)
}

// Names returns a copy of the names.
func (r *RegistryBug) Names() []string {
	r.mu.RLock()
	defer r.mu.RUnlock()
	out := make([]string, 0, r.Len())
	return append(out, r.names...)
}

// Registry's Names does not lock twice.
type Registry struct {
	mu    sync.RWMutex
	names []string
}

// Add adds a name.
func (r *Registry) Add(n string) {
	r.mu.Lock()
	r.names = append(r.names, n)
	r.mu.Unlock()
}

// Names returns a copy of the names.
func (r *Registry) Names() []string {
	r.mu.RLock()
	defer r.mu.RUnlock()
	out := make([]string, 0, len(r.names))
	return append(out, r.names...)
}
