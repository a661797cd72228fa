// This file models condition variables (internal/engine/cond.go): the FIFO
// queue of waiters, each marked with the Signal or Broadcast that woke it
// until its Relock takes it out of the queue. A Wait with a Mutex releases
// it (unlocking an unlocked mutex is a fatal error); the Relock is enabled
// once the waiter is woken and the mutex free.

package model

import "github.com/weft-go/weft/trace"

func init() {
	register(&primitive{class: trace.ClassCond, apply: (*Object).applyCond, ops: []opModel{
		{kind: trace.KindWait, outcome: (*State).condOutcome, applyArg: (*Object).applyCondMutex},
		{kind: trace.KindRelock, enabled: (*State).relockReady, outcome: (*State).condOutcome, applyArg: (*Object).applyCondMutex},
		{kind: trace.KindSignal, objOutcome: (*Object).condSignalOutcome},
		{kind: trace.KindBroadcast, objOutcome: (*Object).condSignalOutcome},
	}})
}

// applyCond applies event e, of index i, to Cond o.
func (o *Object) applyCond(e *trace.Event, i int32) {
	switch e.Op.Kind {
	case trace.KindWait:
		o.Queue = append(o.Queue, Waiter{Thread: e.Thread, By: NoEvent})
	case trace.KindRelock:
		if k := o.entry(e.Thread); k >= 0 {
			o.remove(k)
		}
	case trace.KindSignal:
		if k := o.waiting(0); k >= 0 {
			o.Queue[k].By = i
		}
	case trace.KindBroadcast:
		for k := range o.Queue {
			if o.Queue[k].By < 0 {
				o.Queue[k].By = i
			}
		}
	}
}

// applyCondMutex applies to mutex o a Cond's Wait (it releases the mutex)
// or Relock (it takes it again), event e of index i.
func (o *Object) applyCondMutex(e *trace.Event, i int32) {
	if e.Op.Kind == trace.KindRelock {
		o.Locked = true
		return
	}
	o.Locked = false
	if e.OK {
		o.Rel = i
	}
}

// condOutcome is the outcome of a Wait or Relock, op, by thread p.
func (s *State) condOutcome(p trace.ThreadID, op trace.Op, out Outcome) Outcome {
	if op.Kind == trace.KindRelock {
		if c := s.object(op.Obj); c != nil {
			if k := c.entry(p); k >= 0 {
				out.Source = c.Queue[k].By
			}
		}
		return out
	}
	if op.Arg < 0 {
		return out // another Locker: the thread unlocks it, then awaits
	}
	if m := s.object(trace.ObjectID(op.Arg)); m != nil && !m.Locked {
		out.OK, out.Fail, out.Fatal = false, trace.UnlockOfUnlocked, true
	}
	out.Next = trace.Op{Kind: trace.KindRelock, Class: trace.ClassCond, Obj: op.Obj, Arg: op.Arg}
	return out
}

// condSignalOutcome is the outcome of a Signal (Value: the thread it
// wakes) or Broadcast (Value: how many) on Cond o.
func (o *Object) condSignalOutcome(_ trace.ThreadID, op trace.Op, out Outcome) Outcome {
	switch op.Kind {
	case trace.KindSignal:
		if k := o.waiting(0); k >= 0 {
			out.Value = uint64(o.Queue[k].Thread)
		} else {
			out.OK = false
		}
	case trace.KindBroadcast:
		n := 0
		for k := range o.Queue {
			if o.Queue[k].By < 0 {
				n++
			}
		}
		out.Value, out.OK = uint64(n), n > 0
	}
	return out
}

// relockReady is the enabledness of thread p's Relock, op, of a Cond: it
// was woken, and the mutex (Op.Arg; -1 for another Locker) is free.
func (s *State) relockReady(p trace.ThreadID, op trace.Op) Verdict {
	c := s.object(op.Obj)
	if op.Class != trace.ClassCond || c == nil {
		return Unknown
	}
	if k := c.entry(p); k < 0 || c.Queue[k].By < 0 {
		return Disabled
	}
	if op.Arg < 0 {
		return Enabled
	}
	m := s.object(trace.ObjectID(op.Arg))
	if m == nil {
		return Unknown
	}
	return verdict(!m.Locked)
}
