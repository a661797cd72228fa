package app

import (
	"testing"

	"example.com/pool"
)

func TestPoolBug(t *testing.T) {
	if got := SumSquares(pool.New(), 1, 2); got != 5 {
		t.Errorf("SumSquares(1, 2) = %d, want 5", got)
	}
}

func TestPoolFixed(t *testing.T) {
	if got := SumSquares(pool.NewFixed(), 1, 2); got != 5 {
		t.Errorf("SumSquares(1, 2) = %d, want 5", got)
	}
}
