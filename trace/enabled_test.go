// This file tests the record of the enabled sets: as changes, with marks,
// against the sets themselves.

package trace_test

import (
	"math/rand/v2"
	"testing"

	"github.com/weft-go/weft/trace"
)

// TestEnabledSets records random enabled sets of growing executions, by
// the whole set and by the changed threads, and reads each bit back
// through EnabledAt and an EnabledWalk.
func TestEnabledSets(t *testing.T) {
	for _, threads := range []int{3, 64, 100, 300} {
		rng := rand.New(rand.NewPCG(uint64(threads), 7))
		var byAll, byChanged trace.Trace
		var sets [][]bool
		for range 2 { // the second run reuses the memory of the first
			byAll.Reset()
			byChanged.Reset()
			sets = sets[:0]
			cur := make([]bool, threads)
			for step := range 400 {
				n := min(threads, 1+step) // threads start one per step
				var changed []trace.ThreadID
				for range rng.IntN(4) {
					p := rng.IntN(n)
					cur[p] = !cur[p]
					changed = append(changed, trace.ThreadID(p))
				}
				if step%50 == 0 {
					// A change that every thread sees, listed twice.
					for p := range n {
						cur[p] = p%3 == step%3
						changed = append(changed, trace.ThreadID(p), trace.ThreadID(p))
					}
				}
				set := make([]uint64, (n+63)/64)
				for p := range n {
					if cur[p] {
						set[p/64] |= 1 << (p % 64)
					}
				}
				byAll.AddEnabled(n, func(i int) bool { return cur[i] })
				byChanged.AddEnabledSet(set, changed)
				sets = append(sets, append([]bool(nil), cur[:n]...))
			}
		}
		for _, tr := range []*trace.Trace{&byAll, &byChanged} {
			w := tr.EnabledWalk()
			for i, set := range sets {
				for p := range threads + 1 {
					want := p < len(set) && set[p]
					if got := tr.EnabledAt(i, trace.ThreadID(p)); got != want {
						t.Fatalf("%d threads: EnabledAt(%d, T%d) = %t, want %t", threads, i, p, got, want)
					}
					if got := w.At(i, trace.ThreadID(p)); got != want {
						t.Fatalf("%d threads: walk at %d, T%d = %t, want %t", threads, i, p, got, want)
					}
				}
			}
			if tr.EnabledAt(len(sets), 0) || tr.EnabledAt(-1, 0) {
				t.Fatalf("%d threads: a step out of range is enabled", threads)
			}
		}
	}
}
