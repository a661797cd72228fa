package corpus

import (
	"sync"
	"testing"
)

func TestConfigBug(t *testing.T) {
	var c ConfigBug
	var wg sync.WaitGroup
	wg.Go(c.Get)
	wg.Go(c.Get)
	wg.Wait()
	if n := c.loads.Load(); n != 1 {
		t.Errorf("loaded %d times, want 1", n) // want TestConfigBug: assertion
	}
}

func TestConfigFixed(t *testing.T) {
	var c Config
	var wg sync.WaitGroup
	wg.Go(c.Get)
	wg.Go(c.Get)
	wg.Wait()
	if n := c.loads.Load(); n != 1 {
		t.Errorf("loaded %d times, want 1", n)
	}
}
