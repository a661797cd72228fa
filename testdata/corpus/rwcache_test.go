package corpus

import (
	"sync"
	"testing"
)

// stats is what both versions implement.
type stats interface {
	Add(k string, n int)
	Total(ks ...string) int
}

// statsTests runs Total alone, then with writers, in nested subtests.
func statsTests(t *testing.T, mk func() stats) {
	t.Run("alone", func(t *testing.T) {
		s := mk()
		s.Add("a", 1)
		if got := s.Total("a", "b"); got != 1 {
			t.Errorf("Total = %d, want 1", got)
		}
	})
	t.Run("concurrent", func(t *testing.T) {
		for _, writers := range []struct {
			name string
			n    int
		}{{"one writer", 1}} {
			t.Run(writers.name, func(t *testing.T) {
				s := mk()
				var wg sync.WaitGroup
				for range writers.n {
					wg.Go(func() { s.Add("a", 1) })
				}
				if got := s.Total("a"); got > writers.n {
					t.Errorf("Total = %d, more than %d writes", got, writers.n)
				}
				wg.Wait()
			})
		}
	})
}

func TestStatsBug(t *testing.T) { statsTests(t, func() stats { return &StatsBug{} }) }

func TestStatsFixed(t *testing.T) { statsTests(t, func() stats { return &Stats{} }) }
