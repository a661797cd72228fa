// Differential tests: the unfolding unfold builds is the complete
// unfolding that exhaustive search's executions give, with the efficient
// and the naive possible extensions, whatever the random order.

package unfold

import (
	"testing"

	"github.com/weft-go/weft/internal/long"
	"github.com/weft-go/weft/strategy/strategytest"
)

// TestGenerated compares, on generated programs, the unfolding of unfold
// (efficient, naive, random orders) with the unfolding of every
// interleaving: 60 programs (300 with WEFT_LONG=1).
func TestGenerated(t *testing.T) {
	t.Parallel()
	programs := 300
	if !long.Enabled() {
		programs = 60
	}
	checked := 0
	for seed := uint64(0); checked < programs && seed < 100000; seed++ {
		p, ok := strategytest.Generate(seed)
		if !ok {
			continue
		}
		obs := newObserver()
		r, err := strategytest.Run(obs, p, 3000)
		if err != nil || !r.Exhausted {
			continue // too big for exhaustive search
		}
		if obs.u.err != nil {
			t.Fatalf("seed %d: observer: %v", seed, obs.u.err)
		}
		checked++
		want := obs.u.signatures()
		for _, o := range []Options{{}, {Naive: true}, {Seed: 1}, {Seed: 2, Plain: true}} {
			if o.Naive && len(want) > 300 {
				continue // the naive computation tries too many sets
			}
			s := New(o)
			r, err := strategytest.Run(s, p, 10000)
			if err != nil {
				t.Fatalf("seed %d %+v: %v", seed, o, err)
			}
			if s.Err() != nil || !r.Exhausted {
				t.Fatalf("seed %d %+v: %v (exhausted %v)\n%v", seed, o, s.Err(), r.Exhausted, p)
			}
			got := s.signatures()
			if st := s.Stats(); len(got) != len(want) || st.Unexpected != 0 || d(got, want) != "" {
				t.Errorf("seed %d %+v: %d events, want %d; %d unexpected\n%s\n%v", seed, o, len(got), len(want), st.Unexpected, diff(got, want, "unfold", "exhaustive"), p)
			}
		}
	}
	if checked < programs {
		t.Errorf("checked %d programs, want %d", checked, programs)
	}
}

func d(a, b map[uint64]string) string { return diff(a, b, "a", "b") }
