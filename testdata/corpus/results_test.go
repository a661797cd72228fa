package corpus

import "testing"

func squareTwo(t *testing.T, squareAll func([]int) []int) {
	for _, sq := range squareAll([]int{2, 3}) {
		if sq != 4 && sq != 9 {
			t.Errorf("square %d, want 4 or 9", sq)
		}
	}
}

func TestSquareAllBug(t *testing.T) { squareTwo(t, SquareAllBug) }

func TestSquareAllFixed(t *testing.T) { squareTwo(t, SquareAll) }
