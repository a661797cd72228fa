package corpus

import "testing"

func dispatch(t *testing.T, d func([]chan Job, []int, <-chan struct{}) int) {
	workers := []chan Job{make(chan Job), make(chan Job)}
	done := make(chan Job, len(workers))
	for _, w := range workers {
		go func() { done <- <-w }()
	}
	stop := make(chan struct{})
	defer close(stop)
	if sent := d(workers, []int{1, 2}, stop); sent != 2 {
		t.Errorf("%d jobs sent, want 2", sent) // want TestDispatchBug: assertion
	}
	if a, b := <-done, <-done; a.ID+b.ID != 3 || a.Shard == b.Shard {
		t.Errorf("the workers got %+v and %+v", a, b)
	}
}

func TestDispatchBug(t *testing.T) { dispatch(t, DispatchBug) }

func TestDispatchFixed(t *testing.T) { dispatch(t, Dispatch) }
