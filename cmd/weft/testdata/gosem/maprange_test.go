package gosem

import (
	"sync"
	"testing"
)

// TestMapRange ranges over a map to start a goroutine per key, each of
// which sends on its key's channel, and again to receive from each.
func TestMapRange(t *testing.T) {
	chans := map[string]chan int{"a": make(chan int, 1), "bb": make(chan int, 1), "ccc": make(chan int, 1)}
	var wg sync.WaitGroup
	for name, ch := range chans {
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
