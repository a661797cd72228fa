// This file tests the persistent sets of enabled threads against a map:
// every version stays as it was, and the walk lists the threads in order.

package dpor

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/weft-go/weft/trace"
)

func TestEnabledSet(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	var sets []EnabledSet
	var maps []map[trace.ThreadID]int32
	var s EnabledSet
	m := map[trace.ThreadID]int32{}
	for i := range 3000 {
		q := trace.ThreadID(r.IntN(40))
		if i > 1000 {
			q = trace.ThreadID(r.IntN(5000)) // grows the tree
		}
		a := int32(r.IntN(3))
		s = s.With(q, a)
		m2 := make(map[trace.ThreadID]int32, len(m)+1)
		for k, v := range m {
			m2[k] = v
		}
		if a == 0 {
			delete(m2, q)
		} else {
			m2[q] = a
		}
		m = m2
		if i%100 == 0 {
			sets, maps = append(sets, s), append(maps, m)
		}
	}
	for v, s := range sets {
		m := maps[v]
		l := s.List()
		if len(l) != len(m) || !slices.IsSortedFunc(l, func(a, b Enabled) int { return int(a.Thread) - int(b.Thread) }) {
			t.Fatalf("version %d lists %d threads (sorted: %v), want %d", v, len(l), l, len(m))
		}
		for _, e := range l {
			if m[e.Thread] != e.Alts {
				t.Fatalf("version %d lists %v, want %d alternatives", v, e, m[e.Thread])
			}
		}
		for q := range trace.ThreadID(6000) {
			if s.Alts(q) != m[q] {
				t.Fatalf("version %d: Alts(%d) = %d, want %d", v, q, s.Alts(q), m[q])
			}
		}
		if got := enabledOf(l).List(); !slices.Equal(got, l) {
			t.Fatalf("version %d: rebuilt from its list: %v", v, got)
		}
	}
	var e EnabledSet
	if e.With(7, 1).With(7, 0).root != nil {
		t.Errorf("a set emptied again keeps its memory")
	}
}

// TestEnabledSetFlat checks a set whose size moves across flatMax, so that
// it turns from a list to a tree and back, after every change.
func TestEnabledSetFlat(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	var s EnabledSet
	m := map[trace.ThreadID]int32{}
	trees, flats := 0, 0
	for i := range 20000 {
		q := trace.ThreadID(r.IntN(14) * 37) // spread over several leaves
		a := int32(r.IntN(3))
		if len(m) > flatMax+2 {
			a = 0 // drift down again
		}
		prev := s
		s = s.With(q, a)
		if a == 0 {
			delete(m, q)
		} else {
			m[q] = a
		}
		if int(s.n) != len(m) {
			t.Fatalf("change %d: %d threads counted, want %d", i, s.n, len(m))
		}
		if s.tree {
			trees++
		} else {
			flats++
		}
		l := s.List()
		if len(l) != len(m) || !slices.IsSortedFunc(l, func(a, b Enabled) int { return int(a.Thread) - int(b.Thread) }) {
			t.Fatalf("change %d: lists %v, want %d threads in order", i, l, len(m))
		}
		for _, e := range l {
			if m[e.Thread] != e.Alts || s.Alts(e.Thread) != e.Alts {
				t.Fatalf("change %d: lists %v, want %d alternatives", i, e, m[e.Thread])
			}
		}
		if prev.Alts(q) != 0 && prev.Alts(q) == s.Alts(q) && a != s.Alts(q) {
			t.Fatalf("change %d: the old version changed", i)
		}
	}
	if trees == 0 || flats == 0 {
		t.Errorf("%d changes left a tree and %d a list: want both", trees, flats)
	}
}
