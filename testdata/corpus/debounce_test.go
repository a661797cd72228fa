package corpus

import (
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

func debounce(t *testing.T, trigger func(f func()) func()) {
	var calls atomic.Int32
	fire := trigger(func() { calls.Add(1) })
	fire()
	var wg sync.WaitGroup
	wg.Go(fire)
	wg.Go(fire)
	wg.Wait()
	time.Sleep(time.Second)
	if n := calls.Load(); n != 1 {
		t.Errorf("f ran %d times, want once", n) // want TestDebouncerBug: assertion // want -time any TestDebouncerFixed: assertion
	}
}

func TestDebouncerBug(t *testing.T) {
	debounce(t, func(f func()) func() {
		d := &DebouncerBug{quiet: 100 * time.Millisecond, f: f}
		return d.Trigger
	})
}

func TestDebouncerFixed(t *testing.T) {
	debounce(t, func(f func()) func() {
		d := &Debouncer{quiet: 100 * time.Millisecond, f: f}
		return d.Trigger
	})
}
