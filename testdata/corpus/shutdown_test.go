package corpus

import (
	"sync"
	"testing"
)

func TestStopBug(t *testing.T) {
	s := &ServerBug{done: make(chan struct{})}
	var wg sync.WaitGroup
	for range 2 {
		wg.Go(s.Stop)
	}
	wg.Wait()
	<-s.done
}

func TestStopFixed(t *testing.T) {
	s := &Server{done: make(chan struct{})}
	var wg sync.WaitGroup
	for range 2 {
		wg.Go(s.Stop)
	}
	wg.Wait()
	<-s.done
}
