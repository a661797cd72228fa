// This file models virtual time that moves only when every thread is
// blocked: a Sleep's wake-up is an event of its thread, enabled where the
// time of its condition has reached its deadline, and a move of time is
// an event that takes the condition of every thread started (an advance).

package unfold

import (
	"slices"

	"github.com/weft-go/weft/trace"
)

// kindAdvance is the kind of an advance of virtual time: no operation of a
// thread, and above every trace.Kind (below kindBranch).
const kindAdvance = trace.Kind(254)

// isAdvance reports whether k is an advance of virtual time.
func isAdvance(k opKey) bool { return k.kind == kindAdvance }

// nowOf returns the virtual time at condition c: that of the last advance
// in the local configuration of its producer, 0 if none.
func (n *net) nowOf(c int32) int64 { return n.now[c] }

// sleeping reports whether thread condition c waits in a Sleep whose
// deadline its time has not reached: only an advance can wake it.
func (n *net) sleeping(c int32) bool {
	cd := &n.conds[c]
	return cd.state == pending && cd.op.kind == trace.KindSleep && cd.op.class != trace.ClassClock && cd.op.arg > n.nowOf(c)
}

// timeAfter returns the time of the conditions event e produces: the time
// it moves to, for an advance, else the latest time of its preset.
func (n *net) timeAfter(e int32) int64 {
	ev := &n.events[e]
	if isAdvance(ev.op) || ev.op.kind == trace.KindAdvance {
		return ev.op.arg // the clock thread's advance too (clock.go)
	}
	var t int64
	for _, c := range ev.pre {
		t = max(t, n.nowOf(c))
	}
	return t
}

// setTime records the time t at the conditions e produced.
func (n *net) setTime(e int32, t int64) {
	if t == 0 {
		return
	}
	ev := &n.events[e]
	for _, c := range ev.post {
		n.now[c] = t
	}
	for _, c := range ev.spawned {
		n.now[c] = t
	}
}

// advanceTo returns the time an advance from the thread conditions pre
// moves to: the earliest deadline of their sleepers and of the armed
// timers whose deadlines lie ahead (timer.go), or -1 if there is none.
// Once the test body has finished (its condition in pre is done), a
// ticker's deadline does not count, as the runtime's does not: the
// advance takes the body's condition, so that is decided by the advance's
// preset, as the runtime decides it where every thread is blocked.
func (n *net) advanceTo(pre []int32) int64 {
	t := int64(-1)
	if n.clk.on {
		return t // time moves at any step: the clock thread's advances (clock.go)
	}
	returned := n.bodyReturned(pre)
	for _, c := range pre {
		d := int64(-1)
		switch {
		case n.sleeping(c):
			d = n.conds[c].op.arg
		case n.daemon(c):
			if returned && n.tickers[n.timerOf[n.threadOf(c)]] {
				break // a ticker's deadline, after the body's return
			}
			if when, armed := timerWhen(n.conds[c].value); armed && when > n.nowOf(c) {
				d = when
			}
		}
		if d >= 0 && (t < 0 || d < t) {
			t = d
		}
	}
	return t
}

// bodyThread is the stable number of the test body's thread.
const bodyThread = 0

// bodyReturned reports whether the thread conditions pre hold the test
// body's, finished.
func (n *net) bodyReturned(pre []int32) bool {
	p, ok := n.threads[bodyThread]
	if !ok {
		return false
	}
	for _, c := range pre {
		if cd := &n.conds[c]; cd.place == p {
			return cd.state == done
		}
	}
	return false
}

// advanceExtension returns the advance whose preset is pre (sorted thread
// conditions of every thread started, each blocked or finished, some
// sleeping), making it a possible extension if it is new. It takes the
// finished threads' conditions too: a condition before one of them, not
// taken, would be concurrent with the advance and the events after it.
func (n *net) advanceExtension(pre []int32) int32 {
	if e := n.find(pre, 0); e >= 0 {
		return e
	}
	id := int32(len(n.events))
	op := opKey{kind: kindAdvance, obj: -1, arg: n.advanceTo(pre)}
	n.events = append(grow(n.events), event{thread: n.places[n.conds[pre[0]].place].thread, op: op, pre: n.ints.clone(pre), order: -1})
	n.index(id)
	for _, c := range pre {
		n.conds[c].consumers = append(n.conds[c].consumers, id)
	}
	n.exts = append(n.exts, id)
	n.stats.Extensions++
	return id
}

// advanceIn models the advance of virtual time the runtime made before
// the current step: every thread of the marking was blocked or finished,
// one sleeping or waiting for a timer. It fires the advance from the
// marking's conditions of the threads (made if new) and computes the
// extensions of the conditions it gives them. It reports false, and does
// nothing, if no deadline lies ahead in the marking.
func (s *Strategy) advanceIn() bool {
	n := s.n
	var pre []int32
	for _, p := range n.threads {
		if int(p) < len(s.marking) {
			if c := s.marking[p]; c >= 0 {
				pre = append(pre, c)
			}
		}
	}
	slices.Sort(pre)
	if n.advanceTo(pre) < 0 {
		return false
	}
	e := n.advanceExtension(pre)
	if !n.events[e].in() {
		n.add(e, threadStart{}, threadStart{}, nil, 0)
	}
	s.fire(e)
	post := n.events[e].post
	s.newConds(post)
	if n.observe {
		return true
	}
	if n.naive {
		n.naiveExtensions(slices.Clone(post))
		return true
	}
	for _, c := range post {
		n.fromThread(c, s.marking)
	}
	return true
}

// waitsForTime reports whether the event of thread condition t, the
// current marking's, whose next operation is k, meeting thread partner
// (trace.NoThread: none), waits for time to move: a Sleep whose deadline
// has not come, a receive from a timer's channel that meets the timer's
// thread (timer.go) where the timer is not due.
func (s *Strategy) waitsForTime(t int32, k opKey, partner trace.ThreadID) bool {
	n := s.n
	if n.clk.on {
		return false // the clock's advances are steps (clock.go)
	}
	if k.kind == trace.KindSleep {
		return n.sleeping(t)
	}
	if partner == trace.NoThread || len(n.timerOf) == 0 {
		return false
	}
	u, _ := s.partnerCond(partner, trace.Op{})
	return u >= 0 && n.daemon(u) && !n.due(u, n.nowOf(t))
}

// timePasses models the advances of virtual time the runtime made at the
// end of an execution that ended so, with every live thread blocked: it
// moves time to every deadline of an armed timer that lies ahead, as the
// runtime does before it reports a deadlock or a leak.
func (s *Strategy) timePasses(end trace.End) {
	if end.Status != trace.Failed || (end.Kind != trace.Deadlock && end.Kind != trace.Leak) || s.err != nil || len(s.n.timerOf) == 0 || s.n.clk.on {
		return
	}
	for s.advanceIn() {
	}
}
