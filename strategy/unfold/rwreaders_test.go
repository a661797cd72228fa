// Tests of the reduction of readers of an RWMutex: each takes its thread's
// copy, so that readers' operations commute.

package unfold_test

import (
	"testing"

	"github.com/weft-go/weft"
	"github.com/weft-go/weft/internal/long"
	"github.com/weft-go/weft/strategy/unfold"
)

// rwProgram: readers threads each RLock, load x, RUnlock; writers threads
// each Lock, store x, Unlock.
func rwProgram(readers, writers int) func(*weft.T) {
	return func(w *weft.T) {
		var mu weft.RWMutex
		x := weft.NewVar[int]("x")
		for range readers {
			w.Go(func() { mu.RLock(); _ = x.Load(); mu.RUnlock() })
		}
		for i := range writers {
			w.Go(func() { mu.Lock(); x.Store(i); mu.Unlock() })
		}
	}
}

// TestRWReaders pins the events and tests of readers and writers of an
// RWMutex, with the unfolding of every interleaving (efficient, naive and
// a random order). Readers alone take one test: their operations commute.
// With one place for the RWMutex's state, every operation taking it (before
// the copies), the numbers were, in order: 327 events and 90 tests, 149
// and 26, 71 and 10 (one reader: nothing commutes), 732 and 108; beyond
// exhaustive search, 3 readers and a writer 2499 and 462, 3 readers and 2
// writers 13587 and 2100 (17 s; 0.4 s now). Rows with 4 threads or more
// are long.
func TestRWReaders(t *testing.T) {
	for _, c := range []struct {
		readers, writers int
		events, tests    int
	}{
		{3, 0, 9, 1},
		{2, 1, 62, 9},
		{1, 2, 71, 10},
		{2, 2, 366, 50},
		{3, 1, 217, 27},
		{3, 2, 1897, 250},
	} {
		if !long.Enabled() && c.readers+c.writers > 3 {
			continue
		}
		body := rwProgram(c.readers, c.writers)
		if c.readers == 3 && c.writers > 0 {
			// Beyond exhaustive search: the same unfolding in another
			// order.
			r, s := explore(t, body, unfold.Options{})
			_, s2 := explore(t, body, unfold.Options{Seed: 3})
			if d := unfold.Diff(unfold.AnonSignatures(s2), unfold.AnonSignatures(s), "seed 3", "default"); d != "" || s.Stats().Events != c.events || r.Executions != c.tests {
				t.Errorf("%d readers, %d writers: %d events, %d tests; want %d, %d\n%s", c.readers, c.writers, s.Stats().Events, r.Executions, c.events, c.tests, d)
			}
			continue
		}
		st, _, ok := againstExhaustive(t, "rw", body, unfold.Options{}, unfold.Options{Naive: true}, unfold.Options{Seed: 3})
		if !ok {
			t.Fatalf("%d readers, %d writers: too big for exhaustive search", c.readers, c.writers)
		}
		if st.Events != c.events || st.Tests != c.tests {
			t.Errorf("%d readers, %d writers: %d events, %d tests; want %d, %d", c.readers, c.writers, st.Events, st.Tests, c.events, c.tests)
		}
	}
}

// BenchmarkRWReaders explores 3 readers and 2 writers of an RWMutex
// (TestRWReaders' last row: 1897 events, 250 tests), the path of the
// readers' and writers' copies.
func BenchmarkRWReaders(b *testing.B) {
	body := rwProgram(3, 2)
	for b.Loop() {
		s := unfold.New(unfold.Options{})
		r, err := weft.Explore(body, weft.WithCustomStrategy(s), weft.NoReplayFiles())
		if err != nil || s.Stats().Events != 1897 || r.Executions != 250 {
			b.Fatalf("%v: %d events, %d tests; want 1897, 250", err, s.Stats().Events, r.Executions)
		}
	}
}
