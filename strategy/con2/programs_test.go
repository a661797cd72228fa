// Tests of con2 on weft's built-in programs with the numbers Farzan et al. 2013
// states (addAll, Fig. 2 and §3) and those of the concolic examples of
// the CS294-32 DPOR slides and Kähkönen et al. 2014.

package con2_test

import (
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"testing"

	"github.com/weft-go/weft"
	"github.com/weft-go/weft/internal/long"
	"github.com/weft-go/weft/programs"
	"github.com/weft-go/weft/strategy/con2"
	"github.com/weft-go/weft/trace"
)

// noMarks is the body of a built-in program, which marks nothing: given
// marks, it returns nil (see explore).
func noMarks(name string) func(*marks) func(*weft.T) {
	body := programs.Lookup(name).MustBody(nil)
	return func(m *marks) func(*weft.T) {
		if m != nil {
			return nil
		}
		return body
	}
}

// counter returns the value of counter name of s.
func counter(s *con2.Strategy, name string) int64 {
	for _, c := range s.Counters() {
		if c.Name == name {
			return c.Value
		}
	}
	return -1
}

// TestAddAll: Farzan et al. 2013's running example (Fig. 2; the built-in addall,
// u.cnt declared in [0, 100]). With k = 0 con2 finds no failure: the
// assertion's failing side needs the other thread's write of v.cnt
// between the read of line 2 and the assertion (§3). With k = 1 it finds
// it, with u.cnt in 6..10 (the notes' derivation, which
// TestAddAllBruteForce checks), and the failing execution's scenario has
// one interference. Of addAll's four branch sides (line 4 and the
// assertion, each both ways), three are covered at k = 0 and the fourth,
// the violation, at k = 1.
func TestAddAll(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		k     int
		fails bool
		perK  []int64
	}{
		{0, false, []int64{3}},
		{1, true, []int64{3, 1}},
		{2, true, []int64{3, 1, 0}},
	} {
		s := newCon2(t, con2.Options{K: tc.k})
		rec, r, ok := explore(t, noMarks("addall"), s, 10000)
		if !ok {
			t.Fatalf("k=%d: con2 did not finish in %d executions", tc.k, r.Executions)
		}
		if got := len(rec.fails) > 0; got != tc.fails {
			t.Errorf("k=%d: failures %v, want any: %v", tc.k, r.FailureCounts, tc.fails)
		}
		for _, f := range rec.fails {
			u := int64(f.inputs[0])
			if u < 6 || u > 10 || f.k != 1 {
				t.Errorf("k=%d: a failure with u.cnt = %d and %d interferences, want u.cnt in 6..10 and 1", tc.k, u, f.k)
			}
		}
		for _, fl := range r.Failures {
			if fl.Kind != trace.Assertion {
				t.Errorf("k=%d: a %v failure, want the assertion", tc.k, fl.Kind)
			}
		}
		var perK []int64
		for k := 0; k <= tc.k; k++ {
			perK = append(perK, counter(s, fmt.Sprintf("sides k=%d", k)))
		}
		if !slices.Equal(perK, tc.perK) {
			t.Errorf("k=%d: sides covered per k %v, want %v", tc.k, perK, tc.perK)
		}
		// Line 4 of Fig. 2 is addall.go:31 (both sides at k = 0), the
		// assertion addall.go:34 (held at k = 0, violated at k = 1).
		var sides []string
		for _, sd := range s.Covered() {
			sides = append(sides, fmt.Sprintf("%s:%d %v k=%d", filepath.Base(sd.File), sd.Line, sd.Taken, sd.K))
		}
		want := []string{"addall.go:31 true k=0", "addall.go:31 false k=0", "addall.go:34 true k=0"}
		if tc.k > 0 {
			want = append(want, "addall.go:34 false k=1")
		}
		if !slices.Equal(sides, want) {
			t.Errorf("k=%d: Covered() = %v, want %v", tc.k, sides, want)
		}
	}
}

// TestAddAllBruteForce checks the numbers TestAddAll pins against brute
// force (every schedule of every u.cnt): an execution fails exactly for
// u.cnt in 6..10, and the fewest interferences of a failing one is 1.
func TestAddAllBruteForce(t *testing.T) {
	hi := int64(100)
	if !long.Enabled() {
		hi = 24
	}
	rec, r, ok := explore(t, noMarks("addall"), &bruteForce{inputs: []inputRange{{"u.cnt", 0, hi}}}, 1_000_000)
	if !ok {
		t.Fatalf("brute force did not finish in %d executions", r.Executions)
	}
	failing := map[int64]int{} // u.cnt -> fewest interferences
	for _, f := range rec.fails {
		u := int64(f.inputs[0])
		if old, ok := failing[u]; !ok || f.k < old {
			failing[u] = f.k
		}
	}
	want := map[int64]int{6: 1, 7: 1, 8: 1, 9: 1, 10: 1}
	if len(failing) != len(want) {
		t.Errorf("failing u.cnt (fewest interferences): %v, want %v", failing, want)
	}
	for u, k := range want {
		if failing[u] != k {
			t.Errorf("failing u.cnt (fewest interferences): %v, want %v", failing, want)
			break
		}
	}
}

// TestFoundWithOneInterference: the failures of jcute (the CS294-32 DPOR slides) and
// unfold-fig9 (Kähkönen et al. 2014, Fig. 9) need one thread to read another's write
// (T1's x = 3 between T2's write and read; T2's write of the input before
// T1's read): con2 finds none with k = 0 and finds them with k = 1, with
// the inputs they need (z = 1; a positive input).
func TestFoundWithOneInterference(t *testing.T) {
	for _, tc := range []struct {
		name string
		ok   func(in []uint64) bool
	}{
		{"jcute", func(in []uint64) bool { return int64(in[0]) == 1 }},
		{"unfold-fig9", func(in []uint64) bool { return int64(in[0]) > 0 }},
	} {
		for k := 0; k <= 1; k++ {
			s := newCon2(t, con2.Options{K: k})
			rec, r, ok := explore(t, noMarks(tc.name), s, 10000)
			if !ok {
				t.Fatalf("%s, k=%d: con2 did not finish in %d executions", tc.name, k, r.Executions)
			}
			if got := len(rec.fails) > 0; got != (k == 1) {
				t.Errorf("%s, k=%d: failures %v, want any: %v", tc.name, k, r.FailureCounts, k == 1)
			}
			for _, f := range rec.fails {
				if !tc.ok(f.inputs) || f.k != 1 {
					t.Errorf("%s, k=%d: a failure with inputs %v and %d interferences", tc.name, k, f.inputs, f.k)
				}
			}
		}
	}
}

// relay: T1 writes input i0 to v0, T2 copies v0 to v1, T3 fails if it
// reads 1 from v1. The failure needs T3 to read T2's write and T2 to
// read T1's: two interferences in a row.
func relay(m *marks) func(w *weft.T) {
	v0, v1 := weft.NewVar[weft.SInt]("v0"), weft.NewVar[weft.SInt]("v1")
	return func(w *weft.T) {
		i0 := w.InputRange("i0", -2, 2)
		v0.Store(weft.Const[int64](0))
		v1.Store(weft.Const[int64](0))
		a := w.Go(func() { v0.Store(i0) })
		b := w.Go(func() { v1.Store(v0.Load()) })
		c := w.Go(func() {
			taken := w.If(v1.Load().Eq(weft.Const[int64](1)))
			m.mark(2, map[bool]string{true: "one", false: "other"}[taken])
			if taken {
				w.Fail("T3 read 1")
			}
		})
		a.Join()
		b.Join()
		c.Join()
	}
}

// TestRelay: brute force takes T3's failing side with two interferences
// at least, and con2 finds the failure (i0 = 1) with k = 2, not with
// k = 0 or 1.
func TestRelay(t *testing.T) {
	ref, _, ok := explore(t, relay, &bruteForce{inputs: []inputRange{{"i0", -2, 2}}}, 10000)
	if want := map[string]int{"one": 2, "other": 0}; !ok || !maps.Equal(ref.sides, want) {
		t.Errorf("brute force: sides %v, want %v", ref.sides, want)
	}
	for k := 0; k <= 2; k++ {
		s := newCon2(t, con2.Options{K: k})
		rec, r, ok := explore(t, relay, s, 1000)
		if !ok {
			t.Fatalf("k=%d: con2 did not finish in %d executions", k, r.Executions)
		}
		if want := ref.upTo(k); !slices.Equal(rec.all(), want) {
			t.Errorf("k=%d: sides %v, want %v", k, rec.all(), want)
		}
		if len(rec.fails) > 0 != (k == 2) {
			t.Errorf("k=%d: failures %v", k, r.FailureCounts)
		}
		for _, f := range rec.fails {
			if int64(f.inputs[0]) != 1 || f.k != 2 {
				t.Errorf("k=%d: a failure with i0 = %d and %d interferences, want 1 and 2", k, int64(f.inputs[0]), f.k)
			}
		}
	}
}
