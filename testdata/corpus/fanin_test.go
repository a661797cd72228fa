package corpus

import "testing"

func TestCollectBug(t *testing.T) {
	if got := CollectBug([]int{1, 2}); got != 5 {
		t.Errorf("got %d, want 5", got)
	}
}

func TestCollectFixed(t *testing.T) {
	if got := Collect([]int{1, 2}); got != 5 {
		t.Errorf("got %d, want 5", got)
	}
}
