// This file models monitors in the enabledness model of sim.go, as
// internal/engine/monitor.go keeps them: who is inside, the FIFO queue of
// waiters on the conditions (and SU's urgent waiters), and which threads
// were signalled, so that Enter and Reenter are enabled in a state exactly
// when the runtime would enable them.

package optimal

import "github.com/weft-go/weft/trace"

// urgent tags SU's urgent waiters in a monitor's queue (monitor.go).
const urgent = -1

// mwaiter is a thread waiting on condition cond of a monitor, or urgent.
type mwaiter struct {
	tid  trace.ThreadID
	cond int64
}

// monitor applies event e, an operation on a monitor, to w. An operation by
// a thread that is not inside fails before it changes anything.
func (w *world) monitor(e *trace.Event) {
	o := e.Op.Obj
	if o < 0 || int(o) >= len(w.objs) {
		return
	}
	s := &w.objs[o]
	su := w.info[o].Cap == 1
	p := e.Thread
	inside := s.locked && s.owner == p
	switch e.Op.Kind {
	case trace.KindMEnter:
		s.locked, s.owner = true, p
	case trace.KindMReenter:
		w.signal(p, false)
		s.locked, s.owner = true, p
	case trace.KindMExit:
		if inside {
			s.release()
		}
	case trace.KindMWait:
		if inside {
			s.mq = append(s.mq, mwaiter{tid: p, cond: e.Op.Arg})
			s.release()
		}
	case trace.KindMSignal:
		i := s.waiter(e.Op.Arg)
		if !inside || i < 0 {
			return
		}
		u := s.mq[i].tid
		s.mq = append(s.mq[:i], s.mq[i+1:]...)
		if !su {
			w.signal(u, true)
			return
		}
		s.owner = u
		s.mq = append(s.mq, mwaiter{tid: p, cond: urgent})
	case trace.KindMSignalAll:
		if !inside || su {
			return
		}
		k := 0
		for _, x := range s.mq {
			if x.cond == e.Op.Arg {
				w.signal(x.tid, true)
				continue
			}
			s.mq[k] = x
			k++
		}
		s.mq = s.mq[:k]
	}
}

// release frees monitor s, or hands it (SU) to its first urgent waiter.
func (s *objState) release() {
	for i, x := range s.mq {
		if x.cond == urgent {
			s.mq = append(s.mq[:i], s.mq[i+1:]...)
			s.owner = x.tid
			return
		}
	}
	s.locked = false
}

// waiter returns the index of the first waiter on condition c, or -1.
func (s *objState) waiter(c int64) int {
	for i, x := range s.mq {
		if x.cond == c {
			return i
		}
	}
	return -1
}

// monitorReady returns the enabledness of thread p's Enter or Reenter, op:
// Enter needs a free monitor; an SU Reenter, the monitor handed to p; an SC
// Reenter, a signal and a free monitor.
func (w *world) monitorReady(p trace.ThreadID, op trace.Op) verdict {
	o := op.Obj
	if o < 0 || int(o) >= len(w.objs) {
		return unknown
	}
	s := &w.objs[o]
	if op.Kind == trace.KindMEnter {
		return boolVerdict(!s.locked)
	}
	if w.info[o].Cap == 1 {
		return boolVerdict(s.locked && s.owner == p)
	}
	return boolVerdict(int(p) < len(w.sig) && w.sig[p] && !s.locked)
}
