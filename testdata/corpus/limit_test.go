package corpus

import "testing"

func runThree(t *testing.T, runLimited func([]string, func(string) error)) {
	ran := 0
	runLimited([]string{"", "", "c"}, func(string) error {
		ran++
		return nil
	})
	if ran != 1 {
		t.Errorf("%d jobs ran, want 1", ran)
	}
}

func TestRunLimitedBug(t *testing.T) { runThree(t, RunLimitedBug) }

func TestRunLimitedFixed(t *testing.T) { runThree(t, RunLimited) }
