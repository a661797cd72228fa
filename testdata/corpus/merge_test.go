package corpus

import "testing"

func source(v int) <-chan int {
	c := make(chan int)
	go func() {
		c <- v
		close(c)
	}()
	return c
}

func TestMergeBug(t *testing.T) {
	if sum := MergeBug(source(1), source(2)); sum != 3 {
		t.Errorf("sum %d, want 3", sum) // want TestMergeBug: assertion
	}
}

func TestMergeFixed(t *testing.T) {
	if sum := Merge(source(1), source(2)); sum != 3 {
		t.Errorf("sum %d, want 3", sum)
	}
}
