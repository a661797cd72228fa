package corpus

import (
	"testing"
	"time"
)

func answers(t *testing.T, ask func(time.Duration) (int, error)) {
	if v, err := ask(time.Second); err != nil && err != errTimeout || err == nil && v != 42 {
		t.Errorf("ask = %d, %v; want 42 or a timeout", v, err)
	}
}

func TestAnswerBug(t *testing.T) { answers(t, AnswerBug) }

func TestAnswerFixed(t *testing.T) { answers(t, Answer) }
