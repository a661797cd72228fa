package gen_test

import (
	"testing"

	"github.com/weft-go/weft/internal/gen"
)

// TestDeterministic checks that a seed always gives the same program, and
// that programs respect the size bound.
func TestDeterministic(t *testing.T) {
	for seed := range uint64(50) {
		a, b := gen.New(seed), gen.New(seed)
		if a.String() != b.String() {
			t.Fatalf("seed %d: two different programs:\n%s\n%s", seed, a, b)
		}
		if n := a.Events(); n > gen.DefaultOptions.MaxEvents {
			t.Errorf("seed %d: %d steps, more than %d", seed, n, gen.DefaultOptions.MaxEvents)
		}
	}
	if gen.New(1).String() == gen.New(2).String() {
		t.Errorf("seeds 1 and 2 give the same program")
	}
}
