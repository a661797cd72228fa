package corpus

import "testing"

func dispatch(t *testing.T, d func([]chan int, []int, <-chan struct{}) int) {
	workers := []chan int{make(chan int), make(chan int)}
	done := make(chan int, len(workers))
	for _, w := range workers {
		go func() { done <- <-w }()
	}
	stop := make(chan struct{})
	defer close(stop)
	if sent := d(workers, []int{1, 2}, stop); sent != 2 {
		t.Errorf("%d jobs sent, want 2", sent) // want TestDispatchBug: assertion
	}
	if a, b := <-done, <-done; a+b != 3 {
		t.Errorf("the workers got %d and %d", a, b)
	}
}

func TestDispatchBug(t *testing.T) { dispatch(t, DispatchBug) }

func TestDispatchFixed(t *testing.T) { dispatch(t, Dispatch) }
