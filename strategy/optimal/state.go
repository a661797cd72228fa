// This file computes what a reversed race needs from a finished trace: the
// state pre(E, e).notdep(e, E) that a wakeup sequence reaches, whether a
// step can run there, and what it reads and does there.

package optimal

import (
	"github.com/weft-go/weft/model"
	"github.com/weft-go/weft/trace"
)

// readyAt returns the enabledness of op, an operation of
// model.ObjectOnly, in the state pre(E, i).notdep(i, E) up to position
// limit: its object's state is that of the events in it that change it.
func (a *analysis) readyAt(i, limit int, op trace.Op) model.Verdict {
	o := op.Obj
	if o < 0 || int(o) >= len(a.tr.Objects) {
		return model.Unknown
	}
	s := &a.obj
	s.Reset(&a.tr.Objects[o])
	for _, r := range a.touched(o) {
		k := int(r.i)
		if k >= limit {
			break
		}
		if a.included(i, limit, k) {
			s.Apply(o, &a.tr.Events[k], r.i)
		}
	}
	return s.Ready(op)
}

// worldAt returns the state pre(E, i).notdep(i, E) up to position limit.
func (a *analysis) worldAt(i, limit int) *world {
	tr := a.tr
	w := &a.w
	nt := len(tr.Threads)
	w.Reset(tr.Objects, nt)
	w.Evals = tr.Evals
	for k := 0; k < limit && k < len(a.evs); k++ {
		if a.included(i, limit, k) {
			w.Apply(&tr.Events[k])
		}
	}
	for q := range nt {
		st := tr.Threads[q].Step
		if st < 0 || a.included(i, limit, int(st)) {
			t := &w.Threads[q]
			t.Op, t.Done = a.pendingOp(trace.ThreadID(q), int(t.Steps))
		}
	}
	return w
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

// outcome returns the Event.OK that operation op (with the trace's object
// numbers) will have in the state pre(E, i).notdep(i, E) up to position
// limit, where it is not the trace's event at position self (i < 0: the
// state pre(E, limit)), for the operations whose dependences depend on it:
// whether a CompareAndSwap, TryLock or TryRLock succeeds.
func (a *analysis) outcome(i, limit int, op trace.Op, self int) bool {
	switch {
	case op.Kind == trace.KindCAS && op.Class == trace.ClassVar:
		// The variable's value there (trace.VarValue: commuting adds
		// may have run in another order, or not at all).
		// self is limit or -1: no event before limit is it.
		v := a.varIndex().Value(op.Obj, limit, i, func(k int) bool { return a.before(i, k) })
		return v == uint64(op.Arg)
	case op.Kind == trace.KindTryLock && (op.Class == trace.ClassMutex || op.Class == trace.ClassRWMutex):
		return a.worldAt(i, limit).Outcome(trace.NoThread, op, model.Single).OK
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
		// trace.VarValue's answers, from the index of the variables'
		// events (trace.VarIndex): every event before j, and those of
		// pre(E, i).notdep(i, E).
		before := a.varIndex().Value(e.Op.Obj, j, j, nil)
		at := a.varIndex().Value(e.Op.Obj, j, i, func(k int) bool { return a.before(i, k) })
		return before == at
	}
	o1, o2 := model.Touched(e)
	for k := i; k < j; k++ {
		x1, x2 := model.Touched(&a.tr.Events[k])
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
