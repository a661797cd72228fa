// This file models reader/writer mutexes (internal/engine/rwmutex.go): the
// writer (held, or announced and waiting for the readers to leave), the
// readers and the read locks each thread holds, which decide whether an
// RUnlock is balanced (trace.RUnlockBalanced).

package model

import "github.com/weft-go/weft/trace"

func init() {
	register(&primitive{class: trace.ClassRWMutex, apply: (*Object).applyRWMutex, ops: []opModel{
		{kind: trace.KindLock, ready: (*Object).rwReady, objOutcome: (*Object).rwOutcome},
		{kind: trace.KindRLock, ready: (*Object).rwReady, objOutcome: (*Object).rwOutcome},
		{kind: trace.KindUnlock, objOutcome: (*Object).rwOutcome},
		{kind: trace.KindRUnlock, objOutcome: (*Object).rwOutcome},
		{kind: trace.KindTryLock, objOutcome: (*Object).rwOutcome, observed: observeOK},
	}})
}

// RWAnnounced is the Op.Arg of a writer's second Lock step, after it
// announced itself: it waits for the readers to leave.
const RWAnnounced = 1

// applyRWMutex applies event e, of index i, to RWMutex o.
func (o *Object) applyRWMutex(e *trace.Event, i int32) {
	switch e.Op.Kind {
	case trace.KindLock:
		switch {
		case e.Op.Arg == RWAnnounced: // the announced writer takes the lock
			o.Writers--
			o.Locked = true
		case e.OK:
			o.Locked = true
		default: // the writer announces itself
			o.Writers++
		}
	case trace.KindUnlock:
		o.Locked = false
		if e.OK {
			o.Rel = i
		}
	case trace.KindRLock:
		o.N++
		o.addRead(e.Thread, 1)
	case trace.KindRUnlock:
		if e.OK {
			o.N--
			if o.addRead(e.Thread, -1) == 0 {
				o.Done = true
			}
			o.RRel = i
		}
	case trace.KindTryLock:
		if !e.OK {
			return
		}
		if e.Op.Arg == trace.TryRLockArg {
			o.N++
			o.addRead(e.Thread, 1)
		} else {
			o.Locked = true
		}
	}
}

// addRead adds d to the read locks of RWMutex o held by thread p (never
// below 0) and returns what it held before.
func (o *Object) addRead(p trace.ThreadID, d int64) int64 {
	if k := o.entry(p); k >= 0 {
		w := &o.Queue[k]
		before := w.Cond
		w.Cond = max(before+d, 0)
		return before
	}
	if d > 0 {
		o.Queue = append(o.Queue, Waiter{Thread: p, Cond: d, By: NoEvent})
	}
	return 0
}

// Balanced returns the Op.Arg of an RUnlock of RWMutex o by thread p:
// trace.RUnlockBalanced if p holds a read lock and no RUnlock of o by a
// thread that held none has succeeded, else 0.
func (o *Object) Balanced(p trace.ThreadID) int64 {
	if k := o.entry(p); k >= 0 && !o.Done && o.Queue[k].Cond > 0 {
		return trace.RUnlockBalanced
	}
	return 0
}

// writerSource is the event a writer that takes RWMutex o synchronises
// with: the later of its last Unlock and its last RUnlock.
func (o *Object) writerSource() int32 { return max(o.Rel, o.RRel) }

// rwOutcome is the outcome of op on RWMutex o.
func (o *Object) rwOutcome(_ trace.ThreadID, op trace.Op, out Outcome) Outcome {
	switch op.Kind {
	case trace.KindLock:
		switch {
		case op.Arg == RWAnnounced:
			out.Source = o.RRel
		case o.N == 0:
			out.Source = o.writerSource()
		default:
			// Readers are in: the writer announces itself (Value: how
			// many) and waits for them in a second step.
			out.OK, out.Value, out.Source = false, uint64(o.N), o.Rel
			out.Next = trace.Op{Kind: trace.KindLock, Class: trace.ClassRWMutex, Obj: op.Obj, Arg: RWAnnounced}
		}
	case trace.KindUnlock:
		if !o.Locked {
			out.OK, out.Fail, out.Fatal = false, trace.UnlockOfUnlocked, true
		}
	case trace.KindRLock:
		out.Value, out.Source = uint64(o.N+1), o.Rel
	case trace.KindRUnlock:
		if o.N == 0 {
			out.OK, out.Fail, out.Fatal = false, trace.UnlockOfUnlocked, true
			return out
		}
		out.Value = uint64(o.N - 1)
	case trace.KindTryLock:
		if op.Arg == trace.TryRLockArg {
			out.OK = !o.Locked && o.Writers == 0
			out.Value = uint64(o.N)
			if out.OK {
				out.Value, out.Source = uint64(o.N+1), o.Rel
			}
			return out
		}
		out.OK = !o.Locked && o.Writers == 0 && o.N == 0
		if out.OK {
			out.Source = o.writerSource()
		}
	}
	return out
}

// rwReady is the enabledness of op on RWMutex o: a writer first needs the
// writer slot (no writer holds or announced), then, announced, no reader;
// a reader needs no writer holding or announced (Go's RWMutex).
func (o *Object) rwReady(op trace.Op) Verdict {
	if op.Kind == trace.KindLock && op.Arg == RWAnnounced {
		return verdict(o.N == 0)
	}
	return verdict(!o.Locked && o.Writers == 0)
}
