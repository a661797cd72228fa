// This file implements the events the algorithm keeps (in sleep sets and
// wakeup trees), their labels and the dependency relation between them.

package optimal

import "github.com/weft-go/weft/trace"

// label names an event independently of the state it runs in: the k-th step
// of a thread (the paper's event <p, k>) and, for operations with several
// alternatives, which one: the select case and the rendezvous partner with
// its own step and case (model.Label; pstep is 0 if there is no partner).
// Two alternatives of one thread's step are distinct, conflicting events.
type label struct {
	thread  trace.ThreadID
	step    int32
	cas     int32
	partner trace.ThreadID
	pstep   int32
	pcas    int32
}

// event is a step as the algorithm keeps it: the trace's event (with stable
// object numbers and its own select cases), the steps of its threads, and
// the threads started in its local code. The last event of a wakeup
// sequence, the reversed step of a race, has the outcome (Event.OK) it will
// have where the sequence puts it, which the dependency relation reads: a
// CompareAndSwap or TryLock that fails only reads.
type event struct {
	trace.Event
	step, pstep int32
	// spawnLo is the first of the Spawned threads started in its local code.
	spawnLo trace.ThreadID
	// The threads as the exploration names them across executions
	// (trace.ThreadNames): the thread, the partner, a Join's target, the threads
	// started in the local code. Thread, Partner, Op.Arg of a Join and
	// spawnLo are the trace's numbers, valid in the execution the event
	// comes from.
	sth, spart, sjoin trace.ThreadID
	// x holds the lists most events leave empty (eventMore), or is nil if
	// all are nil.
	x *eventMore
	// acc caches the accesses of the step (its own and its announcements):
	// the first nacc in place, or accx if there are more (selects).
	acc    [4]trace.Access
	nacc   int8
	cached bool
	// fails marks the last step of an execution that failed (not by a
	// deadlock): the failure ends the execution in the step's local code, so
	// it disables every other thread, and is dependent with every event.
	// (Next to the other small fields: an event is in every state.)
	fails bool
	// mask has bit o%64 set for each object o of the cached accesses: two
	// events whose masks do not meet do not conflict.
	mask uint64
}

// eventMore are the lists of an event that most events leave empty, kept
// apart so that an event, of which a long execution keeps one a step, is
// smaller. Copies of an event share it: it is replaced, never changed,
// when one of its lists is set (setAnn, setKids, setAccx); the lists' elements are
// shared by copies as they would be in the event itself.
type eventMore struct {
	// ann are the accesses of the operations announced in the step's local
	// code (trace.AppendAnnounced): the next operations of its threads and
	// the first ones of the threads it started.
	ann []trace.Access
	// kids are the threads started in the step's local code, named
	// stably.
	kids []trace.ThreadID
	// accx holds the cached accesses of the step if more than fit in
	// event.acc.
	accx []trace.Access
}

// ann returns the accesses announced in e's local code (eventMore.ann).
func (e *event) ann() []trace.Access {
	if e.x == nil {
		return nil
	}
	return e.x.ann
}

// kids returns the threads started in e's local code (eventMore.kids).
func (e *event) kids() []trace.ThreadID {
	if e.x == nil {
		return nil
	}
	return e.x.kids
}

// accx returns the cached accesses of e if they do not fit in e.acc.
func (e *event) accx() []trace.Access {
	if e.x == nil {
		return nil
	}
	return e.x.accx
}

// setMore sets e's lists to m, in a new eventMore unless they are all nil
// (copies of e keep theirs).
func (e *event) setMore(m eventMore) {
	if m.ann == nil && m.kids == nil && m.accx == nil {
		e.x = nil
		return
	}
	e.x = &m
}

// more returns e's lists.
func (e *event) more() eventMore {
	if e.x == nil {
		return eventMore{}
	}
	return *e.x
}

// setAnn sets the accesses announced in e's local code.
func (e *event) setAnn(ann []trace.Access) {
	if ann == nil && e.x == nil {
		return
	}
	m := e.more()
	m.ann = ann
	e.setMore(m)
}

// setKids sets the threads started in e's local code.
func (e *event) setKids(kids []trace.ThreadID) {
	if kids == nil && e.x == nil {
		return
	}
	m := e.more()
	m.kids = kids
	e.setMore(m)
}

// setAccx sets the cached accesses of e that do not fit in e.acc.
func (e *event) setAccx(accx []trace.Access) {
	if accx == nil && (e.x == nil || e.x.accx == nil) {
		return
	}
	m := e.more()
	m.accx = accx
	e.setMore(m)
}

// label returns e's label with the trace's thread numbers, valid in the
// execution e comes from (the analysis compares it with the enabledness
// model's).
func (e *event) label() label {
	l := label{thread: e.Thread, step: e.step, cas: e.Case, partner: e.Partner, pcas: e.PartnerCase}
	if e.Partner != trace.NoThread {
		l.pstep = e.pstep
	}
	return l
}

// key returns e's label with stable thread numbers (trace.ThreadNames): the same
// event in every execution.
func (e *event) key() label {
	l := label{thread: e.sth, step: e.step, cas: e.Case, partner: e.spart, pcas: e.PartnerCase}
	if e.spart != trace.NoThread {
		l.pstep = e.pstep
	}
	return l
}

// sameKey reports whether a.key() == b.key(), without building the labels.
func sameKey(a, b *event) bool {
	return keyIs(a, b.sth, b.step, b.Case, b.spart, b.PartnerCase, b.pstep)
}

// hasKey reports whether e.key() == *k: a walk of a wakeup tree compares
// each node's key (wnode.k) with the head of what remains of the sequence.
func hasKey(e *event, k *label) bool {
	return keyIs(e, k.thread, k.step, k.cas, k.partner, k.pcas, k.pstep)
}

// keyIs reports whether e's key has the given fields (pstep counts only
// with a partner, as in key).
func keyIs(e *event, thread trace.ThreadID, step, cas int32, partner trace.ThreadID, pcas, pstep int32) bool {
	return e.sth == thread && e.step == step && e.Case == cas && e.spart == partner &&
		e.PartnerCase == pcas && (partner == trace.NoThread || e.pstep == pstep)
}

// shareThread reports whether a and b belong to a common thread.
func shareThread(a, b *event) bool {
	return a.sth == b.sth || a.sth == b.spart ||
		(a.spart != trace.NoThread && (a.spart == b.sth || a.spart == b.spart))
}

// joins reports whether a is a Join of a thread of b.
func joins(a, b *event) bool {
	t := a.sjoin
	return t != trace.NoThread && (b.sth == t || b.spart == t)
}

// accesses appends the accesses of e under CR.
func (e *event) accesses(dst []trace.Access) []trace.Access {
	dst = trace.CR.AppendOpAccesses(dst, e.Op, true, e.OK)
	if e.Partner != trace.NoThread {
		dst = trace.CR.AppendOpAccesses(dst, e.PartnerOp, true, true)
	}
	return dst
}

// cache computes the accesses of e's step, once its operations, outcome
// and announcements are set; conflict reads them.
func (e *event) cache() {
	var buf [8]trace.Access
	acc := append(e.accesses(buf[:0]), e.ann()...)
	e.cached = true
	e.mask = 0
	for _, x := range acc {
		e.mask |= 1 << (uint64(x.Obj) % 64)
	}
	if len(acc) <= len(e.acc) {
		e.nacc = int8(copy(e.acc[:], acc))
		e.setAccx(nil)
		return
	}
	e.nacc = -1
	e.setAccx(append([]trace.Access(nil), acc...))
}

// cachedSteps returns the accesses of e's step, and true, if e cached
// them: the hot paths ask it first, with no buffer to clear.
func (e *event) cachedSteps() ([]trace.Access, bool) {
	switch {
	case !e.cached:
		return nil, false
	case e.nacc < 0:
		return e.x.accx, true
	}
	return e.acc[:e.nacc], true
}

// steps returns the accesses of e's step.
func (e *event) steps(buf []trace.Access) []trace.Access {
	switch {
	case !e.cached:
		return append(e.accesses(buf), e.ann()...)
	case e.nacc < 0:
		return e.x.accx
	}
	return e.acc[:e.nacc]
}

// conflict reports whether a and b have conflicting accesses under CR
// (trace.Relation.Dependent without the thread structure), with stable
// object numbers.
func (n *names) conflict(a, b *event) bool {
	if a.cached && b.cached && a.mask&b.mask == 0 {
		return false
	}
	as, ok := a.cachedSteps()
	if !ok {
		var buf [8]trace.Access
		as = a.steps(buf[:0])
	}
	if len(as) == 0 {
		return false
	}
	// The loops are written out here, the hot path of the race analysis:
	// trace.Conflicts, inlined, measured 2-3% slower on fib 5.
	bs, ok := b.cachedSteps()
	if !ok {
		var buf [8]trace.Access
		bs = b.steps(buf[:0])
	}
	for _, x := range as {
		for _, y := range bs {
			if trace.Conflict(x, y) {
				return true
			}
		}
	}
	return false
}

// opConflict reports whether a's own accesses (its operation and its
// partner's, without what its threads announce after it) conflict with the
// accesses of b's step.
func (n *names) opConflict(a, b *event) bool {
	var bufA, bufB [8]trace.Access
	as := a.accesses(bufA[:0])
	if len(as) == 0 {
		return false
	}
	return trace.Conflicts(as, b.steps(bufB[:0]))
}

// dependent is the dependency relation of the exploration: trace.Dependent
// under CR (a common thread, a join of a thread of the other, conflicting
// accesses), plus the order of spawns: an event is dependent with the events
// of the threads started in its local code. Two events that start threads
// are not: threads are compared by their stable names (trace.ThreadNames), so a
// wakeup sequence may start them in the other order.
func (n *names) dependent(a, b *event) bool {
	if a.fails || b.fails || shareThread(a, b) || joins(a, b) || joins(b, a) {
		return true
	}
	if len(a.kids()) > 0 && (a.spawnedBy(b.sth) || a.spawnedBy(b.spart)) {
		return true
	}
	if len(b.kids()) > 0 && (b.spawnedBy(a.sth) || b.spawnedBy(a.spart)) {
		return true
	}
	if a.cached && b.cached && a.mask&b.mask == 0 {
		return false // conflict's first test, without the call
	}
	return n.conflict(a, b)
}

// racing reports whether a and b, of different threads, are dependent in a
// way whose order matters: a join or conflicting accesses.
func (n *names) racing(a, b *event) bool {
	return a.fails || b.fails || joins(a, b) || joins(b, a) || n.conflict(a, b)
}
