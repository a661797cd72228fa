package corpus

import (
	"sync"
	"testing"
)

func TestCacheBug(t *testing.T) {
	c := &CacheBug{values: map[string]int{}}
	var wg sync.WaitGroup
	wg.Go(func() { c.Get("k") })
	wg.Go(func() { c.Get("k") })
	wg.Wait()
	if c.computed != 1 {
		t.Errorf("computed %d times, want 1", c.computed) // want TestCacheBug: assertion
	}
}

func TestCacheFixed(t *testing.T) {
	c := &Cache{values: map[string]int{}}
	var wg sync.WaitGroup
	wg.Go(func() { c.Get("k") })
	wg.Go(func() { c.Get("k") })
	wg.Wait()
	if c.computed != 1 {
		t.Errorf("computed %d times, want 1", c.computed)
	}
}
