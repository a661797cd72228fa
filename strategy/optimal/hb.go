// This file computes happens-before over a finished trace with vector clocks
// (seed 000 §II-A and Fig. 3): trace.HB's relation plus the order of spawns,
// and for each event the clock of its threads just before it.

package optimal

import "github.com/weft-go/weft/trace"

// clocks holds the vector clocks of a trace: for event i, clock(i) (what
// happens before or is i) and preClock(i) (what happens before i's threads'
// steps before i: program order and spawn order, without the edges of i's
// own dependences). Entry q of a clock is 1 + the index of q's last event it
// knows, as in trace.VC.
type clocks struct {
	n        int // threads
	objs     int // objects, plus TimeObject and the spawn pseudo-object
	ev, pre  []uint32
	th, w, a []uint32
	cv       trace.VC
	acc      []trace.Access
	steps    trace.Steps // the accesses of each step, announcements included
}

// reset sizes the clocks for tr.
func (c *clocks) reset(tr *trace.Trace) {
	c.n = len(tr.Threads)
	c.objs = len(tr.Objects) + 2
	m := len(tr.Events) * c.n
	c.ev, c.pre = grow(c.ev, m), grow(c.pre, m)
	c.th = grow(c.th, c.n*c.n)
	c.w, c.a = grow(c.w, c.objs*c.n), grow(c.a, c.objs*c.n)
	clear(c.th)
	clear(c.w)
	clear(c.a)
	if cap(c.cv) < c.n {
		c.cv = make(trace.VC, c.n)
	}
	c.cv = c.cv[:c.n]
}

func grow(s []uint32, n int) []uint32 {
	if cap(s) < n {
		return make([]uint32, n, n+n/2)
	}
	return s[:n]
}

func (c *clocks) clock(i int) trace.VC    { return trace.VC(c.ev[i*c.n : (i+1)*c.n]) }
func (c *clocks) preClock(i int) trace.VC { return trace.VC(c.pre[i*c.n : (i+1)*c.n]) }
func (c *clocks) thread(p trace.ThreadID) trace.VC {
	return trace.VC(c.th[int(p)*c.n : (int(p)+1)*c.n])
}
func (c *clocks) wclock(o int) trace.VC { return trace.VC(c.w[o*c.n : (o+1)*c.n]) }
func (c *clocks) aclock(o int) trace.VC { return trace.VC(c.a[o*c.n : (o+1)*c.n]) }

// run computes the clocks of every event of tr. If failLast, the last event
// failed: it comes after every event (see event.fails).
// Dependent events are ordered through per-object clocks as in seed 000
// Fig. 3: a write joins the access clock, a read the write clock.
func (c *clocks) run(tr *trace.Trace, failLast bool) {
	c.reset(tr)
	c.steps.Reset(tr, trace.CR)
	spawned := 0
	spawn := func(i int) {
		for spawned < c.n && int(tr.Threads[spawned].Step) == i {
			if p := tr.Threads[spawned].Parent; p != trace.NoThread {
				c.thread(trace.ThreadID(spawned)).CopyFrom(c.thread(p))
			}
			spawned++
		}
	}
	spawn(-1)
	// spawnObj orders the events that start threads.
	timeObj, spawnObj := c.objs-2, c.objs-1
	obj := func(o trace.ObjectID) int {
		if o == trace.TimeObject {
			return timeObj
		}
		return int(o)
	}
	for i := range tr.Events {
		e := &tr.Events[i]
		cv := c.cv
		cv.CopyFrom(c.thread(e.Thread))
		if e.Partner != trace.NoThread {
			cv.Join(c.thread(e.Partner))
		}
		c.preClock(i).CopyFrom(cv)
		if e.Op.Kind == trace.KindJoin {
			cv.Join(c.thread(trace.ThreadID(e.Op.Arg)))
		}
		c.acc = append(c.acc[:0], c.steps.Accesses(i)...)
		if e.Spawned > 0 {
			c.acc = append(c.acc, trace.Access{Obj: trace.ObjectID(spawnObj), Mode: trace.Write})
		}
		for _, x := range c.acc {
			o := obj(x.Obj)
			if x.Mode == trace.Write {
				cv.Join(c.aclock(o))
			} else {
				cv.Join(c.wclock(o))
			}
		}
		if failLast && i == len(tr.Events)-1 {
			for t := range c.n {
				cv.Join(c.thread(trace.ThreadID(t)))
			}
		}
		cv[e.Thread] = uint32(i + 1)
		if e.Partner != trace.NoThread {
			cv[e.Partner] = uint32(i + 1)
		}
		for _, x := range c.acc {
			o := obj(x.Obj)
			if x.Mode == trace.Write {
				c.wclock(o).CopyFrom(cv)
				c.aclock(o).CopyFrom(cv)
			} else {
				c.aclock(o).Join(cv)
			}
		}
		c.thread(e.Thread).CopyFrom(cv)
		if e.Partner != trace.NoThread {
			c.thread(e.Partner).CopyFrom(cv)
		}
		c.clock(i).CopyFrom(cv)
		spawn(i)
	}
}
