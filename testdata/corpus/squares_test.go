//go:build go1.21

// This file is of Go version 1.21: a for loop has one variable for all
// its iterations, which parallel subtests see after the loop ended.

package corpus

import "testing"

var squareTests = []struct {
	name string
	xs   []int
	want int
}{
	{"one", []int{3}, 9},
	{"three", []int{1, 2, 3}, 14},
}

func TestSumSquaresBug(t *testing.T) {
	for _, tc := range squareTests {
		t.Run(tc.name, func(t *testing.T) {
			if got := SumSquaresBug(tc.xs); got != tc.want {
				t.Errorf("SumSquaresBug(%v) = %d, want %d", tc.xs, got, tc.want) // want TestSumSquaresBug/three: assertion
			}
		})
	}
}

// TestSumSquaresFixed's subtests are parallel: they run once the loop has
// ended, so each needs a variable of its own.
func TestSumSquaresFixed(t *testing.T) {
	for _, tc := range squareTests {
		tc := tc
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if got := SumSquares(tc.xs); got != tc.want {
				t.Errorf("SumSquares(%v) = %d, want %d", tc.xs, got, tc.want)
			}
		})
	}
}
