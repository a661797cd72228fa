// This file models monitors under the signal-and-continue (SC) and
// signal-and-urgent-wait (SU) disciplines (Lei and Carver 2006, §2.4,
// internal/engine/monitor.go): who is inside, the FIFO queue of waiters
// on the conditions (a waiter of SC stays in it, woken, until it
// re-enters) and SU's urgent queue. Exit, Wait and Signal by a thread that
// is not inside, and SignalAll on SU, are fatal misuses.

package model

import "github.com/weft-go/weft/trace"

func init() {
	register(&primitive{class: trace.ClassMonitor, apply: (*Object).applyMonitor, ops: []opModel{
		{kind: trace.KindMEnter, enabled: (*State).monitorEnabled, objOutcome: (*Object).monitorOutcome},
		{kind: trace.KindMExit, objOutcome: (*Object).monitorOutcome},
		{kind: trace.KindMWait, objOutcome: (*Object).monitorOutcome},
		{kind: trace.KindMSignal, objOutcome: (*Object).monitorOutcome},
		{kind: trace.KindMSignalAll, objOutcome: (*Object).monitorOutcome},
		{kind: trace.KindMReenter, enabled: (*State).monitorEnabled, objOutcome: (*Object).monitorOutcome},
	}})
}

// monitorEnabled is the enabledness of thread p's Enter or Reenter, op.
func (s *State) monitorEnabled(p trace.ThreadID, op trace.Op) Verdict {
	o := s.object(op.Obj)
	if o == nil {
		return Unknown
	}
	return verdict(o.monitorReady(p, op))
}

// Urgent is the Waiter.Cond of SU's urgent waiters (and the Op.Arg of their
// Reenter).
const Urgent = -1

// applyMonitor applies event e, of index i, to monitor o. An operation of
// a thread that is not inside fails before it changes anything.
func (o *Object) applyMonitor(e *trace.Event, i int32) {
	p := e.Thread
	inside := o.Locked && o.Owner == p
	switch e.Op.Kind {
	case trace.KindMEnter:
		o.Locked, o.Owner = true, p
	case trace.KindMReenter:
		if k := o.entry(p); k >= 0 && o.Queue[k].By >= 0 {
			o.remove(k)
		}
		o.Locked, o.Owner = true, p
	case trace.KindMExit:
		if inside {
			o.release(i)
		}
	case trace.KindMWait:
		if inside {
			o.Queue = append(o.Queue, Waiter{Thread: p, Cond: e.Op.Arg, By: NoEvent})
			o.release(i)
		}
	case trace.KindMSignal:
		k := o.waiting(e.Op.Arg)
		if !inside || k < 0 {
			return
		}
		if o.Cap != 1 {
			o.Queue[k].By = i
			return
		}
		// SU: the monitor goes to the waiter; the signaller waits urgently.
		o.Owner, o.Hand = o.Queue[k].Thread, i
		o.remove(k)
		o.Queue = append(o.Queue, Waiter{Thread: p, Cond: Urgent, By: NoEvent})
	case trace.KindMSignalAll:
		if !inside || o.Cap == 1 {
			return
		}
		for k := range o.Queue {
			if w := &o.Queue[k]; w.Cond == e.Op.Arg && w.By < 0 {
				w.By = i
			}
		}
	}
}

// release frees monitor o, or hands it (SU) to its first urgent waiter, by
// event i.
func (o *Object) release(i int32) {
	if k := o.waiting(Urgent); k >= 0 {
		o.Owner, o.Hand = o.Queue[k].Thread, i
		o.remove(k)
		return
	}
	o.Locked, o.Owner, o.Rel = false, trace.NoThread, i
}

// monitorOutcome is the outcome of op, by thread p, on monitor o.
func (o *Object) monitorOutcome(p trace.ThreadID, op trace.Op, out Outcome) Outcome {
	inside := o.Locked && o.Owner == p
	switch op.Kind {
	case trace.KindMEnter:
		out.Source = o.Rel
		return out
	case trace.KindMReenter:
		out.Source = o.Hand
		if k := o.entry(p); o.Cap != 1 && k >= 0 {
			out.Source = o.Queue[k].By
		}
		return out
	}
	if !inside {
		out.OK, out.Fail, out.Fatal = false, trace.Panic, true
		return out
	}
	switch op.Kind {
	case trace.KindMExit:
		// Value: the urgent waiter the monitor goes to (OK), if any.
		if k := o.waiting(Urgent); k >= 0 {
			out.Value = uint64(o.Queue[k].Thread)
		} else {
			out.OK = false
		}
	case trace.KindMWait:
		out.Next = trace.Op{Kind: trace.KindMReenter, Class: trace.ClassMonitor, Obj: op.Obj, Arg: op.Arg}
	case trace.KindMSignal:
		k := o.waiting(op.Arg)
		if k < 0 {
			out.OK = false
			return out
		}
		out.Value = uint64(o.Queue[k].Thread)
		if o.Cap == 1 {
			out.Next = trace.Op{Kind: trace.KindMReenter, Class: trace.ClassMonitor, Obj: op.Obj, Arg: Urgent}
		}
	case trace.KindMSignalAll:
		if o.Cap == 1 {
			out.OK, out.Fail, out.Fatal = false, trace.Panic, true
			return out
		}
		n := 0
		for k := range o.Queue {
			if w := &o.Queue[k]; w.Cond == op.Arg && w.By < 0 {
				n++
			}
		}
		out.Value, out.OK = uint64(n), n > 0
	}
	return out
}

// monitorReady is the enabledness of thread p's Enter or Reenter, op, of
// monitor o: Enter needs a free monitor; an SU Reenter, the monitor handed
// to p; an SC Reenter, p woken and the monitor free.
func (o *Object) monitorReady(p trace.ThreadID, op trace.Op) bool {
	if op.Kind == trace.KindMEnter {
		return !o.Locked
	}
	if o.Cap == 1 {
		return o.Locked && o.Owner == p
	}
	k := o.entry(p)
	return k >= 0 && o.Queue[k].By >= 0 && !o.Locked
}

// Waiters returns the number of threads waiting on condition c of monitor
// o (a condition's Len, which is no step).
func (o *Object) Waiters(c int64) int {
	n := 0
	for k := range o.Queue {
		if w := &o.Queue[k]; w.Cond == c && w.By < 0 {
			n++
		}
	}
	return n
}
