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

// clocks holds the vector clocks of a trace: for event i, what happens
// before or is i (clock(i), or the row vc(i) reads). Entry q of a clock is
// 1 + the index of q's last event it knows, as in trace.VC. A thread's
// clock is that of its last event, or of the event that started it (at),
// or zero.
//
// A program of a few threads (at most flatMax; flatOK) keeps each event's
// clock as a row of flat, and its objects' clocks as rows too (fo): an
// event costs a few loads and stores per thread, and whether it knows
// another is one load. Any other keeps persistent clocks (trace.PClock):
// an event's clock shares with those it was computed from every part that
// did not change, so an event costs the entries it changes, not the number
// of threads. A trace keeps one kind or the other, never both: fib n=5
// spent 8% of its time on clocks when it kept the flat rows beside the
// persistent clocks, and 5% with the rows alone.
type clocks struct {
	n    int            // threads
	objs int            // objects, plus TimeObject
	ev   []trace.PClock // if !flatOK
	at   []int32        // per thread, the event whose clock is the thread's, or -1
	oc   trace.PObjectClocks
	fo   flatObjects // if flatOK
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
	// objUndo (flog if flatOK) holds, for each access of each event
	// computed, the clocks of its object that it changed, as they were, in
	// order (the object named -1 is the time object, whose number changes
	// with the trace's number of objects); objAt[i] is the first of event
	// i's (objAt[valid] the end). atUndo and atAt do the same for the
	// thread clocks (at) each event set.
	objUndo []trace.PObjectChange
	flog    flatLog
	objAt   []int32
	atUndo  []atUndo
	atAt    []int32
	// flat holds, if flatOK, the clocks of the events in rows of n (entry
	// q of event i's at i*n+q).
	flat   []uint32
	flatOK bool
	// persistent makes every trace keep persistent clocks (tests).
	persistent bool
}

// flatMax bounds the threads, and flatCells the entries, of the clocks
// kept flat (clocks.flat).
const (
	flatMax   = 64
	flatCells = 1 << 20
)

// undoMax is the longest execution whose clocks keep an undo log (clocks):
// an access's record takes four persistent clocks' headers.
const undoMax = 1 << 14

// atUndo is the entry of at for thread t before an event set it.
type atUndo struct{ t, prev int32 }

// flatFor reports whether the clocks of tr are kept flat.
func (c *clocks) flatFor(tr *trace.Trace) bool {
	n := len(tr.Threads)
	return !c.persistent && n <= flatMax && len(tr.Events)*n <= flatCells
}

// reset sizes the clocks for tr, keeping those of the first keep events,
// which the last run computed the same way (flatFor). If keep > 0 and the
// undo log holds the events of the last run, it rolls the thread and
// object clocks back to where they were after the first keep (rollback);
// otherwise it sets them to zero.
func (c *clocks) reset(tr *trace.Trace, keep int) {
	oldObjs := c.objs
	c.n = len(tr.Threads)
	c.objs = len(tr.Objects) + 1
	n := len(tr.Events)
	c.flatOK = c.flatFor(tr)
	if c.flatOK {
		if cap(c.flat) < n*c.n {
			f := make([]uint32, n*c.n, (n+n/2)*c.n)
			copy(f, c.flat[:keep*c.n])
			c.flat = f
		}
		c.flat = c.flat[:n*c.n]
		// The persistent clocks of an earlier trace, which keep their
		// trees alive, go (those past its length are zero, cleared below
		// when a trace was shorter).
		clear(c.ev)
		c.ev = c.ev[:0]
	} else {
		if cap(c.ev) < n {
			// Room to grow when the clocks grow, not when they are first
			// made: the spare clocks hold pointers, which the collector
			// scans.
			room := n + n/2
			if cap(c.ev) == 0 {
				room = n
			}
			ev := make([]trace.PClock, n, room)
			copy(ev, c.ev[:keep])
			c.ev = ev
		}
		if len(c.ev) > n {
			// A shorter trace: the clocks past its end would keep their
			// trees alive.
			clear(c.ev[n:])
		}
		c.ev = c.ev[:n]
		clear(c.ev[keep:])
	}
	wasLogged := keep > 0 && c.logged
	if wasLogged {
		c.rollback(keep, oldObjs)
	} else {
		if c.flatOK {
			c.fo.reset(c.objs, c.n)
		} else {
			c.oc.Reset(c.objs)
		}
		if cap(c.at) < c.n {
			c.at = make([]int32, c.n)
		}
		c.at = c.at[:c.n]
		for t := range c.at {
			c.at[t] = -1
		}
		c.clearLog()
	}
	// The log must hold every event computed: those kept too.
	c.logged = n <= undoMax && (keep == 0 || wasLogged)
	if !c.logged {
		c.clearLog()
	}
}

// clearLog empties the undo log.
func (c *clocks) clearLog() {
	c.objUndo, c.atUndo = c.objUndo[:0], c.atUndo[:0]
	c.flog.ch, c.flog.old = c.flog.ch[:0], c.flog.old[:0]
	c.objAt, c.atAt = c.objAt[:0], c.atAt[:0]
}

// objLogLen returns the number of changes of objects' clocks in the undo
// log.
func (c *clocks) objLogLen() int32 {
	if c.flatOK {
		return int32(len(c.flog.ch))
	}
	return int32(len(c.objUndo))
}

// reserveLog sizes the undo log for the events of tr, whose accesses
// c.steps holds: appended to a record at a time, a long execution's log
// would be copied many times over as it grows. An access logs one clock,
// a write up to three.
func (c *clocks) reserveLog(tr *trace.Trace) {
	n := len(tr.Events)
	acc := c.steps.NumAccesses(n)
	if c.flatOK {
		c.flog.ch = reserve(c.flog.ch, acc+acc/2)
	} else {
		c.objUndo = reserve(c.objUndo, acc+acc/2)
	}
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
	if c.flatOK {
		c.rollbackFlat(int(ko), oldObjs)
	} else {
		for k := len(c.objUndo) - 1; k >= int(ko); k-- {
			u := &c.objUndo[k]
			o := int(u.Obj)
			if o < 0 {
				o = oldObjs - 1
			}
			c.oc.Revert(o, *u)
		}
		c.objUndo = c.objUndo[:ko]
	}
	for k := len(c.atUndo) - 1; k >= int(ka); k-- {
		u := c.atUndo[k]
		c.at[u.t] = u.prev
	}
	c.atUndo = c.atUndo[:ka]
	c.objAt, c.atAt = c.objAt[:keep], c.atAt[:keep]
	if oldObjs != c.objs && c.flatOK {
		// The time object moves from its old place to its new one; the
		// objects of the old trace past the new number are zero.
		if c.objs > oldObjs {
			c.fo.resize(c.objs)
			c.fo.move(oldObjs-1, c.objs-1)
		} else {
			c.fo.move(oldObjs-1, c.objs-1)
			c.fo.resize(c.objs)
		}
	} else if oldObjs != c.objs {
		t := c.oc.Save(oldObjs - 1)
		c.oc.Restore(oldObjs-1, trace.PObjectState{})
		c.oc.Resize(c.objs)
		c.oc.Restore(c.objs-1, t)
	}
}

// rollbackFlat undoes the changes of the objects' flat clocks from the
// undo log's ko-th on (see rollback).
func (c *clocks) rollbackFlat(ko, oldObjs int) {
	log := &c.flog
	for k := len(log.ch) - 1; k >= ko; k-- {
		u := log.ch[k]
		o := int(u.obj)
		if o < 0 {
			o = oldObjs - 1
		}
		c.fo.revert(o, u, log.old)
	}
	if ko < len(log.ch) {
		log.old = log.old[:log.ch[ko].at]
	}
	log.ch = log.ch[:ko]
}

// setAt sets the thread clock of t to event i's (or its starter's), in
// the undo log if it is kept.
func (c *clocks) setAt(t trace.ThreadID, i int32) {
	if c.logged {
		c.atUndo = append(c.atUndo, atUndo{int32(t), c.at[t]})
	}
	c.at[t] = i
}

// clock returns the persistent clock of event i (if !flatOK).
func (c *clocks) clock(i int) trace.PClock { return c.ev[i] }

// row returns the flat clock of event i (if flatOK).
func (c *clocks) row(i int) trace.VC { return c.flat[i*c.n : (i+1)*c.n] }

// vc returns a copy of the clock of event i.
func (c *clocks) vc(i int) trace.VC {
	if c.flatOK {
		return c.row(i).Copy()
	}
	return c.ev[i].VC(c.n)
}

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
// and the clocks are kept the same way (flatFor), their clocks are kept,
// the thread and object clocks after them are those of the last run with
// its later events undone (rollback), or, if it kept no undo log, rebuilt
// from the prefix's clocks (resume), and only the rest are computed.
//
// It polls stop between events and reports false if stop fired before
// every clock was computed: the clocks of the events before the one it
// stopped at stay valid for the next run.
func (c *clocks) run(tr *trace.Trace, failLast bool, from int, stop *strategy.Stop) bool {
	if from > c.valid || len(tr.Threads) != c.n || from > len(tr.Events) || c.flatFor(tr) != c.flatOK {
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
			c.objAt = append(c.objAt[:done], c.objLogLen())
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
	switch {
	case rolled:
		for spawned < c.n && int(tr.Threads[spawned].Step) < from {
			spawned++
		}
	case from > 0:
		spawned = c.resume(tr, from)
	default:
		spawned = c.spawn(tr, -1, 0)
	}
	var stopped bool
	if c.flatOK {
		done, stopped = c.runFlat(tr, failLast, from, spawned, stop)
	} else {
		done, stopped = c.runPersistent(tr, failLast, from, spawned, stop)
	}
	return !stopped
}

// spawn sets the thread clocks of the threads started by event i (-1: at
// the start), from thread spawned on, to their parents', and returns the
// number of threads started by then.
func (c *clocks) spawn(tr *trace.Trace, i, spawned int) int {
	for spawned < c.n && int(tr.Threads[spawned].Step) == i {
		if p := tr.Threads[spawned].Parent; p != trace.NoThread {
			c.setAt(trace.ThreadID(spawned), c.at[p])
		}
		spawned++
	}
	return spawned
}

// object returns the index of object o in the object clocks: the time
// object comes last.
func (c *clocks) object(o trace.ObjectID) int {
	if o == trace.TimeObject {
		return c.objs - 1
	}
	return int(o)
}

// logName returns the name of object o in the undo log: -1 for the time
// object, whose index changes with the trace's number of objects.
func logName(o trace.ObjectID) int32 {
	if o == trace.TimeObject {
		return -1
	}
	return int32(o)
}

// logStart notes in the undo log, if it is kept, where event i's changes
// start.
func (c *clocks) logStart(i int) {
	if c.logged {
		c.objAt = append(c.objAt[:i], c.objLogLen())
		c.atAt = append(c.atAt[:i], int32(len(c.atUndo)))
	}
}

// runFlat is run's loop from event from on, with flat clocks; spawned is
// the number of threads started before from. It returns the number of
// events whose clocks it computed, and whether stop fired.
func (c *clocks) runFlat(tr *trace.Trace, failLast bool, from, spawned int, stop *strategy.Stop) (int, bool) {
	var log *flatLog
	if c.logged {
		log = &c.flog
	}
	for i := from; i < len(tr.Events); i++ {
		if stop.Poll() {
			return i, true
		}
		e := &tr.Events[i]
		c.logStart(i)
		row := c.row(i)
		if at := c.at[e.Thread]; at >= 0 {
			row.CopyFrom(c.row(int(at)))
		} else {
			row.Clear()
		}
		if e.Partner != trace.NoThread {
			c.joinThread(row, e.Partner)
		}
		if e.Op.Kind == trace.KindJoin {
			c.joinThread(row, trace.ThreadID(e.Op.Arg))
		}
		acc := c.steps.Accesses(i)
		for _, x := range acc {
			c.fo.order(c.object(x.Obj), x.Mode, row)
		}
		if failLast && i == len(tr.Events)-1 {
			for t := range c.n {
				c.joinThread(row, trace.ThreadID(t))
			}
		}
		if e.Partner != trace.NoThread {
			row[e.Partner] = uint32(i + 1)
		}
		row[e.Thread] = uint32(i + 1)
		for _, x := range acc {
			c.fo.record(c.object(x.Obj), x.Mode, row, logName(x.Obj), log)
		}
		c.setAt(e.Thread, int32(i))
		if e.Partner != trace.NoThread {
			c.setAt(e.Partner, int32(i))
		}
		spawned = c.spawn(tr, i, spawned)
	}
	return len(tr.Events), false
}

// joinThread joins the flat clock of thread p into row.
func (c *clocks) joinThread(row trace.VC, p trace.ThreadID) {
	if at := c.at[p]; at >= 0 {
		row.Join(c.row(int(at)))
	}
}

// runPersistent is runFlat with persistent clocks.
func (c *clocks) runPersistent(tr *trace.Trace, failLast bool, from, spawned int, stop *strategy.Stop) (int, bool) {
	for i := from; i < len(tr.Events); i++ {
		if stop.Poll() {
			return i, true
		}
		e := &tr.Events[i]
		c.logStart(i)
		cv := c.thread(e.Thread)
		if e.Partner != trace.NoThread {
			cv = cv.Join(c.thread(e.Partner))
		}
		if e.Op.Kind == trace.KindJoin {
			cv = cv.Join(c.thread(trace.ThreadID(e.Op.Arg)))
		}
		acc := c.steps.Accesses(i)
		for _, x := range acc {
			cv = c.oc.Order(c.object(x.Obj), x.Mode, cv)
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
			o := c.object(x.Obj)
			if !c.logged {
				c.oc.Record(o, x.Mode, cv)
				continue
			}
			c.objUndo = c.oc.RecordLogged(o, x.Mode, cv, logName(x.Obj), c.objUndo)
		}
		c.ev[i] = cv
		c.setAt(e.Thread, int32(i))
		if e.Partner != trace.NoThread {
			c.setAt(e.Partner, int32(i))
		}
		spawned = c.spawn(tr, i, spawned)
	}
	return len(tr.Events), false
}

// resume sets the thread and object clocks to what they are after the first
// from events of tr, whose clocks are set, and returns the number of threads
// started by then. Going backwards: a thread's clock is that of its last
// event, or of the event that started it; an object's clocks are rebuilt
// from its accesses back to its last write (trace.ObjectClocks.
// RecordBackward).
func (c *clocks) resume(tr *trace.Trace, from int) int {
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
	for i := from - 1; i >= 0; i-- {
		e := &tr.Events[i]
		mark(e.Thread, i)
		if e.Partner != trace.NoThread {
			mark(e.Partner, i)
		}
		for _, x := range c.steps.Accesses(i) {
			o := c.object(x.Obj)
			switch {
			case seenO[o]:
			case c.flatOK:
				seenO[o] = c.fo.recordBackward(o, x.Mode, c.row(i))
			default:
				seenO[o] = c.oc.RecordBackward(o, x.Mode, c.clock(i))
			}
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
	full := clocks{persistent: c.persistent}
	full.run(tr, failLast, 0, nil)
	for i := range tr.Events {
		if !slices.Equal(c.vc(i), full.vc(i)) || !slices.Equal(c.steps.Accesses(i), full.steps.Accesses(i)) {
			panic(fmt.Sprintf("weft internal error: optimal: the clocks kept for event %d differ from a full computation: %v %v, want %v %v",
				i, c.vc(i), c.steps.Accesses(i), full.vc(i), full.steps.Accesses(i)))
		}
	}
}
