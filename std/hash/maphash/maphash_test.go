package maphash_test

import (
	"hash/maphash"
	"maps"
	"slices"
	"testing"

	"github.com/weft-go/weft/internal/stdtest"
	wmaphash "github.com/weft-go/weft/std/hash/maphash"
)

// TestSeedsRepeat checks that inside an execution MakeSeed's seeds and a
// Hash used without SetSeed are the same in every execution, and differ
// from one another in one: a body of two goroutines racing on a channel,
// 2 executions, hashes "x" with two seeds of MakeSeed's, a zero Hash and
// a Hash set to the first seed (whose sum is the first's).
func TestSeedsRepeat(t *testing.T) {
	seen := map[[4]uint64]int{}
	r := stdtest.Explore(t, func() {
		stdtest.TwoExecutions()
		a, b := wmaphash.MakeSeed(), wmaphash.MakeSeed()
		var zero, set wmaphash.Hash
		zero.WriteString("x")
		set.SetSeed(a)
		set.WriteString("x")
		seen[[4]uint64{wmaphash.String(a, "x"), wmaphash.String(b, "x"), zero.Sum64(), set.Sum64()}]++
	})
	if r.Failed() || r.Executions != 2 || len(seen) != 1 {
		t.Fatalf("%d executions, failures %v, hashes %v; want 2, none, the same in both", r.Executions, r.Failures, seen)
	}
	h := slices.Collect(maps.Keys(seen))[0]
	if h[0] == h[1] || h[0] == h[2] || h[1] == h[2] || h[3] != h[0] {
		t.Errorf("hashes of x %v: want three seeds apart, and the set Hash's the first seed's", h)
	}
}

// TestOutsideExecution checks that outside an execution the seeds are
// hash/maphash's: random, and a Hash's equal to Go's with its seed.
func TestOutsideExecution(t *testing.T) {
	a, b := wmaphash.MakeSeed(), wmaphash.MakeSeed()
	if a == b {
		t.Error("two seeds of MakeSeed outside an execution are equal")
	}
	var h wmaphash.Hash
	h.WriteString("x")
	if got, want := h.Sum64(), maphash.String(h.Seed(), "x"); got != want {
		t.Errorf("Sum64 %d, want hash/maphash's %d with the Hash's seed", got, want)
	}
	c, err := h.Clone()
	if err != nil || c.(*wmaphash.Hash).Sum64() != h.Sum64() {
		t.Errorf("Clone: %v, %v; want a Hash with the same sum", c, err)
	}
}
