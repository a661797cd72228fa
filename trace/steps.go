// This file implements the accesses of the steps of a trace: an event's own
// and those of the operations announced in its local code.

package trace

import "slices"

// AppendAnnounced appends to dst the accesses that announcing operation op
// makes (a thread reaching op, in the local code of the step before): a
// send on an unbuffered channel (plain, or a select case) offers a partner
// to the channel's receivers, changing their alternatives (a select that
// would take its default can take the send instead), so it writes the
// channel. Other operations announce nothing. objs gives the capacities.
func AppendAnnounced(dst []Access, op Op, objs []ObjectInfo) []Access {
	unbuffered := func(c ObjectID) bool { return c >= 0 && int(c) < len(objs) && objs[c].Cap == 0 }
	switch {
	case op.Kind == KindSelect:
		for _, c := range op.Cases {
			if c.Kind == KindSend && unbuffered(c.Obj) {
				dst = append(dst, Access{c.Obj, Write})
			}
		}
	case op.Kind == KindSend && op.Class == ClassChan && unbuffered(op.Obj):
		dst = append(dst, Access{op.Obj, Write})
	}
	return dst
}

// Steps holds the accesses of every step of a trace under a relation: the
// event's own (Relation.AppendEventAccesses) and those its threads announce
// in its local code (AppendAnnounced): the next operation of the event's
// thread, of its partner, and the first operation of each thread it
// started. Happens-before (HB), Foata and the DPOR strategies order steps by
// these; Relation.Dependent, which sees two events alone, does not know the
// announcements. Its memory is reused across Resets.
type Steps struct {
	rel      Relation
	acc      []Access
	off      []int32 // acc[off[i]:off[i+1]] are the accesses of step i
	upcoming []int32
	// ann[annOff[i]:annOff[i+1]] are the accesses step i announces, in
	// one list without pointers, not a list per step: a long execution
	// has many steps and few announcements. back holds those ResetFrom
	// finds, latest step first.
	ann    []Access
	annOff []int32
	back   []Access
}

// Reset computes the accesses of the steps of tr under rel.
func (s *Steps) Reset(tr *Trace, rel Relation) { s.ResetFrom(tr, rel, 0) }

// ResetFrom is Reset for a trace whose first from steps are those of the
// trace of the last Reset, under the same relation: it keeps their
// accesses. A deterministic program replaying a prefix is such a trace:
// what a step announces is its threads' next operations, which the prefix
// determines.
func (s *Steps) ResetFrom(tr *Trace, rel Relation, from int) {
	if from <= 0 || rel != s.rel || from >= len(s.off) || from > len(tr.Events) {
		from = 0
	}
	s.rel = rel
	n := len(tr.Events)
	// Announced accesses, found backwards: upcoming[p] is the next event
	// of thread p.
	s.upcoming = growInt32(s.upcoming, len(tr.Threads))
	for i := range s.upcoming {
		s.upcoming[i] = -1
	}
	// Found backwards into back, each step's number of them in
	// annOff[i+1]; then put in step order after those of the steps kept.
	s.annOff = growInt32Keep(s.annOff, n+1)
	s.annOff[0] = 0
	a := s.back[:0]
	child := len(tr.Threads) - 1
	for i := n - 1; i >= from; i-- {
		e := &tr.Events[i]
		k := len(a)
		a = AppendAnnounced(a, s.next(tr, e.Thread), tr.Objects)
		if e.Partner != NoThread {
			a = AppendAnnounced(a, s.next(tr, e.Partner), tr.Objects)
		}
		for ; child >= 0 && int(tr.Threads[child].Step) >= i; child-- {
			if int(tr.Threads[child].Step) == i {
				a = AppendAnnounced(a, s.next(tr, ThreadID(child)), tr.Objects)
			}
		}
		s.annOff[i+1] = int32(len(a) - k)
		s.upcoming[e.Thread] = int32(i)
		if e.Partner != NoThread {
			s.upcoming[e.Partner] = int32(i)
		}
	}
	s.back = a
	s.ann = slices.Grow(s.ann[:s.annOff[from]], len(a))
	for i, hi := from, len(a); i < n; i++ {
		if k := int(s.annOff[i+1]); k > 0 { // most steps announce nothing
			s.ann = append(s.ann, a[hi-k:hi]...)
			hi -= k
		}
		s.annOff[i+1] = int32(len(s.ann))
	}
	start := int32(0)
	if from > 0 {
		start = s.off[from]
	}
	s.off = growInt32Keep(s.off, n+1)
	s.acc = s.acc[:start]
	for i := from; i < n; i++ {
		s.off[i] = int32(len(s.acc))
		if cap(s.acc)-len(s.acc) < 4 {
			// Double, from room for an access a step: append would grow
			// a long execution's accesses by a quarter at a time,
			// copying them each time.
			s.acc = slices.Grow(s.acc, max(len(s.acc), n-i, 64))
		}
		s.acc = rel.AppendEventAccesses(s.acc, &tr.Events[i])
		if lo, hi := s.annOff[i], s.annOff[i+1]; hi > lo {
			s.acc = append(s.acc, s.ann[lo:hi]...)
		}
	}
	s.off[n] = int32(len(s.acc))
}

// Announced returns the accesses of the operations announced in the local
// code of event i (AppendAnnounced). It aliases the Steps' memory.
func (s *Steps) Announced(i int) []Access {
	lo, hi := s.annOff[i], s.annOff[i+1]
	return s.ann[lo:hi:hi]
}

// next returns the operation thread p runs in its next event after the
// current position of the backward walk, or its final pending operation.
func (s *Steps) next(tr *Trace, p ThreadID) Op {
	j := s.upcoming[p]
	switch {
	case j < 0:
		if int(p) < len(tr.Final) {
			return tr.Final[p]
		}
		return Op{}
	case tr.Events[j].Thread == p:
		return tr.Events[j].Op
	}
	return tr.Events[j].PartnerOp
}

// Accesses returns the accesses of step i. It aliases the Steps' memory.
func (s *Steps) Accesses(i int) []Access { return s.acc[s.off[i]:s.off[i+1]] }

// NumAccesses returns the number of accesses of the first n steps: the
// total length of Accesses(0) to Accesses(n-1).
func (s *Steps) NumAccesses(n int) int {
	if n <= 0 {
		return 0
	}
	return int(s.off[n])
}

// DependentOp reports whether step i of tr is dependent with pending
// operation v of thread p under the relation of Reset: it belongs to p, or v
// joins one of its threads, or their accesses conflict. v's own accesses
// count, not those of what p announces after it: see Conflicts.
func (s *Steps) DependentOp(tr *Trace, i int, p ThreadID, v Op) bool {
	e := &tr.Events[i]
	if e.Thread == p || e.Partner == p {
		return true
	}
	if v.Kind == KindJoin {
		if t := ThreadID(v.Arg); e.Thread == t || e.Partner == t {
			return true
		}
	}
	as := s.Accesses(i)
	if len(as) == 0 {
		return false
	}
	var buf [8]Access
	return anyConflict(as, s.rel.AppendOpAccesses(buf[:0], v, false, false))
}

// Conflicts reports whether some access of as conflicts with some of bs.
func Conflicts(as, bs []Access) bool { return anyConflict(as, bs) }

// growInt32 returns s resized to n entries, reusing its memory.
// growInt32Keep returns s resized to n, keeping its elements.
func growInt32Keep(s []int32, n int) []int32 {
	if cap(s) < n {
		t := make([]int32, n, n+n/2)
		copy(t, s)
		return t
	}
	return s[:n]
}

func growInt32(s []int32, n int) []int32 {
	if cap(s) < n {
		return make([]int32, n, n+n/2)
	}
	return s[:n]
}
