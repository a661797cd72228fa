// This file makes the places of objects and threads as the executions
// reveal them: a variable has one copy per thread that uses it (Kähkönen et al. 2014
// §3), and a thread that uses a variable for the first time gets its copy
// in every write of the unfolding (§4.5, the first option).

package unfold

import (
	"slices"

	"github.com/weft-go/weft/trace"
)

// slot returns the index in event e's preset of its condition of place p,
// or -1.
func (n *net) slot(e, p int32) int {
	for i, c := range n.events[e].pre {
		if n.conds[c].place == p {
			return i
		}
	}
	return -1
}

// lastWrite returns the write that produced copy condition c or the copy
// it was read from, following reads back; -1 if none (c is, or was read
// from, an initial condition).
func (n *net) lastWrite(c int32) int32 {
	for {
		e := n.conds[c].producer
		if e < 0 {
			return -1
		}
		ev := &n.events[e]
		if a := accessOf(ev.op); a == writeAccess || a == advanceAccess {
			return e
		}
		c = ev.pre[n.slot(e, n.conds[c].place)]
	}
}

// sibling returns the condition of copy place p that is marked together
// with c, a condition of another copy of the same object, in every
// reachable marking holding c: the output for p of c's last write, or p's
// initial condition.
func (n *net) sibling(p, c int32) int32 {
	w := n.lastWrite(c)
	if w < 0 {
		return n.places[p].init
	}
	return n.events[w].post[n.slot(w, p)]
}

// need makes the places an event of k at a thread condition of stable
// thread th takes conditions from. It returns the places it made (copies
// and mutexes; a joined thread has its place already).
func (n *net) need(th int32, k opKey, made []int32) []int32 {
	switch accessOf(k) {
	case readAccess, writeAccess:
		ob := n.object(k.obj, k.class)
		if _, ok := n.copies[[2]int32{k.obj, th}]; !ok {
			made = append(made, n.addCopy(ob, k.obj, th))
		}
	case mutexAccess:
		ob := n.object(k.obj, k.class)
		if ob.mutex < 0 {
			ob.mutex = n.newPlace(mutexPlace, -1, k.obj, true)
			n.conds[n.places[ob.mutex].init].state = free
			made = append(made, ob.mutex)
		}
	case stateAccess:
		ob := n.object(k.obj, k.class)
		if ob.mutex < 0 {
			ob.mutex = n.newPlace(statePlace, -1, k.obj, true)
			if semaphore(k.class) {
				n.conds[n.places[ob.mutex].init].value = k.arg // the initial value
			}
			made = append(made, ob.mutex)
		}
	case condAccess:
		made = n.need(th, condStateKey(k), made)
		made = n.need(th, opKey{kind: trace.KindLock, class: trace.ClassMutex, obj: condMutex(k)}, made)
	case awaitAccess:
		for _, c := range n.awaitCases(k) {
			made = n.need(th, opKey{kind: trace.KindLoad, class: trace.ClassVar, obj: c.obj}, made)
		}
	case selectAccess:
		for _, c := range n.casesOf(k) {
			if c.obj >= 0 {
				made = n.need(th, c.key(), made)
			}
		}
	case joinAccess:
		n.threadPlace(k.obj)
	case timerAccess:
		// The timer's channel: an unbuffered channel's object, whose
		// users include its Stops and Resets (timer.go).
		n.object(k.obj, trace.ClassChan)
	case clockTimerAccess:
		n.object(k.obj, trace.ClassChan)
		made = n.need(th, opKey{kind: trace.KindNow, class: trace.ClassClock, obj: n.clk.obj}, made)
	case advanceAccess:
		n.object(k.obj, trace.ClassClock)
	}
	return made
}

// addCopy makes thread th's copy of object o, a variable, a WaitGroup, an
// unbuffered channel or an RWMutex:
// every write of o so far, in the unfolding or an extension, takes and
// gives a condition of the new place too (Kähkönen et al. 2014, §4.5: "update each write
// operation in the unfolding to access the conditions of a new thread").
// The copy's conditions follow the writes: each write takes the output of
// the write before it (or the initial condition), so that no causality,
// conflict or concurrency between the existing nodes changes.
func (n *net) addCopy(ob *object, o, th int32) int32 {
	p := n.newPlace(copyPlace, th, o, true)
	n.copies[[2]int32{o, th}] = p
	ob.copies = append(ob.copies, p)
	n.stats.Copies++
	for _, w := range ob.writes { // in creation order: a write's previous write first
		ev := &n.events[w]
		c := n.places[p].init
		if len(ev.pre) > 1 {
			if prev := n.lastWrite(ev.pre[1]); prev >= 0 {
				c = n.events[prev].post[n.slot(prev, p)]
			}
		}
		// The new copy goes after the others: last, but before the
		// timers' threads of an advance (clock.go), as resources lists
		// them.
		at := len(ev.pre)
		if ev.op.kind == trace.KindAdvance {
			at = len(ob.copies)
		}
		n.unindex(w)
		ev.pre = slices.Insert(ev.pre, at, c)
		n.index(w)
		n.conds[c].consumers = append(n.conds[c].consumers, w)
		if ev.in() {
			d := n.newCond(p, w)
			switch ob.class {
			case trace.ClassWaitGroup, trace.ClassChan, trace.ClassVar, trace.ClassClock:
				n.conds[d].value = n.conds[ev.post[1]].value
			case trace.ClassRWMutex:
				// The writers' state; the new thread holds no read lock.
				n.conds[d].value = n.conds[ev.post[1]].value &^ rwReaderMax
			}
			n.conds[d].parent, n.conds[d].depth = c, n.conds[c].depth+1
			ev = &n.events[w]
			ev.post = slices.Insert(ev.post, at, d)
		}
	}
	// The new place joins the fronts of the events whose local
	// configurations hold a write of the object.
	for e := range n.events {
		if n.events[e].in() {
			n.front(int32(e))
		}
	}
	return p
}
