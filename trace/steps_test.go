// This file tests the index of the steps' accesses (Steps).

package trace

import (
	"slices"
	"testing"
)

// TestStepsNumAccesses checks that NumAccesses counts the accesses of the
// first n steps, as Accesses gives them: in T1 T1 T2 T2 of x=1 y=2 y=3
// x=4, each step writes its variable (a store announces nothing).
func TestStepsNumAccesses(t *testing.T) {
	x, y := ObjectID(0), ObjectID(1)
	tr := synth([][]Op{{store(x), store(y)}, {store(y), store(x)}}, []ThreadID{1, 1, 2, 2})
	var s Steps
	s.Reset(tr, CR)
	want := []int{0, 1, 2, 3, 4}
	for n, w := range want {
		sum := 0
		for i := range n {
			sum += len(s.Accesses(i))
		}
		if got := s.NumAccesses(n); got != w || got != sum {
			t.Errorf("NumAccesses(%d) = %d, want %d (sum of Accesses %d)", n, got, w, sum)
		}
	}
}

// announceTrace returns the trace of a body T0 that starts T1, T2 and T3,
// which send on unbuffered channels c0, c1 (a send announces a write of
// its channel to the receivers) while T0 receives and T3 stores x, cut
// after its first m events: the threads' final operations are then their
// next ones.
func announceTrace(m int) *Trace {
	c0, c1, x := ObjectID(0), ObjectID(1), ObjectID(2)
	send := func(c ObjectID) Op { return Op{Kind: KindSend, Class: ClassChan, Obj: c} }
	recv := func(c ObjectID) Op { return Op{Kind: KindRecv, Class: ClassChan, Obj: c} }
	sel := Op{Kind: KindSelect, Class: ClassChan, Obj: c0, Cases: []Case{{KindRecv, c1}, {KindSend, c0}}}
	ev := func(p ThreadID, op Op, partner ThreadID, pop Op) Event {
		return Event{Thread: p, Op: op, Case: -1, Partner: partner, PartnerOp: pop, PartnerCase: -1, OK: true}
	}
	tr := &Trace{
		Threads: []ThreadInfo{{Parent: NoThread, Step: -1}, {Parent: 0, Step: 0}, {Parent: 0, Step: 0}, {Parent: 0, Step: 0}},
		Objects: []ObjectInfo{{Class: ClassChan}, {Class: ClassChan}, {Class: ClassVar}},
		Events: []Event{
			ev(0, store(x), NoThread, Op{}),
			ev(3, store(x), NoThread, Op{}),
			ev(0, recv(c0), 1, send(c0)),
			ev(0, recv(c1), 2, send(c1)),
			ev(3, store(x), NoThread, Op{}),
			ev(0, recv(c0), 1, send(c0)),
			ev(0, recv(c1), 2, send(c1)),
		},
		Final: []Op{{}, {}, {}, sel},
	}
	for p := range tr.Final {
		for i := m; i < len(tr.Events); i++ {
			if e := &tr.Events[i]; e.Thread == ThreadID(p) {
				tr.Final[p] = e.Op
				break
			} else if e.Partner == ThreadID(p) {
				tr.Final[p] = e.PartnerOp
				break
			}
		}
	}
	tr.Events = tr.Events[:m]
	return tr
}

// TestStepsResetFrom checks that ResetFrom after the Reset of a prefix of a
// trace gives each step the accesses and announcements Reset gives it:
// announceTrace's steps announce 0, 1 or 2 sends each.
func TestStepsResetFrom(t *testing.T) {
	full := announceTrace(7)
	var want Steps
	want.Reset(full, CR)
	// Step 0 starts T1 and T2, about to send; steps 2, 3 and 4 leave T1,
	// T2 and T3 about to send (T3 in a select).
	counts := []int{2, 0, 1, 1, 1, 0, 0}
	for i, c := range counts {
		if got := len(want.Announced(i)); got != c {
			t.Fatalf("step %d announces %d accesses, want %d", i, got, c)
		}
	}
	for m := 1; m <= len(full.Events); m++ {
		for from := 0; from <= m; from++ {
			var s Steps
			s.Reset(announceTrace(m), CR)
			s.ResetFrom(full, CR, from)
			for i := range full.Events {
				if got, w := s.Announced(i), want.Announced(i); !slices.Equal(got, w) {
					t.Errorf("prefix %d, from %d: step %d announces %v, want %v", m, from, i, got, w)
				}
				if got, w := s.Accesses(i), want.Accesses(i); !slices.Equal(got, w) {
					t.Errorf("prefix %d, from %d: step %d accesses %v, want %v", m, from, i, got, w)
				}
			}
		}
	}
}
