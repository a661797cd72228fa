package corpus

import "testing"

func TestEmitBug(t *testing.T) {
	events := make(chan int)
	go EmitBug(events, 3)
	for e := range events {
		if e == 1 {
			break // seen enough
		}
	}
}

func TestEmitFixed(t *testing.T) {
	events, stop := make(chan int), make(chan struct{})
	go Emit(events, stop, 3)
	for e := range events {
		if e == 1 {
			break // seen enough
		}
	}
	close(stop)
}
