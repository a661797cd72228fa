//go:build go1.21

package gosem

import (
	"sync"
	"testing"
)

// TestMapRangeOld is TestMapRange in a file of Go version 1.21, which
// has no range over functions and one variable for a whole loop: each
// goroutine takes its own copies of the loop's variables.
func TestMapRangeOld(t *testing.T) {
	chans := map[string]chan int{"a": make(chan int, 1), "bb": make(chan int, 1), "ccc": make(chan int, 1)}
	var wg sync.WaitGroup
	for name, ch := range chans {
		name, ch := name, ch
		wg.Add(1)
		go func() {
			defer wg.Done()
			ch <- len(name)
		}()
	}
	sum := 0
	for _, ch := range chans {
		sum += <-ch
	}
	wg.Wait()
	if sum != 6 {
		t.Fatalf("sum %d, want 6", sum)
	}
}
