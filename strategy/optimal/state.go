// This file computes what a reversed race needs from a finished trace: the
// state pre(E, e).notdep(e, E) that a wakeup sequence reaches, whether a
// step can run there, and what it reads and does there.

package optimal

import "github.com/weft-go/weft/trace"

// readyAt returns the enabledness of op, an operation of objectOnly, in
// the state pre(E, i).notdep(i, E) up to position limit: its object's state
// is that of the events in it that change it.
func (a *analysis) readyAt(i, limit int, op trace.Op) verdict {
	o := op.Obj
	if o < 0 || int(o) >= len(a.tr.Objects) {
		return unknown
	}
	var first *trace.Event
	if f := a.first[o]; f >= 0 {
		first = &a.tr.Events[f]
	}
	s := initial(o, &a.tr.Objects[o], first)
	for _, r := range a.touch[o] {
		k := int(r.i)
		if k >= limit {
			break
		}
		if a.included(i, limit, k) {
			s.apply(&a.tr.Events[k], o, &a.tr.Objects[o])
		}
	}
	return readyObj(op, &s)
}

// worldAt returns the state pre(E, i).notdep(i, E) up to position limit.
func (a *analysis) worldAt(i, limit int) *world {
	tr := a.tr
	w := &a.w
	a.initObjs(w)
	nt := len(tr.Threads)
	w.cnt = resize(w.cnt, nt)
	clear(w.cnt)
	w.sig = w.sig[:0]
	for k := 0; k < limit && k < len(a.evs); k++ {
		if a.included(i, limit, k) {
			w.apply(&tr.Events[k])
		}
	}
	w.ops = w.ops[:0]
	w.done = w.done[:0]
	for q := range nt {
		st := tr.Threads[q].Step
		exists := st < 0 || a.included(i, limit, int(st))
		op := trace.Op{}
		done := false
		if exists {
			op, done = a.pendingOp(trace.ThreadID(q), int(w.cnt[q]))
		}
		w.ops = append(w.ops, op)
		w.done = append(w.done, done)
	}
	return w
}

// initObjs sets the objects of w to their initial states.
func (a *analysis) initObjs(w *world) {
	tr := a.tr
	w.info = tr.Objects
	w.objs = w.objs[:0]
	for o := range tr.Objects {
		var first *trace.Event
		if f := a.first[o]; f >= 0 {
			first = &tr.Events[f]
		}
		w.objs = append(w.objs, initial(trace.ObjectID(o), &tr.Objects[o], first))
	}
}

// pendingOp returns the operation of thread q's step c (from 0) in the
// trace, or its final pending operation, and whether q has finished after c
// steps.
func (a *analysis) pendingOp(q trace.ThreadID, c int) (trace.Op, bool) {
	idx := a.byThread[q]
	if c < len(idx) {
		e := &a.tr.Events[idx[c]]
		if e.Thread == q {
			return e.Op, false
		}
		return e.PartnerOp, false
	}
	op := a.tr.Final[q]
	return op, op.Kind == trace.KindNone
}

func resize(s []int32, n int) []int32 {
	if cap(s) < n {
		return make([]int32, n)
	}
	return s[:n]
}

// outcome returns the Event.OK that operation op (with the trace's object
// numbers) will have in the state pre(E, i).notdep(i, E) up to position
// limit, where it is not the trace's event at position self (i < 0: the
// state pre(E, limit)), for the operations whose dependences depend on it:
// whether a CompareAndSwap, TryLock or TryRLock succeeds.
func (a *analysis) outcome(i, limit int, op trace.Op, self int) bool {
	switch {
	case op.Kind == trace.KindCAS && op.Class == trace.ClassVar:
		// The variable's value is the one its last event recorded (0 before
		// any).
		var v uint64
		for k := limit - 1; k >= 0; k-- {
			if k == self || !a.included(i, limit, k) {
				continue
			}
			if e := &a.tr.Events[k]; e.Op.Obj == op.Obj && e.Op.Class == trace.ClassVar {
				v = e.Value
				break
			}
		}
		return v == uint64(op.Arg)
	case op.Kind == trace.KindTryLock && (op.Class == trace.ClassMutex || op.Class == trace.ClassRWMutex):
		w := a.worldAt(i, limit)
		s := &w.objs[op.Obj]
		switch {
		case op.Class == trace.ClassMutex:
			return !s.locked
		case op.Arg == trace.TryRLockArg:
			return !s.locked && s.writers == 0
		}
		return !s.locked && s.writers == 0 && s.n == 0
	}
	return true
}

// sameInput reports whether event j, moved to the state pre(E,
// i).notdep(i, E), reads there what it read in E: the same value of a
// variable, or the same history of its other objects. A failure in its local
// code then happens again.
func (a *analysis) sameInput(i, j int) bool {
	e := &a.tr.Events[j]
	if e.Op.Class == trace.ClassVar {
		before, at := uint64(0), uint64(0)
		found := false
		for k := j - 1; k >= 0; k-- {
			x := &a.tr.Events[k]
			if x.Op.Obj != e.Op.Obj || x.Op.Class != trace.ClassVar {
				continue
			}
			if !found {
				before, found = x.Value, true
			}
			if a.included(i, j, k) {
				at = x.Value
				break
			}
		}
		return before == at
	}
	o1, o2 := touched(e)
	for k := i; k < j; k++ {
		x1, x2 := touched(&a.tr.Events[k])
		if (x1 >= 0 && (x1 == o1 || x1 == o2)) || (x2 >= 0 && (x2 == o1 || x2 == o2)) {
			if !a.included(i, j, k) {
				return false
			}
		}
	}
	return true
}

// included reports whether event k is in the state reached by the
// reversal of a race of event i with an event at position limit:
// pre(E, i).notdep(i, E) up to limit.
func (a *analysis) included(i, limit, k int) bool {
	return k < i || (k > i && k < limit && !a.before(i, k))
}

// step applies event e to world w: its objects' states and its threads'
// steps.
func (a *analysis) step(w *world, e *trace.Event) { w.apply(e) }

// blocking reports whether op can be disabled.
func blocking(op trace.Op) bool {
	switch op.Kind {
	case trace.KindLock, trace.KindRLock, trace.KindRelock, trace.KindWGWait, trace.KindOnceDo,
		trace.KindP, trace.KindV, trace.KindMEnter, trace.KindMReenter, trace.KindJoin,
		trace.KindSleep, trace.KindSend, trace.KindRecv, trace.KindSelect:
		return true
	}
	return false
}
