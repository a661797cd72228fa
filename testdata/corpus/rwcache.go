package corpus

import "sync"

// StatsBug holds counters read far more often than written. Total read
// locks, then calls Get, which read locks again: a writer that waits in
// between blocks the second read lock, and the writer waits for the first.
type StatsBug struct {
	mu     sync.RWMutex
	counts map[string]int
}

// Add adds n to counter k.
func (s *StatsBug) Add(k string, n int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.counts == nil {
		s.counts = map[string]int{}
	}
	s.counts[k] += n
}

// Get returns counter k.
func (s *StatsBug) Get(k string) int {
	s.mu.RLock() // want TestStatsBug/concurrent/one_writer: deadlock
	defer s.mu.RUnlock()
	return s.counts[k]
}

// Total returns the sum of counters ks.
func (s *StatsBug) Total(ks ...string) int {
	s.mu.RLock()
	defer s.mu.RUnlock()
	sum := 0
	for _, k := range ks {
		sum += s.Get(k)
	}
	return sum
}

// Stats reads the counters under the one read lock Total holds.
type Stats struct {
	mu     sync.RWMutex
	counts map[string]int
}

// Add adds n to counter k.
func (s *Stats) Add(k string, n int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.counts == nil {
		s.counts = map[string]int{}
	}
	s.counts[k] += n
}

// Get returns counter k.
func (s *Stats) Get(k string) int {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.counts[k]
}

// Total returns the sum of counters ks.
func (s *Stats) Total(ks ...string) int {
	s.mu.RLock()
	defer s.mu.RUnlock()
	sum := 0
	for _, k := range ks {
		sum += s.counts[k]
	}
	return sum
}
