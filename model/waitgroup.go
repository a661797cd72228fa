// This file models WaitGroups (internal/engine/ops.go): the counter, and
// the Add that last brought it to zero, which a Wait synchronises with. A
// negative counter panics.

package model

import "github.com/weft-go/weft/trace"

func init() {
	register(&primitive{class: trace.ClassWaitGroup, apply: (*Object).applyWaitGroup, ops: []opModel{
		{kind: trace.KindWGAdd, objOutcome: (*Object).waitGroupOutcome},
		{kind: trace.KindWGWait, ready: (*Object).waitGroupReady, objOutcome: (*Object).waitGroupOutcome},
	}})
}

// waitGroupReady is the enabledness of a Wait on WaitGroup o: its counter
// is 0.
func (o *Object) waitGroupReady(trace.Op) Verdict { return verdict(o.N == 0) }

// applyWaitGroup applies event e, of index i, to WaitGroup o.
func (o *Object) applyWaitGroup(e *trace.Event, i int32) {
	if e.Op.Kind == trace.KindWGAdd {
		o.N += e.Op.Arg
		if o.N == 0 {
			o.Rel = i
		}
	}
}

// waitGroupOutcome is the outcome of op on WaitGroup o: an Add's Value is
// the new counter.
func (o *Object) waitGroupOutcome(_ trace.ThreadID, op trace.Op, out Outcome) Outcome {
	switch op.Kind {
	case trace.KindWGAdd:
		n := o.N + op.Arg
		out.Value = uint64(n)
		if n < 0 {
			out.Fail = trace.NegativeWaitGroup
		}
	case trace.KindWGWait:
		out.Source = o.Rel
	}
	return out
}
