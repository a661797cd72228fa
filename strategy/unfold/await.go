// This file models awaits (w.Await, and busy-wait loops with w.Yield): an
// await's event reads its thread's copy of every variable it waits on; a
// loop that yields is blocked for good (its next turn is another test's).

package unfold

// awaitCases returns the variables (stable objects) await k waits on.
// A w.Await's thread condition has none (obj -1): its event's are the
// variables its evaluation loaded (condawait.go).
func (n *net) awaitCases(k opKey) []selCase {
	if k.obj < 0 {
		return nil
	}
	return n.caseLists[k.obj]
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
