// This file tests the sets of threads against a map: adds below, inside
// and above the words held, union, difference and the walk in order.

package dpor

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/weft-go/weft/trace"
)

func TestThreadSet(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for round := range 200 {
		var a, b ThreadSet
		ma, mb := map[trace.ThreadID]bool{}, map[trace.ThreadID]bool{}
		for range r.IntN(20) {
			q := trace.ThreadID(r.IntN(700))
			a.Add(q)
			ma[q] = true
		}
		for range r.IntN(20) {
			q := trace.ThreadID(r.IntN(700))
			b.Add(q)
			mb[q] = true
		}
		for q := range trace.ThreadID(800) {
			if a.Has(q) != ma[q] {
				t.Fatalf("round %d: Has(%d) = %t, want %t", round, q, a.Has(q), ma[q])
			}
		}
		if a.Len() != len(ma) {
			t.Fatalf("round %d: Len %d, want %d", round, a.Len(), len(ma))
		}
		got := slices.Collect(a.All())
		if !slices.IsSorted(got) || len(got) != len(ma) {
			t.Fatalf("round %d: All %v of %d threads", round, got, len(ma))
		}
		d := a.Minus(b)
		for q := range trace.ThreadID(800) {
			if d.Has(q) != (ma[q] && !mb[q]) {
				t.Fatalf("round %d: Minus has %d: %t", round, q, d.Has(q))
			}
		}
		a.Union(b)
		for q := range trace.ThreadID(800) {
			if a.Has(q) != (ma[q] || mb[q]) {
				t.Fatalf("round %d: Union has %d: %t", round, q, a.Has(q))
			}
		}
		a.Clear()
		if a.Len() != 0 || a.Has(0) {
			t.Fatalf("round %d: cleared set not empty", round)
		}
	}
	var s ThreadSet
	s.Add(9999)
	if len(s) != 2 {
		t.Errorf("a set of thread 9999 takes %d words, want 2", len(s))
	}
}
