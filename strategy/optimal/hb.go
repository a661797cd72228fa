// This file computes happens-before over a finished trace with vector clocks
// (Saarikivi et al. 2012, §II-A and Fig. 3): trace.HB's relation (a thread's events come
// after the step that started it). Two steps that start threads are not ordered:
// the strategy names threads stably (trace.ThreadNames).

package optimal

import (
	"fmt"
	"slices"

	"github.com/weft-go/weft/strategy"
	"github.com/weft-go/weft/trace"
)

// clocks holds the vector clocks of a trace: for event i, clock(i) (what
// happens before or is i). Entry q of a clock is 1 + the index of q's last
// event it knows, as in trace.VC. A thread's clock is that of its last
// event, or of the event that started it (at), or zero. The clocks are
// persistent (trace.PClock): an event's clock shares with those it was
// computed from every part that did not change, so an event costs the
// entries it changes, not the number of threads.
type clocks struct {
	n    int // threads
	objs int // objects, plus TimeObject
	ev   []trace.PClock
	at   []int32 // per thread, the event whose clock is the thread's, or -1
	oc   trace.PObjectClocks
	// steps holds the accesses of each step, announcements included.
	steps trace.Steps
	// valid is the number of events of the last trace whose clocks a trace
	// replaying them can keep (run).
	valid int
	// seen marks, in resume, the threads and objects whose clocks are set.
	seen []bool
	// verify makes run check the clocks it kept against a full run.
	verify bool
	// logged says that the undo log holds every event whose clocks were
	// computed (the first valid): then the thread and object clocks after
	// a prefix are those after the last run, with the log's events after
	// the prefix undone (rollback), at a cost that grows with the events
	// undone rather than with the prefix (resume). An execution longer
	// than undoMax events keeps no log.
	logged bool
	// objUndo holds, for each access of each event computed, the clocks
	// of its object that it changed, as they were, in order (the object
	// named -1 is the time object, whose number changes with the trace's
	// number of objects); objAt[i] is the first of event i's (objAt[valid]
	// the end). atUndo and atAt do the same for the thread clocks (at)
	// each event set.
	objUndo []trace.PObjectChange
	objAt   []int32
	atUndo  []atUndo
	atAt    []int32
	// flat holds, if flatOK, the entries of the clocks of the first
	// flatRows events in rows of n (entry q of event i's at i*n+q): a
	// program of a few threads asks whether an event knows another
	// (knows) with one load, where a persistent clock walks its tree.
	flat     []uint32
	flatOK   bool
	flatRows int
}

// flatMax bounds the threads, and flatCells the entries, of the clocks
// kept flat as well (clocks.flat).
const (
	flatMax   = 64
	flatCells = 1 << 20
)

// undoMax is the longest execution whose clocks keep an undo log (clocks):
// an access's record takes four persistent clocks' headers.
const undoMax = 1 << 14

// atUndo is the entry of at for thread t before an event set it.
type atUndo struct{ t, prev int32 }

// reset sizes the clocks for tr, keeping those of the first keep events.
// If keep > 0 and the undo log holds the events of the last run, it
// rolls the thread and object clocks back to where they were after the
// first keep (rollback); otherwise it sets them to zero.
func (c *clocks) reset(tr *trace.Trace, keep int) {
	oldObjs := c.objs
	c.n = len(tr.Threads)
	c.objs = len(tr.Objects) + 1
	n := len(tr.Events)
	if cap(c.ev) < n {
		// Room to grow when the clocks grow, not when they are first
		// made: the spare clocks hold pointers, which the collector scans.
		room := n + n/2
		if cap(c.ev) == 0 {
			room = n
		}
		ev := make([]trace.PClock, n, room)
		copy(ev, c.ev[:keep])
		c.ev = ev
	}
	c.ev = c.ev[:n]
	clear(c.ev[keep:])
	wasLogged := keep > 0 && c.logged
	if wasLogged {
		c.rollback(keep, oldObjs)
	} else {
		c.oc.Reset(c.objs)
		if cap(c.at) < c.n {
			c.at = make([]int32, c.n)
		}
		c.at = c.at[:c.n]
		for t := range c.at {
			c.at[t] = -1
		}
		c.objUndo, c.atUndo = c.objUndo[:0], c.atUndo[:0]
		c.objAt, c.atAt = c.objAt[:0], c.atAt[:0]
	}
	c.flatOK = c.n <= flatMax && n*c.n <= flatCells
	if c.flatOK {
		if cap(c.flat) < n*c.n {
			f := make([]uint32, n*c.n, (n+n/2)*c.n)
			copy(f, c.flat[:min(c.flatRows, keep)*c.n])
			c.flat = f
		}
		c.flat = c.flat[:n*c.n]
		// The rows of the events kept that the last run left unset.
		for i := min(c.flatRows, keep); i < keep; i++ {
			c.ev[i].CopyTo(c.flat[i*c.n : (i+1)*c.n])
		}
		c.flatRows = keep
	} else {
		c.flatRows = 0
	}
	// The log must hold every event computed: those kept too.
	c.logged = n <= undoMax && (keep == 0 || wasLogged)
	if !c.logged {
		c.objUndo, c.atUndo = c.objUndo[:0], c.atUndo[:0]
		c.objAt, c.atAt = c.objAt[:0], c.atAt[:0]
	}
}

// reserveLog sizes the undo log for the events of tr, whose accesses
// c.steps holds: appended to a record at a time, a long execution's log
// would be copied many times over as it grows. An access logs one clock,
// a write up to three.
func (c *clocks) reserveLog(tr *trace.Trace) {
	n := len(tr.Events)
	acc := c.steps.NumAccesses(n)
	c.objUndo = reserve(c.objUndo, acc+acc/2)
	c.atUndo = reserve(c.atUndo, 2*n+c.n) // the thread, its partner, the threads started
	c.objAt = reserve(c.objAt, n+1)
	c.atAt = reserve(c.atAt, n+1)
}

// reserve returns s with room for want elements in all.
func reserve[T any](s []T, want int) []T {
	if want > cap(s) {
		s = slices.Grow(s, want-len(s))
	}
	return s
}

// rollback undoes, from the log, the events of the last run from keep on:
// the thread and object clocks become those after its first keep events,
// which the trace being computed shares. The time object, numbered last,
// moves to its place in that trace (oldObjs was the last run's number of
// objects); the objects after the shared prefix's are zero, as no event
// of the prefix accessed them.
func (c *clocks) rollback(keep, oldObjs int) {
	ko, ka := c.objAt[keep], c.atAt[keep]
	for k := len(c.objUndo) - 1; k >= int(ko); k-- {
		u := &c.objUndo[k]
		o := int(u.Obj)
		if o < 0 {
			o = oldObjs - 1
		}
		c.oc.Revert(o, *u)
	}
	for k := len(c.atUndo) - 1; k >= int(ka); k-- {
		u := c.atUndo[k]
		c.at[u.t] = u.prev
	}
	c.objUndo, c.atUndo = c.objUndo[:ko], c.atUndo[:ka]
	c.objAt, c.atAt = c.objAt[:keep], c.atAt[:keep]
	if oldObjs != c.objs {
		t := c.oc.Save(oldObjs - 1)
		c.oc.Restore(oldObjs-1, trace.PObjectState{})
		c.oc.Resize(c.objs)
		c.oc.Restore(c.objs-1, t)
	}
}

// setAt sets the thread clock of t to event i's (or its starter's), in
// the undo log if it is kept.
func (c *clocks) setAt(t trace.ThreadID, i int32) {
	if c.logged {
		c.atUndo = append(c.atUndo, atUndo{int32(t), c.at[t]})
	}
	c.at[t] = i
}

func (c *clocks) clock(i int) trace.PClock { return c.ev[i] }

// knows reports whether event i, an event of thread t, happens before
// (or is) event k.
func (c *clocks) knows(k, i int, t trace.ThreadID) bool {
	if c.flatOK {
		return int(c.flat[k*c.n+int(t)]) > i
	}
	return c.ev[k].Knows(i, t)
}

// thread returns the clock of thread p after the events computed so far:
// its last event's, or zero.
func (c *clocks) thread(p trace.ThreadID) trace.PClock {
	if i := c.at[p]; i >= 0 {
		return c.ev[i]
	}
	return trace.PClock{}
}

// run computes the clocks of every event of tr. If failLast, the last event
// failed: it comes after every event (see event.fails).
// Dependent events are ordered through per-object clocks as in Saarikivi et al. 2012
// Fig. 3 (trace.ObjectClocks).
//
// The first from events of tr are those of the last trace run saw (the
// prefix the execution replayed): if the number of threads is the same,
// their clocks are kept, the thread and object clocks after them are
// those of the last run with its later events undone (rollback), or, if
// it kept no undo log, rebuilt from the prefix's clocks (resume), and
// only the rest are computed.
//
// It polls stop between events and reports false if stop fired before
// every clock was computed: the clocks of the events before the one it
// stopped at stay valid for the next run.
func (c *clocks) run(tr *trace.Trace, failLast bool, from int, stop *strategy.Stop) bool {
	if from > c.valid || len(tr.Threads) != c.n || from > len(tr.Events) {
		from = 0
	}
	rolled := from > 0 && c.logged
	c.reset(tr, from)
	c.steps.ResetFrom(tr, trace.CR, from)
	if c.logged {
		c.reserveLog(tr)
	}
	done := len(tr.Events)
	defer func() {
		c.valid = done
		if c.logged {
			// The end of the log of the events computed.
			c.objAt = append(c.objAt[:done], int32(len(c.objUndo)))
			c.atAt = append(c.atAt[:done], int32(len(c.atUndo)))
		}
		if failLast && done == len(tr.Events) {
			c.valid-- // its clock joins every thread's: it is no replayed step's
		}
		if c.verify && from > 0 && done == len(tr.Events) {
			c.check(tr, failLast)
		}
	}()
	spawned := 0
	spawn := func(i int) {
		for spawned < c.n && int(tr.Threads[spawned].Step) == i {
			if p := tr.Threads[spawned].Parent; p != trace.NoThread {
				c.setAt(trace.ThreadID(spawned), c.at[p])
			}
			spawned++
		}
	}
	timeObj := c.objs - 1
	obj := func(o trace.ObjectID) int {
		if o == trace.TimeObject {
			return timeObj
		}
		return int(o)
	}
	switch {
	case rolled:
		for spawned < c.n && int(tr.Threads[spawned].Step) < from {
			spawned++
		}
	case from > 0:
		spawned = c.resume(tr, from, obj)
	default:
		spawn(-1)
	}
	for i := from; i < len(tr.Events); i++ {
		if stop.Poll() {
			done = i
			return false
		}
		e := &tr.Events[i]
		if c.logged {
			c.objAt = append(c.objAt[:i], int32(len(c.objUndo)))
			c.atAt = append(c.atAt[:i], int32(len(c.atUndo)))
		}
		cv := c.thread(e.Thread)
		if e.Partner != trace.NoThread {
			cv = cv.Join(c.thread(e.Partner))
		}
		if e.Op.Kind == trace.KindJoin {
			cv = cv.Join(c.thread(trace.ThreadID(e.Op.Arg)))
		}
		acc := c.steps.Accesses(i)
		for _, x := range acc {
			cv = c.oc.Order(obj(x.Obj), x.Mode, cv)
		}
		if failLast && i == len(tr.Events)-1 {
			for t := range c.n {
				cv = cv.Join(c.thread(trace.ThreadID(t)))
			}
		}
		// The partner's entry first, then the thread's, as trace.HB does:
		// in a chain of rendezvous the thread's entry is then often set
		// already, at no cost.
		if e.Partner != trace.NoThread {
			cv = cv.Set(e.Partner, uint32(i+1))
		}
		cv = cv.Set(e.Thread, uint32(i+1))
		for _, x := range acc {
			o := obj(x.Obj)
			if !c.logged {
				c.oc.Record(o, x.Mode, cv)
				continue
			}
			lo := int32(o)
			if x.Obj == trace.TimeObject {
				lo = -1
			}
			c.objUndo = c.oc.RecordLogged(o, x.Mode, cv, lo, c.objUndo)
		}
		c.ev[i] = cv
		if c.flatOK {
			cv.CopyTo(c.flat[i*c.n : (i+1)*c.n])
			c.flatRows = i + 1
		}
		c.setAt(e.Thread, int32(i))
		if e.Partner != trace.NoThread {
			c.setAt(e.Partner, int32(i))
		}
		spawn(i)
	}
	return true
}

// resume sets the thread and object clocks to what they are after the first
// from events of tr, whose clocks are set, and returns the number of threads
// started by then. Going backwards: a thread's clock is that of its last
// event, or of the event that started it; an object's clocks are rebuilt
// from its accesses back to its last write (trace.ObjectClocks.
// RecordBackward).
func (c *clocks) resume(tr *trace.Trace, from int, obj func(trace.ObjectID) int) int {
	nt := c.n
	if cap(c.seen) < nt+c.objs {
		c.seen = make([]bool, nt+c.objs)
	}
	seenT := c.seen[:nt]
	seenO := c.seen[nt : nt+c.objs]
	clear(seenT)
	clear(seenO)
	mark := func(p trace.ThreadID, i int) {
		if !seenT[p] {
			seenT[p] = true
			c.at[p] = int32(i)
		}
	}
	access := func(o int, m trace.Mode, k trace.PClock) {
		if !seenO[o] {
			seenO[o] = c.oc.RecordBackward(o, m, k)
		}
	}
	for i := from - 1; i >= 0; i-- {
		e := &tr.Events[i]
		k := c.clock(i)
		mark(e.Thread, i)
		if e.Partner != trace.NoThread {
			mark(e.Partner, i)
		}
		for _, x := range c.steps.Accesses(i) {
			access(obj(x.Obj), x.Mode, k)
		}
	}
	spawned := 0
	for ; spawned < nt && int(tr.Threads[spawned].Step) < from; spawned++ {
		// A thread started in the prefix without a step of its own there
		// has the clock of its parent just after the step that started it.
		if st := tr.Threads[spawned].Step; st >= 0 && !seenT[spawned] {
			c.at[spawned] = st
		}
	}
	return spawned
}

// check panics if the clocks differ from those a full run computes.
func (c *clocks) check(tr *trace.Trace, failLast bool) {
	var full clocks
	full.run(tr, failLast, 0, nil)
	for i := range tr.Events {
		if c.flatOK && !slices.Equal(c.flat[i*c.n:(i+1)*c.n], full.clock(i).VC(c.n)) {
			panic(fmt.Sprintf("weft internal error: optimal: the flat clock kept for event %d is %v, want %v", i, c.flat[i*c.n:(i+1)*c.n], full.clock(i).VC(c.n)))
		}
		if !c.clock(i).Equal(full.clock(i)) || !slices.Equal(c.steps.Accesses(i), full.steps.Accesses(i)) {
			panic(fmt.Sprintf("weft internal error: optimal: the clocks kept for event %d differ from a full computation: %v %v, want %v %v",
				i, c.clock(i).VC(c.n), c.steps.Accesses(i), full.clock(i).VC(c.n), full.steps.Accesses(i)))
		}
	}
}
