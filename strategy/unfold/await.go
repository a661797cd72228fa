// This file models awaits (w.Await, and busy-wait loops with w.Yield): an
// await's event reads its thread's copy of every variable it waits on, and
// is enabled once one of them was written after the thread's last read of
// it.

package unfold

import "github.com/weft-go/weft/trace"

// awaitCases returns the variables (stable objects) await k waits on.
// A w.Await's thread condition has none (obj -1): its event's are the
// variables its evaluation loaded (condawait.go).
func (n *net) awaitCases(k opKey) []selCase {
	if k.obj < 0 {
		return nil
	}
	return n.caseLists[k.obj]
}

// awaitReady reports whether await k, of a thread whose copies of its
// variables are cs (in the order of k's cases), can run: a write followed,
// in one of the copies, the thread's last read of the variable
// (model.State.awaitReady: a Load, or a CompareAndSwap of the thread
// that failed).
func (n *net) awaitReady(cs []int32) bool {
	for _, c := range cs {
		if n.fresh(c) {
			return true
		}
	}
	return false
}

// fresh reports whether copy condition c of a variable was written since
// its thread last read the variable: going back from c through the events
// that made it, a write (a Store, Add, Swap, or a CompareAndSwap that
// succeeded) comes before a read of the thread (a Load, a CompareAndSwap
// of the thread that failed). Other threads' failed CompareAndSwaps and
// the thread's awaits change nothing.
func (n *net) fresh(c int32) bool {
	th := n.places[n.conds[c].place].thread
	for {
		e := n.conds[c].producer
		if e < 0 {
			return false
		}
		ev := &n.events[e]
		switch {
		case ev.op.kind == trace.KindAwait:
		case ev.op.kind == trace.KindLoad:
			return false
		case ev.op.kind == trace.KindCAS && !ev.ok:
			if ev.thread == th {
				return false
			}
		case accessOf(ev.op) == writeAccess:
			return true
		}
		c = n.conds[c].parent
	}
}

// awaitersOf adds the extensions of the awaits of the thread of copy
// condition d, which a write made: they may be enabled by it.
func (n *net) awaitersOf(d int32) {
	pl := &n.places[n.conds[d].place]
	for _, t := range n.objects[pl.obj].awaiters {
		if n.threadOf(t) == pl.thread {
			n.naiveFrom(t, n.conds[d].place, d)
		}
	}
}
