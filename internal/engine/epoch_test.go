package engine

import (
	"testing"
	"time"
)

// TestNextEpoch checks the epoch of explorations: DefaultEpoch, midnight
// UTC on 1 January 2000, until the program reads a later wall clock
// outside executions, then the latest instant read.
func TestNextEpoch(t *testing.T) {
	saved := wallSeen.Load()
	defer wallSeen.Store(saved)
	wallSeen.Store(0)
	if want := time.Date(2000, time.January, 1, 0, 0, 0, 0, time.UTC).UnixNano(); DefaultEpoch != want {
		t.Fatalf("DefaultEpoch = %d, want %d", DefaultEpoch, want)
	}
	now := time.Date(2026, time.November, 29, 12, 0, 0, 5, time.UTC).UnixNano()
	for _, c := range []struct {
		saw  int64
		want int64
	}{
		{0, DefaultEpoch},
		{DefaultEpoch - 1, DefaultEpoch}, // a clock set before 2000
		{now, now},
		{now - 1, now}, // never back
		{now + 3, now + 3},
	} {
		if c.saw != 0 {
			SawWallClock(c.saw)
		}
		if got := NextEpoch(); got != c.want {
			t.Errorf("after SawWallClock(%d): NextEpoch() = %d, want %d", c.saw, got, c.want)
		}
	}
	if got := (&Exec{}).Epoch(); got != DefaultEpoch {
		t.Errorf("Epoch() of an Exec without one = %d, want DefaultEpoch", got)
	}
	if got := (&Exec{cfg: Config{Epoch: now}}).Epoch(); got != now {
		t.Errorf("Epoch() = %d, want Config.Epoch %d", got, now)
	}
}
