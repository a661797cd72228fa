// This file implements reach's handling of failures, which Lei and Carver 2006 does
// not have: its runs end normally, and a failure is an observation of the
// sequence. A weft run ends at its first failure (an assertion, a panic),
// so the steps the other threads could still take, and their races, are
// never seen: a later failure that needs one of them first would be
// missed. A run that fails while another thread could still move is
// therefore run again, from the same variant, with the failing call
// postponed: the run takes it only when nothing else can move, so that
// the failure comes at the end of a sequence that is otherwise as long as
// it can be, which is the one analysed. (Optimal-DPOR makes the failing
// step dependent with every event instead, strategy/optimal's doc.) The
// variants derived from it do not keep the postponement: what made the
// call fail (the value it received) may have changed there; one of them
// that fails early again is run again in the same way. A call is
// postponed with the call its value came from (the partner it met, the
// send whose value it took, the close it found): a receive that failed on
// one value runs as usual when it would take another, on which it may not
// fail (TestPostponedSource).

package reach

import (
	"github.com/weft-go/weft/strategy"
	"github.com/weft-go/weft/trace"
)

// postpone reports whether the run that ended so, a failure while other
// threads could move, is to be run again with the failing call postponed
// (then it is not analysed).
func (s *Strategy) postpone(tr *trace.Trace, end trace.End) bool {
	if !stops(end) || !s.early || int(end.Thread) >= len(tr.Threads) {
		return false
	}
	k, last := int32(-1), -1
	for i := range tr.Events {
		if e := &tr.Events[i]; e.Thread == end.Thread || e.Partner == end.Thread {
			k, last = k+1, i
		}
	}
	if k < 0 {
		return false // it failed before its first step
	}
	k += branchesBefore(tr.Branches, last, end.Thread)
	t := int32(s.names.Stable(end.Thread))
	src := s.sourceOf(tr, last, end.Thread)
	if s.v.postponed(t, k, func() [2]int32 { return src }) {
		return false
	}
	v := *s.v
	branch := false
	for _, b := range tr.Branches {
		branch = branch || (b.Thread == end.Thread && int(b.Step) > last)
	}
	v.Postponed = append(append([]postponement(nil), s.v.Postponed...), postponement{T: t, K: k, Src: src, Branch: branch})
	s.retry = &v
	s.stats.Retries++
	return true
}

// stops reports whether a run ended so by a failure in the local code of
// its last step, while other threads may have been able to move (not a
// deadlock or a leak, where none could, nor the step bound).
func stops(end trace.End) bool {
	if end.Status != trace.Failed || end.Thread < 0 {
		return false
	}
	switch end.Kind {
	case trace.Deadlock, trace.Leak, trace.Livelock, trace.Nondeterminism, trace.Internal, trace.Blocked, trace.Misuse:
		return false
	}
	return true
}

// postponedBy returns the postponement in the run's variant of
// alternative a of thread p's pending call, or nil: p's call, or its
// partner's in a rendezvous (a sender that failed after it, which took no
// value).
func (s *Strategy) postponedBy(st *strategy.State, p trace.ThreadID, a int32) *postponement {
	if len(s.v.Postponed) == 0 {
		return nil
	}
	if x := s.v.postponement(int32(s.names.Stable(p)), s.k[p], func() [2]int32 { return s.nextSource(st, p, a) }); x != nil {
		return x
	}
	q := alternative(st, p, a).Partner
	if q == trace.NoThread {
		return nil
	}
	return s.v.postponement(int32(s.names.Stable(q)), s.k[q], func() [2]int32 { return noSource })
}

// sourceOf returns the source (failures.go, postponement) of thread p's
// call completed by step i of events: its sending partner if p received
// in a rendezvous, the send or close whose value or closing it took.
func (s *Strategy) sourceOf(tr *trace.Trace, i int, p trace.ThreadID) [2]int32 {
	e := &tr.Events[i]
	switch {
	case e.Thread != p:
		return noSource // p sent in a rendezvous: it took no value
	case e.Partner != trace.NoThread:
		return s.callOf(tr, i, e.Partner)
	}
	if _, ok := chanStep(e.Op, e.Case); !ok || e.Source() < 0 {
		return noSource // nextSource predicts none either
	}
	return s.callOf(tr, e.Source(), tr.Events[e.Source()].Thread)
}

// callOf names thread p's call completed by step i of tr: its stable
// thread and the number of p's calls before i, its steps and its branches
// on inputs (sym.go).
func (s *Strategy) callOf(tr *trace.Trace, i int, p trace.ThreadID) [2]int32 {
	k := int32(0)
	for j := range tr.Events[:i] {
		if e := &tr.Events[j]; e.Thread == p || e.Partner == p {
			k++
		}
	}
	return [2]int32{int32(s.names.Stable(p)), k + branchesBefore(tr.Branches, i, p)}
}

// branchesBefore returns the number of thread p's branches that ran
// before step i.
func branchesBefore(bs []trace.BranchEvent, i int, p trace.ThreadID) int32 {
	n := int32(0)
	for j := range bs {
		if int(bs[j].Step) > i {
			break
		}
		if bs[j].Thread == p {
			n++
		}
	}
	return n
}

// nextSource returns the source that alternative a of thread p's pending
// operation would take its value from: the partner it meets, the send at
// the head of a buffer, the close of a drained channel, and for a send,
// the close of a closed channel (sourceOf's view of the step it makes).
func (s *Strategy) nextSource(st *strategy.State, p trace.ThreadID, a int32) [2]int32 {
	alt := alternative(st, p, a)
	if alt.Partner != trace.NoThread {
		return [2]int32{int32(s.names.Stable(alt.Partner)), s.k[alt.Partner]}
	}
	c, ok := chanStep(st.Threads[p].Op, alt.Case)
	if !ok {
		return noSource
	}
	kind, obj, objs := c.Kind, c.Obj, st.Trace.Objects
	if objs[obj].Class != trace.ClassChan {
		return noSource
	}
	tr := st.Trace
	events := tr.Events
	var sends []int
	took, closed := 0, -1
	for i := range events {
		e := &events[i]
		if ch, k, ok := bufferedCase(e, objs); ok && ch == obj && e.OK {
			if k == trace.KindSend {
				sends = append(sends, i)
			} else {
				took++
			}
		}
		if e.Op.Kind == trace.KindClose && e.Op.Obj == obj {
			closed = i
		}
	}
	switch {
	case kind != trace.KindRecv && closed >= 0:
		// A send or close that finds the channel closed (it panics) is
		// sourced by the close, as the runtime records it
		// (trace.Event.Src).
		return s.callOf(tr, closed, events[closed].Thread)
	case kind != trace.KindRecv:
		return noSource
	case took < len(sends):
		return s.callOf(tr, sends[took], events[sends[took]].Thread)
	case closed >= 0:
		return s.callOf(tr, closed, events[closed].Thread)
	}
	return noSource
}

// chanStep returns the channel operation that a step of op (select case
// cas) makes: a receive, a send or a close of a channel; false for any
// other step.
func chanStep(op trace.Op, cas int32) (trace.Case, bool) {
	c := trace.Case{Kind: op.Kind, Obj: op.Obj}
	if op.Kind == trace.KindSelect {
		if cas < 0 || int(cas) >= len(op.Cases) {
			return c, false
		}
		c = op.Cases[cas]
	}
	switch c.Kind {
	case trace.KindRecv, trace.KindSend, trace.KindClose:
		return c, c.Obj != trace.NoObject
	}
	return c, false
}
