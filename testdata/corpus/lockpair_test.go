package corpus

import (
	"sync"
	"testing"
)

func lockPairs(t *testing.T, lockPair func(a, b *sync.Mutex, f func())) {
	var a, b sync.Mutex
	var wg sync.WaitGroup
	n := 0
	for range 2 {
		wg.Go(func() { lockPair(&a, &b, func() { n++ }) })
	}
	wg.Wait()
	if n != 2 {
		t.Errorf("n = %d, want 2", n)
	}
}

func TestLockPairBug(t *testing.T) { lockPairs(t, LockPairBug) }

func TestLockPairFixed(t *testing.T) { lockPairs(t, LockPair) }
