// This file finds the alternatives of receives and selects that a step
// disabled before their thread chose among them, and reverses those races.

package optimal

import (
	"fmt"
	"slices"

	"github.com/weft-go/weft/model"
	"github.com/weft-go/weft/trace"
)

// alternatives looks for the races of the alternatives of receives and
// selects that an event disabled without their thread taking them: the
// partner another receiver took, the case a close or a receive made not
// ready, the sibling alternatives of the one taken.
func (a *analysis) alternatives() {
	tr := a.tr
	if !a.multi && !slices.ContainsFunc(tr.Final, multi) {
		return
	}
	for i := range tr.Events {
		if tr.Events[i].Op.Class == trace.ClassClock {
			// Time moves: a receive on a timer's channel may lose its
			// alternative to any step.
			a.alternativesAll()
			return
		}
	}
	if !a.hb.verify {
		a.alternativesAffected()
		return
	}
	// With verification on, the reversals are checked against those of
	// every thread's labels.
	unmodelled := a.s.stats.Unmodelled
	a.dry, a.want = true, a.want[:0]
	a.alternativesAll()
	a.dry = false
	a.s.stats.Unmodelled = unmodelled
	a.record, a.got = true, a.got[:0]
	a.alternativesAffected()
	a.record = false
	if !slices.Equal(a.got, a.want) {
		panic(fmt.Sprintf("weft internal error: optimal: the disabled alternatives found from the affected threads differ from those of every thread: %v, want %v", a.got, a.want))
	}
}

// alternativesAll is alternatives, with the labels of every thread
// computed before and after each event.
func (a *analysis) alternativesAll() {
	tr := a.tr
	n := len(a.evs)
	nt := len(tr.Threads)
	w := &a.fw
	w.Reset(tr.Objects, nt)
	w.Evals = tr.Evals
	refresh := func(i int) {
		for q := range nt {
			st := tr.Threads[q].Step
			if st < 0 || int(st) < i {
				t := &w.Threads[q]
				t.Op, t.Done = a.pendingOp(trace.ThreadID(q), int(t.Steps))
			}
		}
	}
	for i := range n {
		if a.s.stop.Poll() {
			return // a bound of the exploration passed: it ends here
		}
		refresh(i)
		e := &tr.Events[i]
		// The labels of every receive and select before and after e.
		a.labs = a.labs[:0]
		var spans [8]labelSpan
		sp := spans[:0]
		for q := range nt {
			if !multi(w.Threads[q].Op) {
				continue
			}
			lo := len(a.labs)
			labels(w, trace.ThreadID(q), w.Threads[q].Op, func(l label) bool { a.labs = append(a.labs, l); return true })
			if len(a.labs) > lo {
				sp = append(sp, labelSpan{trace.ThreadID(q), lo, len(a.labs)})
			}
		}
		w.Apply(e)
		if len(sp) == 0 {
			continue
		}
		refresh(i + 1)
		a.disabledBy(i, w, sp)
	}
}

// alternativesAffected is alternatives for a trace in which time does not
// move: an event changes the state of the objects it touches and the
// pending operations of its threads and of those it starts (model.State.
// Apply), so the alternatives it can disable are those of these threads
// and of the receives and selects on the objects they name. Only their
// labels are computed, before and after the event: the cost of an event
// does not grow with the number of threads.
func (a *analysis) alternativesAffected() {
	tr := a.tr
	n := len(a.evs)
	nt := len(tr.Threads)
	w := &a.fw
	w.Reset(tr.Objects, nt)
	w.Evals = tr.Evals
	a.fwSparse = true
	defer func() { a.fwSparse, w.Partners = false, nil }()
	a.recvOn = resetThreadLists(a.recvOn, len(tr.Objects))
	if cap(a.onList) < nt {
		a.onList = make([]bool, nt)
	}
	a.onList = a.onList[:nt]
	setOp := func(q trace.ThreadID) {
		t := &w.Threads[q]
		t.Op, t.Done = a.pendingOp(q, int(t.Steps))
		if multi(t.Op) {
			eachObj(t.Op, func(o trace.ObjectID) {
				if o >= 0 && int(o) < len(a.recvOn) {
					a.recvOn[o] = append(a.recvOn[o], q)
				}
			})
		}
	}
	inc := 0 // threads started before the event: tr.Threads is in the order of their start
	include := func(i int) {
		for ; inc < nt && int(tr.Threads[inc].Step) < i; inc++ {
			setOp(trace.ThreadID(inc))
		}
	}
	include(0)
	for i := range n {
		if a.s.stop.Poll() {
			return // a bound of the exploration passed: it ends here
		}
		e := &tr.Events[i]
		a.affected(e, i, inc)
		a.labs = a.labs[:0]
		var spans [8]labelSpan
		sp := spans[:0]
		for _, q := range a.aff {
			lo := len(a.labs)
			a.fwLabels(w, q, w.Threads[q].Op, func(l label) bool { a.labs = append(a.labs, l); return true })
			if len(a.labs) > lo {
				sp = append(sp, labelSpan{q, lo, len(a.labs)})
			}
		}
		w.Apply(e)
		setOp(e.Thread)
		if e.Partner != trace.NoThread {
			setOp(e.Partner)
		}
		include(i + 1)
		if len(sp) == 0 {
			continue
		}
		a.disabledBy(i, w, sp)
	}
}

// affected sets a.aff to the threads, of the first inc, whose receive or
// select event i may disable an alternative of, in thread order: its
// threads', and those of the receives and selects on the objects it
// touches or that its threads and the threads it starts name before or
// after it.
func (a *analysis) affected(e *trace.Event, i, inc int) {
	tr := a.tr
	w := &a.fw
	a.aff = a.aff[:0]
	add := func(q trace.ThreadID) {
		if q >= 0 && int(q) < inc && multi(w.Threads[q].Op) {
			a.aff = append(a.aff, q)
		}
	}
	watchers := func(o trace.ObjectID) {
		if o < 0 || int(o) >= len(a.recvOn) {
			return
		}
		// Drop the threads whose operation no longer names o.
		l := a.recvOn[o][:0]
		for _, q := range a.recvOn[o] {
			if op := w.Threads[q].Op; multi(op) && opNames(op, o) && !a.onList[q] {
				a.onList[q] = true
				l = append(l, q)
				add(q)
			}
		}
		for _, q := range l {
			a.onList[q] = false
		}
		a.recvOn[o] = l
	}
	add(e.Thread)
	add(e.Partner)
	o1, o2 := model.Touched(e)
	watchers(o1)
	watchers(o2)
	eachObj(e.Op, watchers)
	eachObj(e.PartnerOp, watchers)
	next := func(q trace.ThreadID, c int) {
		op, _ := a.pendingOp(q, c)
		eachObj(op, watchers)
	}
	next(e.Thread, int(w.Threads[e.Thread].Steps)+1)
	if e.Partner != trace.NoThread {
		next(e.Partner, int(w.Threads[e.Partner].Steps)+1)
	}
	for q := inc; q < len(tr.Threads) && int(tr.Threads[q].Step) == i; q++ {
		next(trace.ThreadID(q), 0)
	}
	slices.Sort(a.aff)
	a.aff = slices.Compact(a.aff)
}

// eachObj calls f for each object op names: its object, the channels of its
// cases, a second object (trace.ArgObject: a Cond's mutex).
func eachObj(op trace.Op, f func(trace.ObjectID)) {
	f(op.Obj)
	for _, c := range op.Cases {
		f(c.Obj)
	}
	if a := trace.ArgObject(&op); a != trace.NoObject {
		f(a)
	}
}

// opNames reports whether op names object o (eachObj).
func opNames(op trace.Op, o trace.ObjectID) bool {
	found := false
	eachObj(op, func(x trace.ObjectID) { found = found || x == o })
	return found
}

// resetThreadLists returns ls with n empty lists, reusing their memory.
func resetThreadLists(ls [][]trace.ThreadID, n int) [][]trace.ThreadID {
	for len(ls) < n {
		ls = append(ls, nil)
	}
	ls = ls[:n]
	for i := range ls {
		ls[i] = ls[i][:0]
	}
	return ls
}

// labelSpan is the labels a.labs[lo:hi] of thread p's receive or select
// before an event.
type labelSpan struct {
	p      trace.ThreadID
	lo, hi int
}

// disabledBy records the alternatives of sp that event i disabled: the
// labels each thread had before i, but for the one i took, that it no
// longer has in w, the state after i.
func (a *analysis) disabledBy(i int, w *world, sp []labelSpan) {
	taken := a.evs[i].label()
	for _, x := range sp {
		a.labs2 = a.labs2[:0]
		if op := w.Threads[x.p].Op; multi(op) {
			a.fwLabels(w, x.p, op, func(l label) bool { a.labs2 = append(a.labs2, l); return true })
		}
		for _, l := range a.labs[x.lo:x.hi] {
			if l == taken || contains(a.labs2, l) {
				continue
			}
			a.disabled(i, x.p, l)
		}
	}
}

// disabled reverses the race of event i with alternative l of thread p,
// which i disabled.
func (a *analysis) disabled(i int, p trace.ThreadID, l label) {
	w := a.worldAt(i, len(a.evs))
	found := false
	op := w.Threads[p].Op
	labels(w, p, op, func(m label) bool { found = m == l; return !found })
	if !found {
		return
	}
	base := event{Event: trace.Event{Thread: p, Op: a.s.nm.op(p, op), OK: true}, spawnLo: trace.NoThread}
	nameThreads(&a.s.tn, &base)
	m := a.eventOf(w, base, l)
	m.cache()
	a.limit = i + 1 // the alternative is pending after i
	a.reverse(i, &m)
}

func contains(ls []label, l label) bool {
	for _, x := range ls {
		if x == l {
			return true
		}
	}
	return false
}

// eventOf returns the event of base's thread with label l in world w.
func (a *analysis) eventOf(w *world, base event, l label) event {
	m := base
	m.step, m.Case, m.Partner, m.PartnerCase, m.pstep = l.step, l.cas, l.partner, l.pcas, l.pstep
	m.spart = a.s.tn.Stable(l.partner)
	if l.partner != trace.NoThread {
		m.PartnerOp = a.s.nm.op(l.partner, w.Threads[l.partner].Op)
	}
	return m
}

// fwLabels is labels in the forward pass's state w. In the pass over the
// affected threads (fwSparse), a receive looks for its partners among the
// threads that send on its channels in the trace (sendersOn) rather than
// among every thread.
func (a *analysis) fwLabels(w *world, p trace.ThreadID, op trace.Op, yield func(label) bool) model.Verdict {
	w.Partners = nil
	if a.fwSparse {
		w.Partners = a.partnersOf(op)
	}
	return labels(w, p, op, yield)
}

// partnersOf returns the threads that send, in the trace, on the channels
// of op, a receive or a select, in increasing order; nil if one of them is
// not a channel (a timer's).
func (a *analysis) partnersOf(op trace.Op) []trace.ThreadID {
	tr := a.tr
	ps := a.partners[:0]
	if ps == nil {
		ps = make([]trace.ThreadID, 0, 8)
	}
	lists := 0
	each := func(o trace.ObjectID) bool {
		if o < 0 {
			return true // a nil channel
		}
		if int(o) >= len(tr.Objects) || tr.Objects[o].Class != trace.ClassChan {
			return false
		}
		ps = append(ps, a.sendersOn(o)...)
		lists++
		return true
	}
	if op.Kind == trace.KindRecv && !each(op.Obj) {
		return nil
	}
	for _, c := range op.Cases {
		if !each(c.Obj) {
			return nil
		}
	}
	if lists > 1 {
		slices.Sort(ps)
		ps = slices.Compact(ps)
	}
	a.partners = ps
	return ps
}
