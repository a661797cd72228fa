package corpus

import (
	"errors"
	"sync"
)

// StoreBug's Put unlocks in its error path and in a deferred call.
type StoreBug struct {
	mu   sync.Mutex
	data map[string]string
}

// Put stores v under k, refusing an empty key.
func (s *StoreBug) Put(k, v string) error {
	s.mu.Lock()
	defer s.mu.Unlock() // want TestStoreBug: unlock of unlocked mutex
	if k == "" {
		s.mu.Unlock()
		return errors.New("empty key")
	}
	s.data[k] = v
	return nil
}

// Store unlocks once.
type Store struct {
	mu   sync.Mutex
	data map[string]string
}

// Put stores v under k, refusing an empty key.
func (s *Store) Put(k, v string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if k == "" {
		return errors.New("empty key")
	}
	s.data[k] = v
	return nil
}
