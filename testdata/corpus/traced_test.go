package corpus

import (
	"slices"
	"testing"
)

func tracedTest(t *testing.T, run func([]string) []string) {
	spans := run([]string{"parse", "store"})
	slices.Sort(spans)
	if !slices.Equal(spans, []string{"parse", "store"}) {
		t.Errorf("spans %q", spans)
	}
}

func TestTracedBug(t *testing.T) { tracedTest(t, TracedBug) }

func TestTracedFixed(t *testing.T) { tracedTest(t, Traced) }
