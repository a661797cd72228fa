package corpus

import (
	"sync"
	"testing"
)

func TestMemoBug(t *testing.T) {
	var m MemoBug
	var wg sync.WaitGroup
	wg.Go(func() { m.Get("k") })
	wg.Go(func() { m.Get("k") })
	wg.Wait()
	if n := m.computed.Load(); n != 1 {
		t.Errorf("computed %d times, want 1", n) // want TestMemoBug: assertion
	}
}

func TestMemoFixed(t *testing.T) {
	var m Memo
	var wg sync.WaitGroup
	wg.Go(func() { m.Get("k") })
	wg.Go(func() { m.Get("k") })
	wg.Wait()
	if n := m.computed.Load(); n != 1 || m.Get("k") != 1 {
		t.Errorf("computed %d times, want 1", n)
	}
}
