package corpus

import "testing"

func TestProcessBug(t *testing.T) {
	if err := ProcessBug([]int{1, -1}); err == nil {
		t.Error("no error for a negative item")
	}
}

func TestProcessFixed(t *testing.T) {
	if err := Process([]int{1, -1}); err == nil {
		t.Error("no error for a negative item")
	}
}
