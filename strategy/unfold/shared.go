// This file computes the possible extensions from the conditions of
// resources an event produced (Kähkönen et al. 2014, §5.3 and §5.4: cases 6, 7 and 8),
// and from the places of the primitives beyond the paper's (state.go).

package unfold

import "github.com/weft-go/weft/trace"

// fromResources adds the possible extensions that take a resource
// condition event e produced.
//
// An operation that is never blocked and can take e's output was enabled
// together with e, before it: some event e' (of the unfolding, or a known
// extension) took one of e's input conditions, and the extension is e'
// with e's outputs in place of e's inputs (Fig. 15, ComputePreset; cases 6
// and 7). The search goes through the extensions too: the paper's shortcut
// of the unfolding alone misses an extension whose e' is still one (an
// execution that fails before taking it).
//
// An operation that e enabled (a Lock after an Unlock, a Wait after the
// Add that brought the counter to zero, a Join after the thread's last
// step) was not enabled before e: case 8 finds the Locks through the free
// conditions adjacent or alternative to e's output (Definitions 3 and 4)
// and the list of threads waiting to lock with no event yet (§5.4.1);
// Waits and Joins through the lists of the thread conditions that want
// them.
//
// The place of an RWMutex, a Once or a buffered channel: every thread
// condition that wants the object is tried with e's output (the naive
// way for that one place), and so is every select that wants the channel.
// A Close of an unbuffered channel: the sends and receives of each copy's
// thread, which a closed channel lets run alone.
func (n *net) fromResources(e int32) {
	ev := &n.events[e]
	pre, post := ev.pre, ev.post
	var buf []int32
	for i := 1; i < len(pre); i++ {
		if i == len(pre)-1 && n.rendezvous(ev) {
			break // the sender's condition: its extensions are meets'
		}
		if p := n.conds[pre[i]].place; n.places[p].kind == statePlace || n.daemonPlace(p) || isDefault(ev) && n.places[p].kind == threadPlace {
			continue // the place's conditions are all tried below, or a timer's thread's (timerChanged), or another thread's that a default gave back (offer.go: fromThread)
		}
		cs := n.conds[pre[i]].consumers
		for _, f := range cs[:len(cs):len(cs)] {
			fe := &n.events[f]
			if f == e || fe.thread == ev.thread || n.rendezvous(fe) || accessOf(fe.op) == advanceAccess || isDefault(fe) {
				continue // a rendezvous after a Close is none: meets' are all; an advance may not be enabled: clockCopyNew's; a default is selectExts'
			}
			// ComputePreset: every condition of a place e took one of is
			// replaced by e's output for that place.
			buf = append(buf[:0], fe.pre...)
			for j := 1; j < len(buf); j++ {
				pj := n.conds[buf[j]].place
				for m := 1; m < len(pre); m++ {
					if n.conds[pre[m]].place == pj {
						buf[j] = post[m]
					}
				}
			}
			if len(buf) == 2 && !n.accepts(fe.op, &n.conds[buf[1]]) || several(fe.op) && !n.acceptsEach(fe.op, buf[1:]) {
				continue
			}
			if ok, fatal := n.co(buf...); ok && !fatal {
				n.extension(buf)
			}
		}
	}
	ev = &n.events[e]
	for i := 1; i < len(ev.post); i++ {
		d := ev.post[i]
		c := &n.conds[d]
		pl := &n.places[c.place]
		switch {
		case pl.kind == copyPlace && n.objects[pl.obj].class == trace.ClassClock:
			n.clockCopyNew(d) // the wake-ups and advances it enables (clock.go)
		case pl.kind == mutexPlace:
			if c.state == free {
				n.lockersOf(d)
			}
			// A Cond's Waits and Relocks with the mutex (the naive way:
			// they take the Cond's place too).
			for _, t := range n.objects[pl.obj].condUsers {
				n.naiveFrom(t, c.place, d)
			}
		case pl.kind == copyPlace && len(n.objects[pl.obj].awaiters) > 0:
			n.awaitersOf(d)
		case pl.kind == statePlace && queued(opKey{class: n.objects[pl.obj].class}):
			n.queuedAt(d)
		case pl.kind == statePlace:
			// Every operation that can take the new state: those it
			// enables (a Lock after an Unlock or the last RUnlock, an
			// RLock after an Unlock, a Do after the function ran) and
			// those enabled with e (cases 6 and 7), each tried with d.
			for _, t := range n.wanting(pl) {
				n.naiveFrom(t, c.place, d)
			}
			n.meets(d)
			n.selectsOf(pl)
		case pl.kind == copyPlace && n.objects[pl.obj].class == trace.ClassRWMutex:
			// A copy of an RWMutex: the operations it enables (an
			// RLock of its thread after the writer's Unlock, a writer's
			// Lock after an Unlock or the last RUnlock) were not enabled
			// with e's input, so cases 6 and 7 do not find them.
			n.rwEnabled(pl, d)
		case pl.kind == copyPlace && n.objects[pl.obj].class == trace.ClassWaitGroup && c.value == 0:
			n.waitersOf(d)
		case pl.kind == copyPlace && n.objects[pl.obj].class == trace.ClassChan && c.value&chanClosed != 0:
			// A Close of an unbuffered channel: the sends and receives of
			// the copy's thread can take it by themselves.
			for _, t := range n.wanting(pl) {
				n.naiveFrom(t, c.place, d)
			}
			n.selectsOf(pl)
		case pl.kind == threadPlace && c.state == done:
			n.joinersOf(d)
		}
	}
	for _, d := range ev.spawned {
		if n.conds[d].state == done {
			n.joinersOf(d)
		}
	}
	if d := ev.post[0]; n.conds[d].state == done {
		n.joinersOf(d)
	}
}

// several reports whether an event of operation k takes conditions of
// several places that acceptsEach decides on together: an RWMutex's
// writer's, a Cond's Wait and Relock with a mutex, an await's.
func several(k opKey) bool {
	return k.class == trace.ClassRWMutex || accessOf(k) == condAccess || accessOf(k) == awaitAccess
}

// tryAlone adds the extension {t}, of an operation that takes no place,
// unless a failed step precedes t.
func (n *net) tryAlone(t int32) {
	if _, fatal := n.co(t); !fatal {
		n.extension([]int32{t})
	}
}

// queuedAt adds the extensions that take d, a new condition of the place
// of a semaphore, a Cond or a monitor, of the thread conditions whose
// operation takes that place alone: a thread condition concurrent with d
// leaves in its local configuration a condition of the place at or above
// d (waitAt), as for Joins and Waits.
func (n *net) queuedAt(d int32) {
	obj := n.places[n.conds[d].place].obj
	for a := d; a >= 0; a = n.conds[a].parent {
		for _, t := range n.waitAt[a] {
			if k := n.conds[t].op; k.obj == obj && queued(k) && accessOf(k) == stateAccess && n.accepts(k, &n.conds[d]) {
				n.tryPair(t, d)
			}
		}
	}
	// A Cond's Waits and Relocks take the mutex's place too: the naive
	// way.
	for _, t := range n.objects[obj].users {
		if accessOf(n.conds[t].op) == condAccess {
			n.naiveFrom(t, n.conds[d].place, d)
		}
	}
}

// tryPair adds the extension {t, d} if its conditions are concurrent and
// no failed step precedes them.
func (n *net) tryPair(t, d int32) {
	if ok, fatal := n.co(t, d); ok && !fatal {
		n.extension([]int32{t, d})
	}
}

// joinersOf adds the Joins of the finished thread whose condition is d:
// a joiner concurrent with d leaves in its local configuration a
// condition of the thread at or above d (waitAt), or none (unplaced).
func (n *net) joinersOf(d int32) {
	n.waitersOf(d)
	for _, t := range n.unplaced[n.places[n.conds[d].place].thread] {
		n.tryPair(t, d)
	}
}

// waitersOf adds the extensions of the blocked operations (Joins, Waits)
// that d enables: those of the thread conditions registered at d or above
// it in its place (waitAt).
func (n *net) waitersOf(d int32) {
	for a := d; a >= 0; a = n.conds[a].parent {
		for _, t := range n.waitAt[a] {
			if n.conds[t].op.kind == trace.KindJoin || n.conds[t].op.kind == trace.KindWGWait {
				n.tryPair(t, d)
			}
		}
	}
}

// lockersOf adds the Locks that take l, a free condition of a mutex that
// an Unlock produced (case 8): the thread conditions of the Locks (events
// or extensions) that take a free condition adjacent or alternative to l,
// and those of the list of lockers with no event. The free conditions
// adjacent or alternative to l are those joined to it by a path of held
// conditions in the tree of the mutex's conditions: up from l to the free
// condition the lock was taken from, and down from the held conditions on
// the way to the other releases of that lock (Definition 4).
func (n *net) lockersOf(l int32) {
	p := n.conds[l].place
	var near, held []int32
	for c := l; ; {
		e := n.conds[c].producer
		if e < 0 {
			break
		}
		c = n.events[e].pre[n.slot(e, p)]
		if n.conds[c].state == free {
			near = append(near, c)
			break
		}
		held = append(held, c)
	}
	seen := n.scratch.search(n)
	for len(held) > 0 {
		h := held[len(held)-1]
		held = held[:len(held)-1]
		if n.scratch.seen[h] == seen {
			continue
		}
		n.scratch.seen[h] = seen
		for _, f := range n.conds[h].consumers {
			ev := &n.events[f]
			if !ev.in() {
				continue
			}
			d := ev.post[n.slot(f, p)]
			switch {
			case d == l:
			case n.conds[d].state == free:
				near = append(near, d)
			default:
				held = append(held, d)
			}
		}
	}
	for _, c := range near {
		for _, f := range n.conds[c].consumers {
			if n.events[f].op.kind == trace.KindLock {
				n.tryPair(n.events[f].pre[0], l)
			}
		}
	}
	ob := n.objects[n.places[p].obj]
	keep := ob.lockers[:0]
	for _, t := range ob.lockers {
		if n.hasOwnEvent(t) {
			continue // it has an event now: adjacency finds it
		}
		keep = append(keep, t)
		n.tryPair(t, l)
	}
	ob.lockers = keep
}

// rwEnabled adds the extensions that take d, a new condition of pl, a copy
// of an RWMutex, of the thread conditions that want the RWMutex and
// accept d: a reader of pl's thread with d; a writer with the sets of
// copies concurrent with it, searched from the cut of its local
// configuration (searchTuple), if it is concurrent with d.
//
// A copy with a deficit (runlock.go) also lets a holder's RUnlock, of any
// thread, take every copy.
func (n *net) rwEnabled(pl *place, d int32) {
	deficit := rwDeficitOf(n.conds[d].value) != 0
	for _, t := range n.objects[pl.obj].users {
		k := n.conds[t].op
		if deficit && holderRUnlock(k) {
			n.searchFromCut(t, holderAll(k), d)
			continue
		}
		if accessOf(k) == readAccess && n.places[n.conds[t].place].thread != pl.thread {
			continue // another thread's copy
		}
		if !n.accepts(k, &n.conds[d]) {
			continue
		}
		if accessOf(k) == readAccess {
			n.tryPair(t, d)
			continue
		}
		n.searchFromCut(t, k, d)
	}
}
