// This file computes, from events alone, the part of the objects' state that
// enabledness depends on, and the alternatives (labels) of a pending
// operation in such a state. It mirrors internal/engine/enabled.go, which a
// strategy cannot import; Choose checks it against the runtime's count of
// alternatives at every step where it relies on it.

package optimal

import "github.com/weft-go/weft/trace"

// objState is an object's state as far as enabledness goes.
type objState struct {
	locked  bool  // Mutex, RWMutex writer, Once running
	closed  bool  // Chan
	n       int64 // Chan length, RWMutex readers, WaitGroup counter, semaphore value
	writers int32 // RWMutex writers that announced themselves
	// queue is a Cond's waiters, first to wake first (condsim.go).
	queue []trace.ThreadID
	// owner is the thread inside a monitor (locked), mq its waiters
	// (monsim.go); for a Once, the thread running its function.
	owner trace.ThreadID
	mq    []mwaiter
}

// touched returns the objects whose state event e changes: its object (for
// a select, the channel of the case it took) and, for a Cond's Wait and
// Relock, the mutex.
func touched(e *trace.Event) (a, b trace.ObjectID) {
	a, b = e.Op.Obj, trace.NoObject
	switch e.Op.Kind {
	case trace.KindSelect:
		a = trace.NoObject
		if e.Case >= 0 && int(e.Case) < len(e.Op.Cases) {
			a = e.Op.Cases[e.Case].Obj
		}
	case trace.KindWait, trace.KindRelock:
		if e.Op.Class == trace.ClassCond && e.Op.Arg >= 0 {
			b = trace.ObjectID(e.Op.Arg)
		}
	}
	return a, b
}

// apply updates s, the state of object o (described by info), for event e.
func (s *objState) apply(e *trace.Event, o trace.ObjectID, info *trace.ObjectInfo) {
	k := e.Op.Kind
	if e.Op.Class == trace.ClassCond && (k == trace.KindWait || k == trace.KindRelock) && trace.ObjectID(e.Op.Arg) == o {
		// The Cond's mutex: Wait releases it, Relock takes it again.
		s.locked = k == trace.KindRelock
		return
	}
	switch info.Class {
	case trace.ClassMutex:
		switch k {
		case trace.KindLock:
			s.locked = true
		case trace.KindTryLock:
			s.locked = s.locked || e.OK
		case trace.KindUnlock:
			s.locked = false
		}
	case trace.ClassRWMutex:
		switch k {
		case trace.KindLock:
			switch {
			case e.Op.Arg == 1: // the announced writer takes the lock
				s.writers--
				s.locked = true
			case e.OK:
				s.locked = true
			default: // the writer announces itself
				s.writers++
			}
		case trace.KindUnlock:
			s.locked = false
		case trace.KindRLock:
			s.n++
		case trace.KindRUnlock:
			if e.OK {
				s.n--
			}
		case trace.KindTryLock:
			if e.OK {
				if e.Op.Arg == 1 {
					s.n++
				} else {
					s.locked = true
				}
			}
		}
	case trace.ClassWaitGroup:
		if k == trace.KindWGAdd {
			s.n += e.Op.Arg
		}
	case trace.ClassOnce:
		switch k {
		case trace.KindOnceDo:
			if e.OK {
				s.locked, s.owner = true, e.Thread
			}
		case trace.KindOnceDone:
			s.locked = false
		}
	case trace.ClassSemaphore, trace.ClassBinarySemaphore:
		s.n = int64(e.Value)
	case trace.ClassChan:
		if k == trace.KindSelect {
			if e.Case < 0 {
				return
			}
			k = e.Op.Cases[e.Case].Kind
		}
		switch k {
		case trace.KindSend:
			if e.OK && info.Cap > 0 {
				s.n++
			}
		case trace.KindRecv:
			if e.Partner == trace.NoThread && e.OK && info.Cap > 0 {
				s.n--
			}
		case trace.KindClose:
			if e.OK {
				s.closed = true
			}
		}
	}
}

// initial returns the state of object o before its first event, given that
// event (nil if it has none): the zero state, except for a semaphore, whose
// initial value its first event's value tells.
func initial(o trace.ObjectID, info *trace.ObjectInfo, first *trace.Event) objState {
	var s objState
	if first != nil && (info.Class == trace.ClassSemaphore || info.Class == trace.ClassBinarySemaphore) {
		s.n = int64(first.Value)
		if first.Op.Kind == trace.KindP {
			s.n++
		} else {
			s.n--
		}
	}
	return s
}

// world is a state as far as the alternatives of pending operations go: the
// objects' states, each thread's pending operation and number of steps, and
// which threads have finished.
type world struct {
	objs []objState
	info []trace.ObjectInfo
	ops  []trace.Op // pending operation per thread (KindNone if none)
	cnt  []int32    // steps taken per thread
	done []bool
	sig  []bool // threads signalled on a Cond and not yet relocked (condsim.go)
}

// verdict is whether an operation is enabled, when the world can tell.
type verdict uint8

const (
	disabled verdict = iota
	enabled
	unknown // a primitive whose enabledness the world does not model
)

// ready returns the enabledness of the pending operation op of thread p.
func (w *world) ready(p trace.ThreadID, op trace.Op) verdict {
	switch op.Kind {
	case trace.KindNone:
		return disabled
	case trace.KindJoin:
		t := int(op.Arg)
		return boolVerdict(t >= 0 && t < len(w.done) && w.done[t])
	case trace.KindRelock:
		return w.relockReady(p, op)
	case trace.KindMEnter, trace.KindMReenter:
		return w.monitorReady(p, op)
	case trace.KindSend, trace.KindRecv, trace.KindSelect:
		n := 0
		if w.labels(p, op, func(label) bool { n++; return true }) == unknown {
			return unknown
		}
		return boolVerdict(n > 0)
	}
	var s *objState
	if op.Obj >= 0 && int(op.Obj) < len(w.objs) {
		s = &w.objs[op.Obj]
	}
	return readyObj(op, s)
}

// objectOnly reports whether the enabledness of op depends on the state of
// its object alone (see readyObj).
func objectOnly(op trace.Op) bool {
	switch op.Kind {
	case trace.KindLock, trace.KindRLock, trace.KindWGWait, trace.KindOnceDo, trace.KindP, trace.KindV:
		return true
	}
	return false
}

// readyObj returns the enabledness of op given the state s of its object
// (nil if unknown), for the operations of objectOnly; every other operation
// that is not a channel operation or a join is enabled, or unknown.
func readyObj(op trace.Op, s *objState) verdict {
	b := boolVerdict
	switch op.Kind {
	case trace.KindLock:
		if s == nil {
			return unknown
		}
		if op.Class == trace.ClassRWMutex {
			if op.Arg == 1 {
				return b(s.n == 0)
			}
			return b(!s.locked && s.writers == 0)
		}
		return b(!s.locked)
	case trace.KindRLock:
		if s == nil {
			return unknown
		}
		return b(!s.locked && s.writers == 0)
	case trace.KindWGWait:
		if s == nil {
			return unknown
		}
		return b(s.n == 0)
	case trace.KindOnceDo:
		if s == nil {
			return unknown
		}
		return b(!s.locked)
	case trace.KindP:
		if s == nil {
			return unknown
		}
		return b(s.n > 0)
	case trace.KindV:
		if op.Class == trace.ClassBinarySemaphore {
			if s == nil {
				return unknown
			}
			return b(s.n < 1)
		}
		return enabled
	case trace.KindRelock, trace.KindMEnter, trace.KindMReenter, trace.KindSleep:
		return unknown
	}
	return enabled
}

func boolVerdict(x bool) verdict {
	if x {
		return enabled
	}
	return disabled
}

// labels calls yield with the label of each alternative of thread p's
// pending operation op, in the runtime's order of alternatives, until yield
// returns false. It returns unknown for a primitive it cannot model.
func (w *world) labels(p trace.ThreadID, op trace.Op, yield func(label) bool) verdict {
	k := w.cnt[p]
	one := func(cas int32) {
		yield(label{thread: p, step: k, cas: cas, partner: trace.NoThread, pcas: -1})
	}
	switch op.Kind {
	case trace.KindSend:
		c, ok := w.chanState(op.Obj)
		if !ok {
			return unknown
		}
		if c.closed || (w.info[op.Obj].Cap > 0 && c.n < w.info[op.Obj].Cap) {
			one(-1)
		}
		return enabled
	case trace.KindRecv:
		if w.timer(op.Obj) {
			// The timer's thread offers its send once the timer is due,
			// which the world does not know: the receive may meet it.
			w.recvLabels(p, op.Obj, -1, yield)
			return unknown
		}
		if _, ok := w.chanState(op.Obj); !ok {
			return unknown
		}
		w.recvLabels(p, op.Obj, -1, yield)
		return enabled
	case trace.KindSelect:
		some, timers := false, false
		counted := func(l label) bool { some = true; return yield(l) }
		for j, c := range op.Cases {
			if c.Obj == trace.NoObject {
				continue
			}
			if c.Kind == trace.KindRecv && w.timer(c.Obj) {
				// As for a receive: the case may be ready, or not.
				timers = true
				if !w.recvLabels(p, c.Obj, int32(j), counted) {
					return unknown
				}
				continue
			}
			s, ok := w.chanState(c.Obj)
			if !ok {
				return unknown
			}
			if c.Kind == trace.KindRecv {
				if !w.recvLabels(p, c.Obj, int32(j), counted) {
					return enabled
				}
				continue
			}
			if s.closed || (w.info[c.Obj].Cap > 0 && s.n < w.info[c.Obj].Cap) {
				if !counted(label{thread: p, step: k, cas: int32(j), partner: trace.NoThread, pcas: -1}) {
					return enabled
				}
			}
		}
		if (!some || timers) && op.Arg == 1 {
			one(-1) // default, which a timer case that is not due leaves
		}
		if timers {
			return unknown
		}
		return enabled
	}
	switch w.ready(p, op) {
	case enabled:
		one(-1)
	case unknown:
		return unknown
	}
	return enabled
}

// timer reports whether o is a timer's channel: its timer thread offers a
// send from the timer's deadline on, while it is armed (virtual time, which
// the world does not model).
func (w *world) timer(o trace.ObjectID) bool {
	return o >= 0 && int(o) < len(w.objs) && w.info[o].Class == trace.ClassTimer
}

// panics reports whether op, run by thread p in w (case cas of a select, if
// not negative), panics and so ends the execution in its step: a send on or
// a close of a closed channel, unless p is running a Once's function, whose
// end (trace.KindOnceDone) is a step of its own as the panic unwinds (gen
// seed 2911: a select that panicked in Once.Do, taken for the last step,
// raced with every event, and optimal ran one failing trace three times).
func (w *world) panics(p trace.ThreadID, op trace.Op, cas int32) bool {
	switch {
	case op.Kind == trace.KindSelect:
		if cas < 0 || int(cas) >= len(op.Cases) || op.Cases[cas].Kind != trace.KindSend {
			return false
		}
		s, ok := w.chanState(op.Cases[cas].Obj)
		return ok && s.closed && !w.inOnce(p)
	case op.Class == trace.ClassChan && (op.Kind == trace.KindSend || op.Kind == trace.KindClose):
		s, ok := w.chanState(op.Obj)
		return ok && s.closed && !w.inOnce(p)
	}
	return false
}

// inOnce reports whether thread p is running the function of a Once.
func (w *world) inOnce(p trace.ThreadID) bool {
	for o := range w.objs {
		if w.info[o].Class == trace.ClassOnce && w.objs[o].locked && w.objs[o].owner == p {
			return true
		}
	}
	return false
}

// chanState returns the state of channel o, if the world knows it.
func (w *world) chanState(o trace.ObjectID) (*objState, bool) {
	if o < 0 || int(o) >= len(w.objs) || w.info[o].Class != trace.ClassChan {
		return nil, false
	}
	return &w.objs[o], true
}

// recvLabels yields the labels of a receive by p on channel o (select case
// cas, or -1): one if the channel is buffered and ready or closed, else one
// per pending sender other than p, in thread and case order. It returns
// false if yield stopped it.
func (w *world) recvLabels(p trace.ThreadID, o trace.ObjectID, cas int32, yield func(label) bool) bool {
	s := &w.objs[o]
	if w.info[o].Cap > 0 || s.closed {
		if s.closed || s.n > 0 {
			return yield(label{thread: p, step: w.cnt[p], cas: cas, partner: trace.NoThread, pcas: -1})
		}
		return true
	}
	for q, op := range w.ops {
		if trace.ThreadID(q) == p {
			continue
		}
		switch op.Kind {
		case trace.KindSend:
			if op.Obj == o && !yield(label{thread: p, step: w.cnt[p], cas: cas, partner: trace.ThreadID(q), pstep: w.cnt[q], pcas: -1}) {
				return false
			}
		case trace.KindSelect:
			if op.Arg == 1 && nonBlocking(w.ops[p]) {
				continue // two selects with default never meet
			}
			for j, c := range op.Cases {
				if c.Kind == trace.KindSend && c.Obj == o &&
					!yield(label{thread: p, step: w.cnt[p], cas: cas, partner: trace.ThreadID(q), pstep: w.cnt[q], pcas: int32(j)}) {
					return false
				}
			}
		}
	}
	return true
}

// nonBlocking reports whether op is a select with a default case.
func nonBlocking(op trace.Op) bool { return op.Kind == trace.KindSelect && op.Arg == 1 }

// multi reports whether op may have several alternatives: a receive or a
// select.
func multi(op trace.Op) bool { return op.Kind == trace.KindRecv || op.Kind == trace.KindSelect }
