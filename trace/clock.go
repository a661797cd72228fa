// This file implements vector clocks and the happens-before relation of a
// trace (Saarikivi et al. 2012, §II-A, Figs. 2 and 3; the CS294-32 DPOR slides, slides 11-12).

package trace

// VC is a vector clock indexed by ThreadID. Entry q is 1 + the index of the
// last event of thread q that happens before (or is) the point the clock
// describes, or 0 if there is none; this is Saarikivi et al. 2012's clock, whose entries
// are indices into the execution sequence (Fig. 1, line 21: cv[p] := |E'|).
type VC []uint32

// Join sets c to the pointwise maximum of c and o (vmax). o may be shorter.
// It stores every entry, with max rather than a branch on which is
// larger, which varies from entry to entry and from join to join: the
// flat clocks of optimal join rows this way at every event, as their
// loops did before they called Join.
func (c VC) Join(o VC) {
	for i, x := range o[:min(len(o), len(c))] {
		c[i] = max(c[i], x)
	}
}

// Leq reports whether c <= o pointwise (missing entries of o are 0).
func (c VC) Leq(o VC) bool {
	for i, x := range c {
		if x == 0 {
			continue
		}
		if i >= len(o) || x > o[i] {
			return false
		}
	}
	return true
}

// CopyFrom sets c to o (missing entries of o are 0).
func (c VC) CopyFrom(o VC) {
	n := copy(c, o)
	clear(c[n:])
}

// Copy returns a new clock equal to c.
func (c VC) Copy() VC { return append(VC(nil), c...) }

// Clear sets every entry of c to 0.
func (c VC) Clear() { clear(c) }

// Knows reports whether event i, an event of thread q, happens before (or
// is) the point c describes.
func (c VC) Knows(i int, q ThreadID) bool {
	return int(q) < len(c) && int(c[q]) > i
}

// HB computes the happens-before relation of a trace, event by event: the
// smallest order that contains program order, spawn order (a thread starts
// after the event in whose local code it was started), join order (a Join
// comes after the joined thread's last event) and the order of dependent
// steps under a Relation (Steps: an event's accesses and those of the
// operations announced in its local code). A rendezvous event belongs to
// both its threads: their clocks are joined.
//
// Dependent events are ordered through per-object clocks, as in Saarikivi et al. 2012
// Fig. 3 (ObjectClocks): a write joins the clock of every access, a read
// only those of the writes and shared updates, so reads do not order each
// other under CR, nor shared updates each other. Under Plain every access
// is a write (Fig. 2).
//
// Use it incrementally (Reset, then Step for each event, asking Thread for
// the clock of a thread in the state reached) or at once (Run, then Clock and
// Before). Its memory is reused across Resets; a Step allocates only the
// parts of its clock that changed (PClock).
//
//	var h trace.HB
//	h.Reset(tr, trace.CR)
//	h.Run()
//	if h.Before(2, 5) { ... } // event 2 happens before event 5
type HB struct {
	rel     Relation
	tr      *Trace
	n       int // threads
	objs    int // objects, plus one for TimeObject
	done    int // events processed
	spawned int // threads whose start clock is set
	ev      []PClock
	pred    []int32 // the latest event that happens before each event
	th      []PClock
	oc      PObjectClocks
	steps   Steps
}

// Reset starts the computation for tr under rel. tr must not change until
// the HB is done with it.
func (h *HB) Reset(tr *Trace, rel Relation) {
	h.rel, h.tr = rel, tr
	h.steps.Reset(tr, rel)
	h.n = len(tr.Threads)
	h.objs = len(tr.Objects) + 1
	h.done, h.spawned = 0, 0
	h.ev = growClocks(h.ev, len(tr.Events))
	h.pred = growInt32(h.pred, len(tr.Events))
	h.th = growClocks(h.th, h.n)
	h.oc.Reset(h.objs)
	h.spawn(-1)
}

// grow returns s resized to n entries, reusing its memory.
func grow(s []uint32, n int) []uint32 {
	if cap(s) < n {
		return make([]uint32, n, n+n/2)
	}
	return s[:n]
}

// growClocks returns s resized to n zero clocks, reusing its memory.
func growClocks(s []PClock, n int) []PClock {
	if cap(s) < n {
		return make([]PClock, n, n+n/8)
	}
	s = s[:n]
	clear(s)
	return s
}

// spawn gives the threads started in the local code of event i (i = -1:
// before the first step) the clock of their parent.
func (h *HB) spawn(i int) {
	for h.spawned < h.n && int(h.tr.Threads[h.spawned].Step) == i {
		c := ThreadID(h.spawned)
		if p := h.tr.Threads[c].Parent; p != NoThread {
			h.th[c] = h.th[p]
		}
		h.spawned++
	}
}

// Len returns the number of events processed.
func (h *HB) Len() int { return h.done }

// Thread returns the clock of thread p in the state reached: after the events
// processed so far.
func (h *HB) Thread(p ThreadID) PClock { return h.th[p] }

// Clock returns the clock of processed event i.
func (h *HB) Clock(i int) PClock { return h.ev[i] }

// obj returns the index of object o in the per-object clocks.
func (h *HB) obj(o ObjectID) int {
	if o == TimeObject {
		return h.objs - 1
	}
	return int(o)
}

// Step processes the next event and returns its clock. The clocks are
// persistent (PClock): an event's shares with those it was computed from
// what did not change, so a step costs the entries it changes, not the
// number of threads.
func (h *HB) Step() PClock {
	i := h.done
	e := &h.tr.Events[i]
	cv := h.th[e.Thread]
	if e.Partner != NoThread {
		cv = cv.Join(h.th[e.Partner])
	}
	if e.Op.Kind == KindJoin {
		cv = cv.Join(h.th[e.Op.Arg])
	}
	acc := h.steps.Accesses(i)
	for _, x := range acc {
		cv = h.oc.Order(h.obj(x.Obj), x.Mode, cv)
	}
	h.pred[i] = int32(cv.Max()) - 1
	// The partner first: the clock then holds the thread's entry apart
	// (PClock), and the partner's goes into its tree. The thread's clock
	// after a rendezvous is often the partner's next one too (a chain of
	// threads, each receiving from one and sending to the next), whose
	// own entry is then set at no cost.
	if e.Partner != NoThread {
		cv = cv.Set(e.Partner, uint32(i+1))
	}
	cv = cv.Set(e.Thread, uint32(i+1))
	for _, x := range acc {
		h.oc.Record(h.obj(x.Obj), x.Mode, cv)
	}
	h.th[e.Thread] = cv
	if e.Partner != NoThread {
		h.th[e.Partner] = cv
	}
	h.ev[i] = cv
	h.done++
	h.spawn(i)
	return cv
}

// Steps returns the accesses of the trace's steps (its events and their
// announcements), as HB orders them.
func (h *HB) Steps() *Steps { return &h.steps }

// Run processes every remaining event.
func (h *HB) Run() {
	for h.done < len(h.tr.Events) {
		h.Step()
	}
}

// Before reports whether processed event i happens before processed event
// j (i != j).
func (h *HB) Before(i, j int) bool {
	if i >= j {
		return false
	}
	return h.ev[j].Knows(i, h.tr.Events[i].Thread)
}

// LastBefore returns the latest processed event that happens before event
// j (processed), or -1 if none does: no event between it and j happens
// before j.
func (h *HB) LastBefore(j int) int { return int(h.pred[j]) }

// BeforeThread reports whether processed event i happens before thread p's
// next step in the state reached (Saarikivi et al. 2012, Fig. 1: i <= CP(p)(proc(E_i))).
func (h *HB) BeforeThread(i int, p ThreadID) bool {
	return h.th[p].Knows(i, h.tr.Events[i].Thread)
}

// HappensBefore returns the clock of every event of tr under rel: event i
// happens before event j iff i < j and HappensBefore(tr, rel)[j].Knows(i,
// tr.Events[i].Thread).
func HappensBefore(tr *Trace, rel Relation) []VC {
	var h HB
	h.Reset(tr, rel)
	h.Run()
	out := make([]VC, len(tr.Events))
	for i := range out {
		out[i] = h.Clock(i).VC(h.n)
	}
	return out
}
