package corpus

import "testing"

func TestSquaresBug(t *testing.T) {
	if got := SquaresBug([]int{1, 2}); len(got) != 2 {
		t.Fatalf("%d results, want 2", len(got)) // want TestSquaresBug: assertion
	}
}

func TestSquaresFixed(t *testing.T) {
	if got := Squares([]int{1, 2}); len(got) != 2 {
		t.Fatalf("%d results, want 2", len(got))
	}
}
