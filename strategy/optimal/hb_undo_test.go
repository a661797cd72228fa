// Tests that the clocks kept from the last run, rolled back from the undo
// log, are those a fresh run computes, when the traces differ in their
// number of objects (the time object, numbered last, moves).

package optimal

import (
	"slices"
	"testing"

	"github.com/weft-go/weft/trace"
)

// TestClocksRollbackObjects runs the clocks of four traces of sleeps
// (which write virtual time) and stores, with 1, 3, 2 and 1 variables,
// each after the other from the prefix it shares with the one before,
// with flat clocks and with persistent ones: every clock equals that of a
// fresh run, and the undo log was used (no walk back over the prefix).
func TestClocksRollbackObjects(t *testing.T) {
	store := func(p trace.ThreadID, o trace.ObjectID) trace.Event {
		return trace.Event{Thread: p, Partner: trace.NoThread, Op: trace.Op{Kind: trace.KindStore, Class: trace.ClassVar, Obj: o}}
	}
	sleep := func(p trace.ThreadID) trace.Event {
		return trace.Event{Thread: p, Partner: trace.NoThread, Op: trace.Op{Kind: trace.KindSleep, Class: trace.ClassTimer, Obj: trace.NoObject}}
	}
	mk := func(vars int, events ...trace.Event) *trace.Trace {
		tr := &trace.Trace{Threads: []trace.ThreadInfo{{Parent: trace.NoThread, Step: -1}, {Parent: 0, Step: -1}}}
		for range vars {
			tr.Objects = append(tr.Objects, trace.ObjectInfo{Class: trace.ClassVar})
		}
		tr.Events = events
		return tr
	}
	traces := []*trace.Trace{
		mk(1, store(0, 0), sleep(1), store(1, 0), sleep(0), store(1, 0)),
		mk(3, store(0, 0), sleep(1), store(1, 0), store(0, 2), sleep(1), store(0, 1), sleep(0)),
		mk(2, store(0, 0), sleep(0), store(1, 1), sleep(1)),
		mk(1, store(0, 0), sleep(0), store(1, 0), sleep(1)),
	}
	// Each trace shares its first from[k] events with the one before; the
	// rollback to the third undoes the first trace's sleep, recorded under
	// another number of objects.
	from := []int{0, 3, 1, 2}
	for _, persistent := range []bool{false, true} {
		c := clocks{persistent: persistent}
		for k, tr := range traces {
			c.run(tr, false, from[k], nil)
			if k > 0 && !c.logged {
				t.Fatalf("persistent %v, trace %d: no undo log kept", persistent, k)
			}
			if c.flatOK == persistent {
				t.Fatalf("persistent %v, trace %d: clocks kept flat: %v", persistent, k, c.flatOK)
			}
			full := clocks{persistent: persistent}
			full.run(tr, false, 0, nil)
			for i := range tr.Events {
				if got, want := c.vc(i), full.vc(i); !slices.Equal(got, want) {
					t.Fatalf("persistent %v, trace %d, clock %d after a rollback is %v, want %v", persistent, k, i, got, want)
				}
			}
		}
	}
}
