// Tests that the clocks of a long execution, which keeps no undo log, are
// rebuilt backwards from the prefix the next execution replays.

package optimal

import (
	"slices"
	"testing"

	"github.com/weft-go/weft/trace"
)

// TestClocksResume runs the clocks of two traces of undoMax+500 events of
// three threads (one started by another in the middle), which load,
// store, add to and compare-and-swap two variables and sleep, the second
// sharing the first's first 9,000 events and going on otherwise: the
// clocks of the second, rebuilt from the prefix's (no undo log: the
// traces are too long), equal those of a fresh run, with flat clocks and
// with persistent ones.
func TestClocksResume(t *testing.T) {
	const length, shared = undoMax + 500, 9000
	mk := func(seed uint32) *trace.Trace {
		tr := &trace.Trace{
			Threads: []trace.ThreadInfo{{Parent: trace.NoThread, Step: -1}, {Parent: 0, Step: -1}, {Parent: 1, Step: 100}},
			Objects: []trace.ObjectInfo{{Class: trace.ClassVar}, {Class: trace.ClassVar}},
		}
		kinds := []trace.Kind{trace.KindLoad, trace.KindStore, trace.KindAdd, trace.KindCAS, trace.KindSleep}
		x := uint32(1)
		for i := range length {
			if i == shared {
				x ^= seed
			}
			x = x*1664525 + 1013904223
			p := trace.ThreadID(x >> 8 % 2)
			if i > 100 && x>>12%3 == 0 {
				p = 2
			}
			k := kinds[x>>16%uint32(len(kinds))]
			op := trace.Op{Kind: k, Class: trace.ClassVar, Obj: trace.ObjectID(x >> 20 % 2)}
			if k == trace.KindSleep {
				op = trace.Op{Kind: k, Class: trace.ClassTimer, Obj: trace.NoObject}
			}
			tr.Events = append(tr.Events, trace.Event{Thread: p, Partner: trace.NoThread, Op: op})
		}
		return tr
	}
	first, second := mk(0), mk(0x9e3779b9)
	differ := 0
	for i := shared; i < length; i++ {
		if a, b := &first.Events[i], &second.Events[i]; a.Thread != b.Thread || a.Op.Kind != b.Op.Kind || a.Op.Obj != b.Op.Obj {
			differ++
		}
	}
	if differ < 1000 {
		t.Fatalf("the traces differ in %d events after their shared prefix, want 1,000 or more", differ)
	}
	for _, persistent := range []bool{false, true} {
		c := clocks{persistent: persistent}
		c.run(first, false, 0, nil)
		c.run(second, false, shared, nil)
		if c.logged || c.flatOK == persistent {
			t.Fatalf("persistent %v: undo log kept %v, flat %v", persistent, c.logged, c.flatOK)
		}
		full := clocks{persistent: persistent}
		full.run(second, false, 0, nil)
		for i := range second.Events {
			if got, want := c.vc(i), full.vc(i); !slices.Equal(got, want) {
				t.Fatalf("persistent %v: clock %d after the rebuild is %v, want %v", persistent, i, got, want)
			}
		}
	}
}
