package optimal

import (
	"strings"
	"testing"

	"github.com/weft-go/weft/trace"
)

// ev returns the event of step k of thread t, an operation of kind on
// variable o; the thread's stable name is its number.
func ev(t trace.ThreadID, k int32, kind trace.Kind, o trace.ObjectID) *event {
	e := &event{Event: trace.Event{Thread: t, Op: trace.Op{Kind: kind, Class: trace.ClassVar, Obj: o}, Case: -1, Partner: trace.NoThread, PartnerCase: -1, OK: true},
		step: k, spawnLo: trace.NoThread, sth: t, spart: trace.NoThread, sjoin: trace.NoThread}
	e.cache()
	return e
}

func TestWeakInitial(t *testing.T) {
	var n names
	w1x := ev(1, 0, trace.KindStore, 0)
	r2x := ev(2, 0, trace.KindLoad, 0)
	r3x := ev(3, 0, trace.KindLoad, 0)
	w2y := ev(2, 0, trace.KindStore, 1)
	r1y := ev(1, 1, trace.KindLoad, 1)
	alt := ev(1, 1, trace.KindLoad, 1)
	alt.Case = 1 // as if another case of a select
	cases := []struct {
		name string
		seq  []*event
		e    *event
		ok   bool
		at   int
	}{
		{"independent of all", []*event{r2x, r3x}, ev(4, 0, trace.KindStore, 5), true, -1},
		{"first", []*event{w1x, r2x}, w1x, true, 0},
		{"after independent events", []*event{r3x, w2y, w1x}, w1x, false, -1}, // r3x reads x
		{"after commuting reads", []*event{r3x, r2x}, r2x, true, 1},
		{"other alternative of its step", []*event{r1y}, alt, false, -1},
		{"dependent, not in seq", []*event{r2x}, w1x, false, -1},
	}
	for _, c := range cases {
		ok, at := n.weakInitial(c.seq, c.e)
		if ok != c.ok || at != c.at {
			t.Errorf("%s: weakInitial = %v, %d; want %v, %d", c.name, ok, at, c.ok, c.at)
		}
	}
}

// forest prints a wakeup forest as nested labels "t.k".
func forest(f []*wnode) string {
	var parts []string
	for _, c := range f {
		s := c.ev.String()
		s = s[:strings.IndexByte(s, ':')]
		if len(c.children) > 0 {
			s += "(" + forest(c.children) + ")"
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, " ")
}

func TestInsert(t *testing.T) {
	var n names
	var f []*wnode
	w1x, w2x, w3x := ev(1, 0, trace.KindStore, 0), ev(2, 0, trace.KindStore, 0), ev(3, 0, trace.KindStore, 0)
	r1y, w2y := ev(1, 1, trace.KindLoad, 1), ev(2, 1, trace.KindStore, 1)
	steps := []struct {
		seq   []*event
		added bool
		want  string
	}{
		{[]*event{w2x}, true, "T2.0"},
		{[]*event{w2x}, false, "T2.0"},                // a leaf covers it
		{[]*event{w3x, w2x}, true, "T2.0 T3.0(T2.0)"}, // T2.0 is no weak initial of it
		{[]*event{w1x, r1y}, true, "T2.0 T3.0(T2.0) T1.0(T1.1)"},
		{[]*event{w1x, w2y}, true, "T2.0 T3.0(T2.0) T1.0(T1.1 T2.1)"},
		{[]*event{w1x, w2y, r1y}, false, "T2.0 T3.0(T2.0) T1.0(T1.1 T2.1)"}, // reorders to T1.0 T1.1 T2.1: the leaf T1.1
	}
	for i, s := range steps {
		if added := n.insert(&f, s.seq); added != s.added {
			t.Errorf("insert %d: added = %v, want %v", i, added, s.added)
		}
		if got := forest(f); got != s.want {
			t.Errorf("insert %d: forest %s, want %s", i, got, s.want)
		}
		if n.summed || n.sum != (depSum{}) {
			t.Errorf("insert %d: the summary of the walk was left with counts", i)
		}
	}
}
