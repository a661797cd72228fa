// This file models mutexes (internal/engine/ops.go): held or not, and the
// last release, which the next acquire synchronises with. Unlocking an
// unlocked mutex is a fatal error.

package model

import "github.com/weft-go/weft/trace"

func init() {
	register(&primitive{class: trace.ClassMutex, apply: (*Object).applyMutex, ops: []opModel{
		{kind: trace.KindLock, ready: (*Object).mutexReady, objOutcome: (*Object).mutexOutcome},
		{kind: trace.KindTryLock, objOutcome: (*Object).mutexOutcome, observed: observeOK},
		{kind: trace.KindUnlock, objOutcome: (*Object).mutexOutcome},
	}})
}

// mutexReady is the enabledness of a Lock of mutex o: it is free.
func (o *Object) mutexReady(trace.Op) Verdict { return verdict(!o.Locked) }

// applyMutex applies event e, of index i, to mutex o.
func (o *Object) applyMutex(e *trace.Event, i int32) {
	switch e.Op.Kind {
	case trace.KindLock:
		o.Locked = true
	case trace.KindTryLock:
		o.Locked = o.Locked || e.OK
	case trace.KindUnlock:
		o.Locked = false
		if e.OK {
			o.Rel = i
		}
	}
}

// mutexOutcome is the outcome of op on mutex o.
func (o *Object) mutexOutcome(_ trace.ThreadID, op trace.Op, out Outcome) Outcome {
	switch op.Kind {
	case trace.KindLock:
		out.Source = o.Rel
	case trace.KindTryLock:
		out.OK = !o.Locked
		if out.OK {
			out.Source = o.Rel
		}
	case trace.KindUnlock:
		if !o.Locked {
			out.OK, out.Fail, out.Fatal = false, trace.UnlockOfUnlocked, true
		}
	}
	return out
}
