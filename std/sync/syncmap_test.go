package sync_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/weft-go/weft"
	"github.com/weft-go/weft/std/sync"
)

// TestMapAndPool checks that the operations of a Map or a Pool are steps:
// optimal explores the orders of a change and another operation on the
// same map or pool, and one order of two reads. Each case's body returns
// what the execution saw; the test pins the executions and the set of
// what they saw.
func TestMapAndPool(t *testing.T) {
	for _, c := range []struct {
		name       string
		body       func() string
		executions int
		seen       []string
	}{
		{"store and load", func() string {
			var m sync.Map
			done := weft.Go(func() { m.Store("k", 1) })
			v, ok := m.Load("k")
			done.Join()
			return fmt.Sprint(v, ok)
		}, 2, []string{"1 true", "<nil> false"}},
		{"two loads", func() string {
			var m sync.Map
			done := weft.Go(func() { m.Load("k") })
			v, ok := m.Load("k")
			done.Join()
			return fmt.Sprint(v, ok)
		}, 1, []string{"<nil> false"}},
		{"load or store", func() string {
			var m sync.Map
			done := weft.Go(func() { m.LoadOrStore("k", "a") })
			_, loaded := m.LoadOrStore("k", "b")
			done.Join()
			v, _ := m.Load("k")
			return fmt.Sprintf("%v %v", v, loaded)
		}, 2, []string{"a true", "b false"}},
		{"swap and compare-and-delete", func() string {
			var m sync.Map
			m.Store("k", 1)
			done := weft.Go(func() { m.Swap("k", 2) })
			deleted := m.CompareAndDelete("k", 1)
			done.Join()
			v, ok := m.Load("k")
			return fmt.Sprint(deleted, v, ok)
		}, 2, []string{"false 2 true", "true 2 true"}},
		{"range in storing order", func() string {
			var m sync.Map
			for _, k := range []string{"b", "a", "c", "d"} {
				m.Store(k, len(k))
			}
			m.Delete("c")
			m.Store("c", 3)
			var keys []string
			m.Range(func(k, _ any) bool { keys = append(keys, k.(string)); return k != "c" })
			return strings.Join(keys, "")
		}, 1, []string{"badc"}},
		{"pool put and get", func() string {
			p := sync.Pool{New: func() any { return "new" }}
			done := weft.Go(func() { p.Put("item") })
			x := p.Get()
			done.Join()
			return fmt.Sprint(x)
		}, 2, []string{"item", "new"}},
		{"pool of the last put", func() string {
			var p sync.Pool
			p.Put("a")
			p.Put(nil)
			p.Put("b")
			return fmt.Sprintf("%v %v %v", p.Get(), p.Get(), p.Get())
		}, 1, []string{"b a <nil>"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			seen := map[string]bool{}
			r, err := weft.Explore(func(w *weft.T) { seen[c.body()] = true }, weft.KeepGoing())
			if err != nil {
				t.Fatal(err)
			}
			got := slices.Sorted(func(yield func(string) bool) {
				for s := range seen {
					if !yield(s) {
						return
					}
				}
			})
			if r.Executions != c.executions || r.Failed() || !slices.Equal(got, c.seen) {
				t.Errorf("%d executions (failed %v), saw %q; want %d, %q", r.Executions, r.Failed(), got, c.executions, c.seen)
			}
		})
	}
}

// TestMapContentsOutside checks that each execution starts from the
// contents a Map has outside the executions, sorted by key, and that its
// changes stay inside it.
func TestMapContentsOutside(t *testing.T) {
	var m sync.Map
	m.Store("z", 26)
	m.Store("a", 1)
	var ranges []string
	r, err := weft.Explore(func(w *weft.T) {
		m.Store("m", 13)
		m.Delete("z")
		var b strings.Builder
		m.Range(func(k, v any) bool { fmt.Fprintf(&b, "%v=%v ", k, v); return true })
		ranges = append(ranges, b.String())
	}, weft.WithStrategy("random"), weft.WithMaxRuns(3))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"a=1 m=13 ", "a=1 m=13 ", "a=1 m=13 "}
	if r.Executions != 3 || !slices.Equal(ranges, want) {
		t.Errorf("%d executions, ranges %q; want 3, %q", r.Executions, ranges, want)
	}
	if _, ok := m.Load("m"); ok {
		t.Error("a change inside an execution reached the map outside")
	}
	if v, ok := m.Load("z"); !ok || v != 26 {
		t.Errorf("outside, z = %v, %v after an execution deleted it; want 26, true", v, ok)
	}
}
