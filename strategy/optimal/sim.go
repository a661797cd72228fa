// This file adapts package model, the state of every primitive, to the
// algorithm: the labels of a pending operation's alternatives in a state
// computed from a trace (pre(E, e).notdep(e, E), or the current
// execution), and whether a step panics there. Choose checks the model
// against the runtime's count of alternatives at every step where it
// relies on it.

package optimal

import (
	"github.com/weft-go/weft/model"
	"github.com/weft-go/weft/trace"
)

// world is a state as far as enabledness and alternatives go. When time
// moves only when every thread is blocked, the model does not know virtual
// time here (it is not Timed): the enabledness of a sleep and whether a
// timer is due are model.Unknown. When it moves at any step, every move
// of it is an event, and the model knows it (model.State.Now).
type world = model.State

// labels calls yield with the label of each alternative of thread p's
// pending operation op in w, in the runtime's order of alternatives, until
// yield returns false. It returns model.Unknown for a primitive whose
// alternatives w cannot tell (virtual time).
func labels(w *world, p trace.ThreadID, op trace.Op, yield func(label) bool) model.Verdict {
	return w.Alternatives(p, op, func(a model.Alt) bool {
		m := w.Label(p, a)
		l := label{thread: m.Thread, step: m.Step, cas: m.Case, partner: m.Partner, pcas: m.PartnerCase}
		if m.Partner != trace.NoThread {
			l.pstep = m.PartnerStep
		}
		return yield(l)
	})
}

// panics reports whether op, run by thread p in w (case cas of a select, if
// not negative), panics and so ends the execution in its step: a send on or
// a close of a closed channel, unless p is running a Once's function, whose
// end (trace.KindOnceDone) is a step of its own as the panic unwinds (gen
// seed 2911: a select that panicked in Once.Do, taken for the last step,
// raced with every event, and optimal ran one failing trace three times).
func panics(w *world, p trace.ThreadID, op trace.Op, cas int32) bool {
	a := model.Single
	switch {
	case op.Kind == trace.KindSelect:
		if cas < 0 || int(cas) >= len(op.Cases) || op.Cases[cas].Kind != trace.KindSend {
			return false
		}
		a.Case = cas
	case op.Class != trace.ClassChan || (op.Kind != trace.KindSend && op.Kind != trace.KindClose):
		return false
	}
	switch w.Outcome(p, op, a).Fail {
	case trace.SendOnClosed, trace.CloseOfClosed:
		return !w.InOnce(p)
	}
	return false
}

// multi reports whether op may have several alternatives: a receive or a
// select.
func multi(op trace.Op) bool { return model.Multi(op) }
