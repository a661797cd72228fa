package corpus

import (
	"testing"
	"time"
)

func gathers(t *testing.T, gather func(time.Duration) []int) {
	if got := gather(time.Second); len(got) > 1 {
		t.Errorf("gather = %v, want at most one reading", got)
	}
}

func TestGatherBug(t *testing.T) { gathers(t, GatherBug) }

func TestGatherFixed(t *testing.T) { gathers(t, Gather) }
