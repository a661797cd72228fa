package corpus

import (
	"sync"
	"testing"
)

func TestLatchBug(t *testing.T) {
	l := NewLatchBug()
	var wg sync.WaitGroup
	wg.Go(l.Await)
	wg.Go(l.Await)
	l.Release()
	wg.Wait()
}

func TestLatchFixed(t *testing.T) {
	l := NewLatch()
	var wg sync.WaitGroup
	wg.Go(l.Await)
	wg.Go(l.Await)
	l.Release()
	wg.Wait()
}
