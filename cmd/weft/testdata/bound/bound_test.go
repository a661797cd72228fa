// Package bound holds tests whose executions reach weft test's step bound
// (-max-steps 2000): a long loop that ends, an endless spin of two
// goroutines, and a test with a real failure besides a spin.
package bound

import (
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
)

// TestLongLoop adds to a counter 5,000 times, and ends: each add is a
// step of its own, with a new value, so its last steps repeat no cycle.
func TestLongLoop(t *testing.T) {
	var n atomic.Int64
	done := make(chan bool)
	go func() {
		for range 5000 {
			n.Add(1)
		}
		done <- true
	}()
	<-done
	if n.Load() != 5000 {
		t.Errorf("n = %d, want 5000", n.Load())
	}
}

// TestSpin starts two goroutines that each wait, yielding, for a flag
// that nobody sets: it never ends, and its last steps repeat a cycle.
func TestSpin(t *testing.T) {
	var mu sync.Mutex
	stop := false
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				mu.Lock()
				s := stop
				mu.Unlock()
				if s {
					return
				}
				runtime.Gosched()
			}
		}()
	}
	wg.Wait()
}

// TestFailAndSpin spins for ever, taking a lock to read a variable that
// nobody sets, if it reads the flag before the goroutine sets it, and
// fails if it reads it after.
func TestFailAndSpin(t *testing.T) {
	var flag atomic.Int32
	var mu sync.Mutex
	stop := false
	done := make(chan bool, 1)
	go func() {
		flag.Store(1)
		done <- true
	}()
	if flag.Load() == 0 {
		for {
			mu.Lock()
			s := stop
			mu.Unlock()
			if s {
				break
			}
			runtime.Gosched()
		}
	}
	<-done
	t.Error("the goroutine set the flag first")
}
