// This file models condition variables in the enabledness model of sim.go:
// a Cond's FIFO queue of waiters and which threads were signalled, as
// internal/engine/cond.go keeps them, so that a Cond waiter's Relock is
// enabled in a state exactly when the runtime would enable it.

package optimal

import "github.com/weft-go/weft/trace"

// apply applies event e to w: the states of its objects, the queues and
// signals of Conds and monitors (monsim.go), and its threads' steps.
func (w *world) apply(e *trace.Event) {
	a, b := touched(e)
	if a >= 0 && int(a) < len(w.objs) {
		w.objs[a].apply(e, a, &w.info[a])
	}
	if b >= 0 && int(b) < len(w.objs) {
		w.objs[b].apply(e, b, &w.info[b])
	}
	switch e.Op.Class {
	case trace.ClassCond:
		w.cond(e)
	case trace.ClassMonitor:
		w.monitor(e)
	}
	w.cnt[e.Thread]++
	if e.Partner != trace.NoThread {
		w.cnt[e.Partner]++
	}
}

// cond applies event e, an operation on a Cond, to the Cond's queue and the
// signalled flags: Wait enqueues its thread, Signal wakes the first waiter,
// Broadcast all of them, and Relock consumes its thread's signal.
func (w *world) cond(e *trace.Event) {
	o := e.Op.Obj
	if o < 0 || int(o) >= len(w.objs) {
		return
	}
	s := &w.objs[o]
	switch e.Op.Kind {
	case trace.KindWait:
		s.queue = append(s.queue, e.Thread)
		w.signal(e.Thread, false)
	case trace.KindRelock:
		w.signal(e.Thread, false)
	case trace.KindSignal:
		if len(s.queue) > 0 {
			w.signal(s.queue[0], true)
			s.queue = s.queue[1:]
		}
	case trace.KindBroadcast:
		for _, t := range s.queue {
			w.signal(t, true)
		}
		s.queue = s.queue[:0]
	}
}

// signal sets whether thread t was signalled.
func (w *world) signal(t trace.ThreadID, on bool) {
	for int(t) >= len(w.sig) {
		w.sig = append(w.sig, false)
	}
	w.sig[t] = on
}

// relockReady returns the enabledness of a Cond waiter's Relock, op, of
// thread p: it was signalled and the mutex (Op.Arg, -1 for another Locker)
// is unlocked.
func (w *world) relockReady(p trace.ThreadID, op trace.Op) verdict {
	if op.Class != trace.ClassCond {
		return unknown
	}
	if int(p) >= len(w.sig) || !w.sig[p] {
		return disabled
	}
	if op.Arg < 0 {
		return enabled
	}
	if int(op.Arg) >= len(w.objs) {
		return unknown
	}
	return boolVerdict(!w.objs[op.Arg].locked)
}
