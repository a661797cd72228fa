// This file models the primitives whose state is a queue of threads
// (condition variables and monitors) and semaphores: each is one place of
// the net, a condition of which carries the object's whole state (a
// semaphore's value; a Cond's or a monitor's state, interned).

package unfold

import (
	"encoding/binary"

	"github.com/weft-go/weft/model"
	"github.com/weft-go/weft/trace"
)

// The operations of a Cond and a monitor keep in opKey.arg what their
// events need besides the state: the stable thread (its low 32 bits), a
// Cond's Wait and Relock the stable mutex they release and take again
// (plus one, 0 for a Locker other than a Mutex, which the thread locks
// and unlocks by steps of its own), a monitor's operations the
// monitor's discipline (bit 32: SU) and their condition (above it;
// model.Urgent for SU's urgent queue).

// monitorArg returns the opKey.arg of a monitor operation of stable
// thread th on condition c, su for the SU discipline.
func monitorArg(th int32, c int64, su bool) int64 {
	a := c<<33 | int64(uint32(th))
	if su {
		a |= 1 << 32
	}
	return a
}

// keyThread returns the stable thread of a Cond's or a monitor's operation.
func keyThread(k opKey) int32 { return int32(uint32(k.arg)) }

// monitorCond returns the condition of a monitor operation, and whether
// the monitor is SU.
func monitorCond(k opKey) (int64, bool) { return k.arg >> 33, k.arg>>32&1 == 1 }

// queued reports whether k is an operation of a Cond, a monitor or a
// semaphore, whose object is one place of interned states (qstate) or a
// semaphore's value.
func queued(k opKey) bool {
	switch k.class {
	case trace.ClassCond, trace.ClassMonitor, trace.ClassSemaphore, trace.ClassBinarySemaphore:
		return true
	}
	return false
}

// semaphore reports whether class is a semaphore's.
func semaphore(class trace.Class) bool {
	return class == trace.ClassSemaphore || class == trace.ClassBinarySemaphore
}

// qstate is the state of a Cond or a monitor: whether a thread is inside
// the monitor and which, and the FIFO queue of waiters, each woken or not
// (a Cond's waiter stays in it, woken, until its Relock; an SC monitor's
// until its Reenter). Threads are stable numbers.
type qstate struct {
	locked bool
	owner  int32
	q      []qentry
}

// qentry is a waiter: its thread, its condition (0 for a Cond, a
// monitor's condition or model.Urgent), and whether it was woken.
type qentry struct {
	th    int32
	cond  int64
	woken bool
}

// qtable interns the states of Conds and monitors: a condition's value is
// the number of its state, 0 the initial one (free, nobody waiting).
type qtable struct {
	states []qstate
	ids    map[string]int64
	key    []byte
}

// get returns state v.
func (t *qtable) get(v int64) qstate {
	if v == 0 || int(v) >= len(t.states) {
		return qstate{owner: -1}
	}
	return t.states[v]
}

// intern returns the number of state s.
func (t *qtable) intern(s qstate) int64 {
	if len(t.states) == 0 {
		t.states = append(t.states, qstate{owner: -1})
		t.ids = map[string]int64{string(t.keyOf(t.states[0])): 0}
	}
	k := t.keyOf(s)
	if id, ok := t.ids[string(k)]; ok {
		return id
	}
	id := int64(len(t.states))
	s.q = append([]qentry(nil), s.q...)
	t.states = append(t.states, s)
	t.ids[string(k)] = id
	return id
}

// keyOf encodes s, in t.key.
func (t *qtable) keyOf(s qstate) []byte {
	b := t.key[:0]
	if s.locked {
		b = append(b, 1)
	} else {
		b = append(b, 0)
	}
	b = binary.AppendVarint(b, int64(s.owner))
	for _, e := range s.q {
		b = binary.AppendVarint(b, int64(e.th))
		b = binary.AppendVarint(b, e.cond)
		if e.woken {
			b = append(b, 1)
		} else {
			b = append(b, 0)
		}
	}
	t.key = b
	return b
}

// entry returns the index of thread th's entry in s's queue, or -1.
func (s *qstate) entry(th int32) int {
	for i, e := range s.q {
		if e.th == th {
			return i
		}
	}
	return -1
}

// waiting returns the index of the first waiter on condition c not woken
// yet, or -1.
func (s *qstate) waiting(c int64) int {
	for i, e := range s.q {
		if e.cond == c && !e.woken {
			return i
		}
	}
	return -1
}

// remove takes entry i out of s's queue (a copy: the interned states
// share nothing).
func (s *qstate) remove(i int) {
	q := make([]qentry, 0, len(s.q)-1)
	s.q = append(append(q, s.q[:i]...), s.q[i+1:]...)
}

// qAccepts reports whether operation k can run in state v of its Cond,
// monitor or semaphore (model.Object.Ready, relockReady, monitorReady):
// P while the value is positive, a binary semaphore's V while it is 0, a
// Relock once its thread was woken (the mutex, its other place, is
// accepts'), Enter while the monitor is free, an SC Reenter once woken
// and the monitor free, an SU Reenter once the monitor was handed to the
// thread. The rest never blocks.
func (n *net) qAccepts(k opKey, v int64) bool {
	switch k.kind {
	case trace.KindP:
		return v > 0
	case trace.KindV:
		return k.class != trace.ClassBinarySemaphore || v < 1
	case trace.KindRelock:
		return condRelockReady(n.qs.get(v), k)
	case trace.KindMEnter:
		return !n.qs.get(v).locked
	case trace.KindMReenter:
		s := n.qs.get(v)
		th := keyThread(k)
		if _, su := monitorCond(k); su {
			return s.locked && s.owner == th
		}
		i := s.entry(th)
		return i >= 0 && s.q[i].woken && !s.locked
	}
	return true
}

// qAfter returns the state of a Cond, a monitor or a semaphore after an
// operation k ran in state v (model.Object.applyCond, applyMonitor,
// applySemaphore, with the engine's Signal, which wakes the first waiter
// not woken yet).
func (n *net) qAfter(k opKey, v int64) int64 {
	switch k.kind {
	case trace.KindP:
		return v - 1
	case trace.KindV:
		return v + 1
	}
	s := n.qs.get(v)
	th := keyThread(k)
	switch k.class {
	case trace.ClassCond:
		s = condAfter(s, k, th)
	case trace.ClassMonitor:
		s = monitorAfter(s, k, th)
	}
	return n.qs.intern(s)
}

// monitorAfter returns monitor state s after operation k of thread th
// (model.Object.applyMonitor): an operation of a thread that is not
// inside fails and changes nothing.
func monitorAfter(s qstate, k opKey, th int32) qstate {
	c, su := monitorCond(k)
	inside := s.locked && s.owner == th
	s.q = append([]qentry(nil), s.q...)
	release := func() {
		if i := s.waiting(model.Urgent); i >= 0 {
			s.owner = s.q[i].th
			s.remove(i)
			return
		}
		s.locked, s.owner = false, -1
	}
	switch k.kind {
	case trace.KindMEnter:
		s.locked, s.owner = true, th
	case trace.KindMReenter:
		if i := s.entry(th); i >= 0 && s.q[i].woken {
			s.remove(i)
		}
		s.locked, s.owner = true, th
	case trace.KindMExit:
		if inside {
			release()
		}
	case trace.KindMWait:
		if inside {
			s.q = append(s.q, qentry{th: th, cond: c})
			release()
		}
	case trace.KindMSignal:
		i := s.waiting(c)
		if !inside || i < 0 {
			break
		}
		if !su {
			s.q[i].woken = true
			break
		}
		// SU: the monitor goes to the waiter; the signaller waits
		// urgently.
		s.owner = s.q[i].th
		s.remove(i)
		s.q = append(s.q, qentry{th: th, cond: model.Urgent})
	case trace.KindMSignalAll:
		if !inside || su {
			break
		}
		for i := range s.q {
			if s.q[i].cond == c {
				s.q[i].woken = true
			}
		}
	}
	return s
}

// qMisuse reports whether an operation k fails in state v of its monitor:
// Exit, Wait, Signal and SignalAll by a thread that is not inside, and
// SignalAll on SU.
func (n *net) qMisuse(k opKey, v int64) bool {
	if k.class != trace.ClassMonitor {
		return false
	}
	switch k.kind {
	case trace.KindMExit, trace.KindMWait, trace.KindMSignal, trace.KindMSignalAll:
		s := n.qs.get(v)
		_, su := monitorCond(k)
		return !s.locked || s.owner != keyThread(k) || k.kind == trace.KindMSignalAll && su
	}
	return false
}
