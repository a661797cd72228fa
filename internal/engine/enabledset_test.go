// This file tests that the trace records, for an execution of many
// threads, the enabled sets that the strategy was shown.

package engine

import (
	"testing"

	"github.com/weft-go/weft/trace"
)

// TestEnabledSetsRecorded runs 200 threads that take turns on one mutex,
// so that threads block and wake all along, and compares each step's
// recorded enabled set with the view the strategy chose from.
func TestEnabledSetsRecorded(t *testing.T) {
	var mu, x Obj
	e := NewExec(Config{})
	defer e.Close()
	s := &scripted{}
	end := e.Run(s, func() {
		for range 200 {
			Current().Go(func() {
				me := Current()
				me.Lock(&mu, trace.ClassMutex)
				store(&x, 1)
				me.Unlock(&mu, trace.ClassMutex)
			})
		}
	}, false)
	if end.Status != trace.Complete {
		t.Fatalf("%v %v: %s", end.Status, end.Kind, end.Message)
	}
	tr := e.Trace()
	if len(tr.Events) != 600 || len(s.states) != 600 {
		t.Fatalf("%d events, %d states; want 600 of each", len(tr.Events), len(s.states))
	}
	blocked := 0
	w := tr.EnabledWalk()
	for i, st := range s.states {
		for p := range 201 {
			want := p < len(st) && st[p].Alts > 0
			if got := tr.EnabledAt(i, trace.ThreadID(p)); got != want {
				t.Fatalf("EnabledAt(%d, T%d) = %t, the view had %t", i, p, got, want)
			}
			if got := w.At(i, trace.ThreadID(p)); got != want {
				t.Fatalf("walk at %d, T%d = %t, the view had %t", i, p, got, want)
			}
			if p < len(st) && !want && !st[p].Done {
				blocked++
			}
		}
	}
	if blocked == 0 {
		t.Fatal("no thread was ever blocked: the test checks nothing of blocking")
	}
}
