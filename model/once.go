// This file models Once (internal/engine/once.go): whether its function
// runs (and in which thread) or has run. A Do after the function ran
// synchronises with its end.

package model

import "github.com/weft-go/weft/trace"

func init() {
	register(&primitive{class: trace.ClassOnce, apply: (*Object).applyOnce, ops: []opModel{
		{kind: trace.KindOnceDo, ready: (*Object).onceReady, objOutcome: (*Object).onceOutcome, observed: observeOK},
		{kind: trace.KindOnceDone, objOutcome: (*Object).onceOutcome},
	}})
}

// onceReady is the enabledness of a Do of Once o: Do waits while another
// thread runs the function.
func (o *Object) onceReady(trace.Op) Verdict { return verdict(!o.Locked) }

// applyOnce applies event e, of index i, to Once o.
func (o *Object) applyOnce(e *trace.Event, i int32) {
	switch e.Op.Kind {
	case trace.KindOnceDo:
		if e.OK {
			o.Locked, o.Owner = true, e.Thread
		}
	case trace.KindOnceDone:
		o.Locked, o.Owner, o.Done, o.Rel = false, trace.NoThread, true, i
	}
}

// onceOutcome is the outcome of op on Once o: the first Do runs the
// function (OK), later ones return at once.
func (o *Object) onceOutcome(_ trace.ThreadID, op trace.Op, out Outcome) Outcome {
	if op.Kind == trace.KindOnceDo && o.Done {
		out.OK, out.Source = false, o.Rel
	}
	return out
}
