package corpus

import (
	"sync"
	"sync/atomic"
	"testing"
)

// exclusion runs two goroutines in the critical section of l and checks
// that they are never both inside.
func exclusion(t *testing.T, l sync.Locker) {
	var inside atomic.Int32
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			l.Lock()
			if inside.Add(1) != 1 {
				t.Error("two goroutines hold the lock") // want TestSpinLockBug: assertion
			}
			inside.Add(-1)
			l.Unlock()
		}()
	}
	wg.Wait()
}

func TestSpinLockBug(t *testing.T) { exclusion(t, &SpinLockBug{}) }

func TestSpinLockFixed(t *testing.T) { exclusion(t, &SpinLock{}) }
