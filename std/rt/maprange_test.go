package rt_test

import (
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/weft-go/weft"
	"github.com/weft-go/weft/std/rt"
)

// visit returns the keys Map(m) visits, in order.
func visit[K comparable, V any](m map[K]V) []K {
	var ks []K
	for k := range rt.Map(m) {
		ks = append(ks, k)
	}
	return ks
}

// orders explores body, which returns the order of a range, 3 times
// with seed and returns the orders of the executions.
func orders(t *testing.T, seed int64, body func() string) []string {
	t.Helper()
	var got []string
	_, err := weft.Explore(func(w *weft.T) { got = append(got, body()) },
		weft.WithStrategy("random"), weft.WithMaxRuns(3), weft.WithSeed(seed))
	if err != nil {
		t.Fatal(err)
	}
	return got
}

// TestMapOrder checks that, inside executions, a range over a map visits
// every key once in one order for every execution with a seed, whatever
// the order the map was filled in, for keys of several types, and in
// another order with another seed.
func TestMapOrder(t *testing.T) {
	type point struct {
		x, y int
		name string
	}
	fill := func(n int, rev bool) map[int]bool {
		m := map[int]bool{}
		for i := range n {
			if rev {
				i = n - 1 - i
			}
			m[i] = true
		}
		return m
	}
	for _, c := range []struct {
		name string
		body func() string
	}{
		{"ints", func() string { return fmt.Sprint(visit(fill(20, false))) }},
		{"ints filled in reverse", func() string { return fmt.Sprint(visit(fill(20, true))) }},
		{"strings", func() string {
			return fmt.Sprint(visit(map[string]int{"a": 1, "bb": 2, "a longer key of many bytes": 3, "": 4, "z": 5, "yy": 6}))
		}},
		{"structs", func() string {
			return fmt.Sprint(visit(map[point]bool{{1, 2, "a"}: true, {2, 1, "a"}: true, {1, 2, "b"}: true, {0, 0, ""}: true}))
		}},
		{"interfaces", func() string {
			return fmt.Sprint(visit(map[any]bool{1: true, "1": true, 1.5: true, int8(1): true, [2]int{1, 1}: true, nil: true}))
		}},
	} {
		got := orders(t, 0, c.body)
		if len(got) != 3 || got[0] != got[1] || got[1] != got[2] {
			t.Errorf("%s: the orders of 3 executions: %q, want one", c.name, got)
		}
	}
	// The order of a map does not depend on how it was filled.
	fwd, rev := orders(t, 0, func() string { return fmt.Sprint(visit(fill(20, false))) }),
		orders(t, 0, func() string { return fmt.Sprint(visit(fill(20, true))) })
	if fwd[0] != rev[0] {
		t.Errorf("filled forwards %s, backwards %s: want one order", fwd[0], rev[0])
	}
	other := orders(t, 9, func() string { return fmt.Sprint(visit(fill(20, false))) })
	if other[0] == fwd[0] {
		t.Errorf("seeds 0 and 9 give one order %s, want two", fwd[0])
	}
	var ks []int
	orders(t, 9, func() string { ks = visit(fill(20, false)); return "" })
	slices.Sort(ks)
	want := make([]int, 20)
	for i := range want {
		want[i] = i
	}
	if !slices.Equal(ks, want) {
		t.Errorf("seed 9 visits %v, want each of 0..19 once", ks)
	}
}

// TestMapRangeSemantics checks what a range over Map keeps of Go's: a
// pair deleted before it is reached is not visited, a value changed
// before it is reached is visited changed, a NaN key is visited with its
// value, break stops, and a nil map visits nothing; and outside an
// execution every pair is visited.
func TestMapRangeSemantics(t *testing.T) {
	r, err := weft.Explore(func(w *weft.T) {
		m := map[int]int{}
		for i := range 10 {
			m[i] = i
		}
		var seen []int
		first := true
		for k, v := range rt.Map(m) {
			if first {
				first = false
				for j := range 10 {
					if j != k {
						m[j] = 100 + j
					}
				}
				delete(m, (k+1)%10)
				seen = append(seen, v)
				continue
			}
			w.Assert(v == 100+k, "key %d visited with %d, want %d", k, v, 100+k)
			seen = append(seen, v)
		}
		w.Assert(len(seen) == 9, "%d pairs visited, want 9 (one deleted)", len(seen))
		nan := map[float64]string{math.NaN(): "a", math.NaN(): "b", 1: "c"}
		var vals []string
		for _, v := range rt.Map(nan) {
			vals = append(vals, v)
		}
		slices.Sort(vals)
		w.Assert(slices.Equal(vals, []string{"a", "b", "c"}), "NaN keys: visited %v, want a, b, c", vals)
		n := 0
		for range rt.Map(m) {
			n++
			if n == 3 {
				break
			}
		}
		w.Assert(n == 3, "break after 3: %d", n)
		var none map[string]int
		for k := range rt.Map(none) {
			w.Fail("a nil map visits %q", k)
		}
	})
	if err != nil || r.Failed() {
		t.Fatalf("%v %+v", err, r.Failures)
	}
	if n := len(visit(map[int]int{1: 1, 2: 2, 3: 3})); n != 3 {
		t.Errorf("outside an execution: %d keys visited, want 3", n)
	}
}

// loopKeys returns the keys MapLoop(m) visits, in order, in a loop as
// weft test writes a range over a map in a file older than go1.23.
func loopKeys[K comparable, V any](m map[K]V) []K {
	var ks []K
	for it, _, _ := rt.MapLoop(m); ; {
		k, _, ok := it.Next()
		if !ok {
			break
		}
		ks = append(ks, k)
	}
	return ks
}

// TestMapLoop checks that MapLoop visits the pairs of Map in Map's order
// inside an execution, keeps what Map keeps of Go's semantics (a pair
// deleted before it is reached is not visited, a value changed before it
// is reached is visited changed, a NaN key is visited with its value, a
// nil map visits nothing), and visits every pair outside an execution.
func TestMapLoop(t *testing.T) {
	r, err := weft.Explore(func(w *weft.T) {
		m := map[string]int{}
		for i := range 30 {
			m[fmt.Sprint("k", i)] = i
		}
		a, b := fmt.Sprint(visit(m)), fmt.Sprint(loopKeys(m))
		w.Assert(a == b, "Map visits %s, MapLoop %s: want one order", a, b)
		var seen []int
		first := true
		for it, _, _ := rt.MapLoop(m); ; {
			k, v, ok := it.Next()
			if !ok {
				break
			}
			if first {
				first = false
				for j := range 30 {
					if key := fmt.Sprint("k", j); key != k {
						m[key] = 100 + j
					}
				}
				delete(m, fmt.Sprint("k", (m[k]+1)%30))
				seen = append(seen, v)
				continue
			}
			w.Assert(v >= 100, "key %s visited with %d, want its changed value", k, v)
			seen = append(seen, v)
		}
		w.Assert(len(seen) == 29, "%d pairs visited, want 29 (one deleted)", len(seen))
		nan := map[float64]string{math.NaN(): "a", math.NaN(): "b", 1: "c"}
		var vals []string
		for it, _, _ := rt.MapLoop(nan); ; {
			_, v, ok := it.Next()
			if !ok {
				break
			}
			vals = append(vals, v)
		}
		slices.Sort(vals)
		w.Assert(slices.Equal(vals, []string{"a", "b", "c"}), "NaN keys: visited %v, want a, b, c", vals)
		var none map[string]int
		w.Assert(len(loopKeys(none)) == 0, "a nil map visits %v", loopKeys(none))
	})
	if err != nil || r.Failed() {
		t.Fatalf("%v %+v", err, r.Failures)
	}
	if ks := loopKeys(map[int]int{1: 1, 2: 2, 3: 3}); len(ks) != 3 {
		t.Errorf("outside an execution: keys %v visited, want 3", ks)
	}
}
