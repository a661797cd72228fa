// This file computes the state a reversed receive needs at a cost that does
// not grow with the number of threads and objects of the execution: only
// its channels and the threads that send on them.

package optimal

import (
	"fmt"
	"slices"
	"sort"

	"github.com/weft-go/weft/model"
	"github.com/weft-go/weft/trace"
)

// sparseWorld is the memory of recvWorldAt: a state whose objects and
// threads are all initial (for the trace analysed) but for those set by
// the last call, which the next one resets.
type sparseWorld struct {
	w world
	// ok says that w was reset for the trace analysed (prepare clears it).
	ok bool
	// objs and threads are the entries the last call set.
	objs    []trace.ObjectID
	threads []trace.ThreadID
	// senders lists, per object, the threads that send on it in some
	// step of the trace or in their final pending operation (a send, or a
	// select with a send case on it), in increasing order; sendersOK says
	// whether it indexes the trace.
	senders   [][]trace.ThreadID
	sendersOK bool
}

// recvWorldAt returns the state pre(E, i).notdep(i, E) up to position
// limit as far as the alternatives of op, thread p's receive or select of
// receive cases on channels, read it (model.State.Alternatives, Label):
// the states of op's channels, and the pending operations and step counts
// of p and of the threads that send on those channels (the state's
// Partners). Its other objects and threads are in their initial states.
// It returns nil for any other operation, which needs worldAt: a select
// with a send case (whether it panics reads every object: InOnce), and
// timers (their senders move with virtual time).
func (a *analysis) recvWorldAt(i, limit int, p trace.ThreadID, op trace.Op) *world {
	tr := a.tr
	isChan := func(o trace.ObjectID) bool {
		return o < 0 || (int(o) < len(tr.Objects) && tr.Objects[o].Class == trace.ClassChan)
	}
	switch {
	case op.Kind == trace.KindRecv && op.Class == trace.ClassChan && isChan(op.Obj):
	case op.Kind == trace.KindSelect && op.Class == trace.ClassChan:
		for _, c := range op.Cases {
			if c.Kind != trace.KindRecv || !isChan(c.Obj) {
				return nil
			}
		}
	default:
		return nil
	}
	sw := &a.sw
	w := &sw.w
	if !sw.ok {
		sw.ok = true
		w.Reset(tr.Objects, len(tr.Threads))
		sw.objs, sw.threads = sw.objs[:0], sw.threads[:0]
	}
	// Back to the initial state.
	for _, o := range sw.objs {
		w.Objects[o].Reset(&tr.Objects[o])
	}
	for _, q := range sw.threads {
		w.Threads[q] = model.Thread{Last: model.NoEvent}
	}
	sw.objs, sw.threads = sw.objs[:0], sw.threads[:0]
	w.Evals = tr.Evals

	add := func(o trace.ObjectID) {
		if o >= 0 && int(o) < len(tr.Objects) && !slices.Contains(sw.objs, o) {
			sw.objs = append(sw.objs, o)
		}
	}
	if op.Kind == trace.KindRecv {
		add(op.Obj)
	}
	for _, c := range op.Cases {
		add(c.Obj)
	}
	for _, o := range sw.objs {
		x := &w.Objects[o]
		for _, r := range a.touched(o) {
			k := int(r.i)
			if k >= limit {
				break
			}
			if a.included(i, limit, k) {
				x.Apply(o, &tr.Events[k], r.i)
			}
		}
		sw.threads = append(sw.threads, a.sendersOn(o)...)
	}
	slices.Sort(sw.threads)
	sw.threads = slices.Compact(sw.threads)
	w.Partners = append(w.Partners[:0], sw.threads...)
	if w.Partners == nil {
		w.Partners = make([]trace.ThreadID, 0, 8)
	}
	if _, found := slices.BinarySearch(sw.threads, p); !found {
		sw.threads = append(sw.threads, p) // its steps name the alternatives
	}
	for _, q := range sw.threads {
		a.setThread(w, i, limit, q)
	}
	return w
}

// setThread sets thread q's entry of w as worldAt does: its number of
// events in pre(E, i).notdep(i, E) up to limit and, if q has started
// there, its pending operation (not its last event: Last, which only a
// Join's outcome reads).
func (a *analysis) setThread(w *world, i, limit int, q trace.ThreadID) {
	idx := a.byThread[q]
	// Its events before i are in; i is not; after i, those before limit
	// that i does not happen before, which precede those it does (a
	// thread's events are ordered).
	n := sort.Search(len(idx), func(x int) bool { return int(idx[x]) >= i })
	if n < len(idx) && int(idx[n]) == i {
		// i is q's: every later event of q happens after it.
	} else {
		n += sort.Search(len(idx)-n, func(x int) bool {
			k := int(idx[n+x])
			return k >= limit || a.before(i, k)
		})
	}
	t := &w.Threads[q]
	t.Steps = int32(n)
	if st := a.tr.Threads[q].Step; st < 0 || a.included(i, limit, int(st)) {
		t.Op, t.Done = a.pendingOp(q, n)
	}
}

// sendersOn returns the threads that send on object o in a step of the
// trace or in their final pending operation, in increasing order.
func (a *analysis) sendersOn(o trace.ObjectID) []trace.ThreadID {
	sw := &a.sw
	if !sw.sendersOK {
		sw.sendersOK = true
		tr := a.tr
		for len(sw.senders) < len(tr.Objects) {
			sw.senders = append(sw.senders, nil)
		}
		sw.senders = sw.senders[:len(tr.Objects)]
		for x := range sw.senders {
			sw.senders[x] = sw.senders[x][:0]
		}
		note := func(q trace.ThreadID, op *trace.Op) {
			if op.Class != trace.ClassChan {
				return
			}
			if op.Kind == trace.KindSend {
				sw.addSender(op.Obj, q)
			}
			for _, c := range op.Cases {
				if c.Kind == trace.KindSend {
					sw.addSender(c.Obj, q)
				}
			}
		}
		for k := range tr.Events {
			e := &tr.Events[k]
			note(e.Thread, &e.Op)
			if e.Partner != trace.NoThread {
				note(e.Partner, &e.PartnerOp)
			}
		}
		for q := range tr.Final {
			note(trace.ThreadID(q), &tr.Final[q])
		}
		for x, l := range sw.senders {
			slices.Sort(l)
			sw.senders[x] = slices.Compact(l)
		}
	}
	if o < 0 || int(o) >= len(sw.senders) {
		return nil
	}
	return sw.senders[o]
}

// addSender notes that thread q sends on object o.
func (sw *sparseWorld) addSender(o trace.ObjectID, q trace.ThreadID) {
	if o < 0 || int(o) >= len(sw.senders) {
		return
	}
	l := sw.senders[o]
	if n := len(l); n == 0 || l[n-1] != q {
		sw.senders[o] = append(l, q)
	}
}

// verifyRecvWorld panics if the alternatives of op, thread p's receive,
// and the pending operations of their partners differ between the states
// recvWorldAt and worldAt compute (verification: hb.verify).
func (a *analysis) verifyRecvWorld(i, limit int, p trace.ThreadID, op trace.Op) {
	type alt struct {
		l  label
		op trace.Kind
	}
	collect := func(w *world) (l []alt, v model.Verdict) {
		v = labels(w, p, op, func(x label) bool {
			k := trace.KindNone
			if x.partner != trace.NoThread {
				k = w.Threads[x.partner].Op.Kind
			}
			l = append(l, alt{x, k})
			return true
		})
		return l, v
	}
	sparse, sv := collect(&a.sw.w)
	full, fv := collect(a.worldAt(i, limit))
	if sv != fv || !slices.Equal(sparse, full) {
		panic(fmt.Sprintf("weft internal error: the alternatives of %v's %v after reversing event %d before %d are %v (%v) in the state of its channels, %v (%v) in the whole state", p, op, i, limit, sparse, sv, full, fv))
	}
}
