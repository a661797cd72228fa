// This file checks trace's synchronisation table against the model: every
// operation the model runs has an entry, and every synchronisation pair
// the model states (Outcome.Source) is one the table orders.

package model

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/weft-go/weft/internal/long"
	"github.com/weft-go/weft/trace"
)

// syncAddr is one address of the table's: an object's main or second
// address, or a thread's end.
type syncAddr struct {
	obj    trace.ObjectID
	aux    bool
	thread trace.ThreadID
}

// syncAddrs returns the addresses event e releases to (release) or
// acquires from under the table, and whether the table has an entry for
// it.
func syncAddrs(e *trace.Event, release bool) ([]syncAddr, bool) {
	op := e.Op
	kind, obj := op.Kind, op.Obj
	s, ok := trace.SyncOf(op.Class, kind, op.Arg)
	if ok && s.Acquire&trace.SyncCases != 0 {
		if e.Case < 0 || int(e.Case) >= len(op.Cases) {
			return nil, true // the default case
		}
		kind, obj = op.Cases[e.Case].Kind, op.Cases[e.Case].Obj
		s, ok = trace.SyncOf(op.Class, kind, op.Arg)
	}
	if !ok {
		return nil, false
	}
	set := s.Acquire
	if release {
		set = s.Release
	}
	var as []syncAddr
	none := trace.NoThread
	if set&trace.SyncObj != 0 {
		as = append(as, syncAddr{obj, false, none})
	}
	if set&trace.SyncAux != 0 {
		as = append(as, syncAddr{obj, true, none})
	}
	if set&trace.SyncArg != 0 && op.Arg >= 0 {
		as = append(as, syncAddr{trace.ObjectID(op.Arg), false, none})
	}
	if set&trace.SyncThread != 0 {
		as = append(as, syncAddr{trace.NoObject, false, trace.ThreadID(op.Arg)})
	}
	return as, true
}

// TestSyncTable checks trace.SyncOf against the model on random
// executions: every event has an entry, and every event the model pairs
// with a source (Outcome.Source; a Join with the joined thread's last
// event) acquires from an address the source releases to. An operation
// that fails synchronises with nothing the table need order (the walks
// do not run one).
func TestSyncTable(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	n := 20000
	if !long.Enabled() {
		n = 4000
	}
	errs, pairs := 0, map[string]int{}
	fail := func(format string, args ...any) {
		errs++
		if errs <= 5 {
			t.Errorf(format, args...)
		}
	}
	for range n {
		s := &State{Timed: true}
		s.Reset(depObjects(), workers+1)
		var events []trace.Event
		for range 1 + r.IntN(30) {
			s.Threads[workers].Op = trace.Op{Kind: trace.KindSend, Class: trace.ClassChan, Obj: oTimer}
			for p := range workers {
				if th := &s.Threads[p]; !th.Done && th.Op.Kind == trace.KindNone {
					th.Op = randomOp(r, s, trace.ThreadID(p))
					th.Done = th.Op.Kind == trace.KindNone
				}
			}
			var choices [][2]int
			for p := range workers + 1 {
				for i := range alternatives(s, trace.ThreadID(p)) {
					choices = append(choices, [2]int{p, i})
				}
			}
			if len(choices) == 0 {
				if !s.Advance() {
					break
				}
				continue
			}
			c := choices[r.IntN(len(choices))]
			p := trace.ThreadID(c[0])
			e, out, ok := step(s, p, alternatives(s, p)[c[1]])
			if !ok {
				s.Threads[p].Op = trace.Op{} // it would fail: draw another
				continue
			}
			events = append(events, e)
			if int32(len(events)) != s.Events {
				t.Fatalf("%d events recorded, the state applied %d", len(events), s.Events)
			}
			acq, ok := syncAddrs(&e, false)
			if !ok {
				fail("%v on a %v has no entry in the synchronisation table", e.Op.Kind, e.Op.Class)
				continue
			}
			if out.Source < 0 {
				continue
			}
			src := &events[out.Source]
			rel, ok := syncAddrs(src, true)
			if !ok {
				fail("%v on a %v has no entry in the synchronisation table", src.Op.Kind, src.Op.Class)
				continue
			}
			if e.Op.Kind == trace.KindJoin {
				// The joined thread's end releases its address: its last
				// event is its own, or a rendezvous that completed its
				// send, whose event is the receiver's (src.Partner).
				rel = append(rel, syncAddr{trace.NoObject, false, src.Thread})
				if src.Partner != trace.NoThread {
					rel = append(rel, syncAddr{trace.NoObject, false, src.Partner})
				}
			}
			pair := fmt.Sprintf("%v %v <- %v %v", e.Op.Class, e.Op.Kind, src.Op.Class, src.Op.Kind)
			if !meet(acq, rel) {
				fail("%v (event %d) synchronises with %v (event %d) in the model; the table orders them through no address: acquires %v, releases %v",
					e.Op, len(events)-1, src.Op, out.Source, acq, rel)
				continue
			}
			pairs[pair]++
		}
	}
	t.Logf("%d sorts of pairs: %v", len(pairs), pairs)
	if len(pairs) < 15 {
		t.Errorf("only %d sorts of synchronisation pairs reached", len(pairs))
	}
}

// meet reports whether a and b share an address.
func meet(a, b []syncAddr) bool {
	for _, x := range a {
		for _, y := range b {
			if x == y {
				return true
			}
		}
	}
	return false
}
