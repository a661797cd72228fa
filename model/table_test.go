// This file checks that the model's table is complete: every operation
// kind and every class has its primitive's entry, as the synchronisation
// table of package trace has.

package model

import (
	"testing"

	"github.com/weft-go/weft/trace"
)

// TestTableComplete checks that every kind of visible operation has an
// entry in the model's table, and that the table's entries are exactly
// those of trace's synchronisation table (trace.SyncOf): a kind or a class
// added to one and not to the other fails here.
func TestTableComplete(t *testing.T) {
	for k := trace.KindNone + 1; int(k) < trace.NumKinds; k++ {
		found := false
		for c := range trace.NumClasses {
			_, inSync := trace.SyncOf(trace.Class(c), k, 0)
			inModel := ops[c][k] != nil
			if inSync != inModel {
				t.Errorf("%v %v: in trace's synchronisation table %t, in the model's %t", trace.Class(c), k, inSync, inModel)
			}
			found = found || inModel
		}
		if !found {
			t.Errorf("kind %v has no entry in the model's table (register in its primitive's file)", k)
		}
	}
}

// TestTableClasses checks that every class of objects has a primitive
// that applies events to them, and that the classes of no object (the
// operations on threads, the clock, none) have none to apply.
func TestTableClasses(t *testing.T) {
	noObjects := map[trace.Class]bool{trace.ClassNone: true, trace.ClassThread: true, trace.ClassClock: true}
	for c := range trace.NumClasses {
		p := classes[c]
		switch {
		case p == nil:
			t.Errorf("class %v has no primitive in the model's table", trace.Class(c))
		case noObjects[trace.Class(c)] != (p.apply == nil):
			t.Errorf("class %v: apply set %t, but it has objects %t", trace.Class(c), p.apply != nil, !noObjects[trace.Class(c)])
		}
	}
}

// TestTableBlocking checks the table's blocking operations against the
// kinds Go's primitives block in, as the package doc's table lists them:
// an entry that forgets its enabledness, or gives one to an operation that
// never blocks, fails here.
func TestTableBlocking(t *testing.T) {
	blocking := map[trace.Kind]bool{
		trace.KindLock: true, trace.KindRLock: true, trace.KindRelock: true, trace.KindWGWait: true,
		trace.KindOnceDo: true, trace.KindP: true, trace.KindV: true, trace.KindMEnter: true,
		trace.KindMReenter: true, trace.KindJoin: true, trace.KindSleep: true, trace.KindSend: true,
		trace.KindRecv: true, trace.KindSelect: true, trace.KindAwait: true, trace.KindAdvance: true,
	}
	for c := range trace.NumClasses {
		for k, m := range ops[c] {
			if m == nil {
				continue
			}
			op := trace.Op{Kind: trace.Kind(k), Class: trace.Class(c)}
			if got := MayBlock(op); got != blocking[op.Kind] {
				t.Errorf("%v %v: MayBlock %t, want %t", op.Class, op.Kind, got, blocking[op.Kind])
			}
			if m.multi && !m.chanAlts {
				t.Errorf("%v %v: several alternatives, but no alternatives function", op.Class, op.Kind)
			}
		}
	}
}
