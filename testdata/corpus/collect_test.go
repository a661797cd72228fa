package corpus

import (
	"strings"
	"testing"
)

func collectTwo(t *testing.T, collect func([]string, func(string) string) []string) {
	got := collect([]string{"a", "b"}, strings.ToUpper)
	if len(got) != 2 {
		t.Errorf("collected %v, want 2 results", got) // want TestCollectAllBug: assertion
	}
}

func TestCollectAllBug(t *testing.T) { collectTwo(t, CollectAllBug) }

func TestCollectAllFixed(t *testing.T) { collectTwo(t, CollectAll) }
