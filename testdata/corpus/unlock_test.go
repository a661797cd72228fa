package corpus

import "testing"

func TestStoreBug(t *testing.T) {
	s := &StoreBug{data: map[string]string{}}
	done := make(chan error)
	go func() { done <- s.Put("", "x") }()
	if err := <-done; err == nil {
		t.Error("no error for an empty key")
	}
}

func TestStoreFixed(t *testing.T) {
	s := &Store{data: map[string]string{}}
	done := make(chan error)
	go func() { done <- s.Put("", "x") }()
	if err := <-done; err == nil {
		t.Error("no error for an empty key")
	}
}
