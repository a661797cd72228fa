package corpus

import "testing"

func TestHandoffBug(t *testing.T) {
	if got := HandoffBug(21); got != 42 {
		t.Errorf("got %d", got)
	}
}

func TestHandoffFixed(t *testing.T) {
	if got := Handoff(21); got != 42 {
		t.Errorf("got %d", got)
	}
}
