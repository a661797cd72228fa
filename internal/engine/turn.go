// This file implements the turns of polling loops: a loop that weft test's
// rewriting found to change nothing, in a turn that goes round, but
// through weft's operations (receives, selects, loads of atomic words, and
// calls of functions that only read), has its turns marked (LoopTurn). A
// turn whose steps only read (loads, failed compare-and-swaps, receives
// from closed channels, selects that took such a receive or their
// default) left the program as it found it: the next turn, run in the
// same state, does the same, so such turns are stutters, and leaving them
// out of a schedule changes no state any thread can reach. A turn of
// loads only blocks, as the turn of a busy-wait loop that calls Yield,
// until another thread writes a variable it loaded; a turn that also
// polled channels yields (a select's other cases, or a timer, may become
// ready with no write of a variable), so that the fairness rule (fair.go)
// lets the other threads run before more such turns.

package engine

import "github.com/weft-go/weft/trace"

// Events returns the number of events of the execution so far: where the
// first turn of a loop starts (LoopTurn).
func (t *Thread) Events() int32 { return int32(len(t.e.tr.Events)) }

// LoopTurn ends the turn of a polling loop that began at event from and
// returns where the next turn begins. If t's steps in the turn only read,
// t blocks until another thread writes a variable the turn loaded (a turn
// of loads only) or yields (a turn that polled channels). A turn of no
// step continues the pause of the turn before, as Yield's calls in a row
// do, until MaxIdleYields of them make t block for good.
func (t *Thread) LoopTurn(from int32) int32 {
	if t.inAwait {
		t.fail(trace.Panic, "weft: a polling loop in the condition of w.Await")
	}
	e := t.e
	n := int32(len(e.tr.Events))
	t.await = t.await[:0]
	steps, polled := 0, false
	for i := from; i < n; i++ {
		ev := &e.tr.Events[i]
		if ev.Thread != t.id && ev.Partner != t.id {
			continue
		}
		steps++
		switch {
		case ev.Thread != t.id:
			// A partner's step: t's send or receive met another thread.
			t.await = t.await[:0]
			return n
		case ev.ReadOnly():
			if o := e.objs[ev.Op.Obj]; !t.reading(o) {
				t.await = append(t.await, awaitRead{o: o, rel: ev.Src})
			}
		case polls(ev):
			polled = true
		default:
			t.await = t.await[:0]
			return n
		}
	}
	if steps == 0 {
		t.idleYields++
		if t.idleYields >= MaxIdleYields {
			t.block()
			return int32(len(e.tr.Events))
		}
		t.noteYield()
		return n
	}
	t.idleYields = 0
	if !polled && len(t.await) > 0 {
		t.block()
		return int32(len(e.tr.Events))
	}
	t.await = t.await[:0]
	t.noteYield()
	return n
}

// polls reports whether ev, a step of its thread alone, only read a
// channel: a receive from a closed and drained channel, a select that
// took one or its default, a channel's length.
func polls(ev *trace.Event) bool {
	if ev.Partner != trace.NoThread || ev.Op.Class != trace.ClassChan {
		return false
	}
	switch ev.Op.Kind {
	case trace.KindRecv:
		return !ev.OK
	case trace.KindLen:
		return true
	case trace.KindSelect:
		if ev.Case < 0 {
			return true
		}
		return int(ev.Case) < len(ev.Op.Cases) && ev.Op.Cases[ev.Case].Kind == trace.KindRecv && !ev.OK
	}
	return false
}
