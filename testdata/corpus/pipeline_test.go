package corpus

import "testing"

func TestPipelineBug(t *testing.T) {
	if got := SumOfSquaresBug(1, 2); got != 5 {
		t.Errorf("got %d, want 5", got)
	}
}

func TestPipelineFixed(t *testing.T) {
	if got := SumOfSquares(1, 2); got != 5 {
		t.Errorf("got %d, want 5", got)
	}
}
