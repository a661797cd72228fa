package gosem

import (
	"sync"
	"sync/atomic"
	"testing"
)

// hits is a counter that one goroutine adds to atomically and another
// resets with a plain store: a data race under Go's memory model.
type hits struct{ n int64 }

func TestAtomicPlainRace(t *testing.T) {
	var h hits
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		atomic.AddInt64(&h.n, 1)
	}()
	h.n = 0
	wg.Wait()
}

// TestRaceThenLeak races a plain write with an atomic add, and then
// leaves the adding goroutine blocked: the race is the failure.
func TestRaceThenLeak(t *testing.T) {
	var h hits
	block := make(chan bool)
	go func() {
		atomic.AddInt64(&h.n, 1)
		<-block
	}()
	h.n = 2
}
