// This file implements the initials of a race's reversal (Abdulla, Aronis,
// Jonsson and Sagonas, "Optimal dynamic partial order reduction", POPL 2014:
// source sets), the backtracking rule that stays complete with sleep sets.

package dpor

import (
	"slices"

	"github.com/weft-go/weft/trace"
)

// Reversal computes the initials of race reversals; its memory is reused.
// Reset it with each trace, before its first Initials there.
type Reversal struct {
	x      eventIndex
	d      notdep
	firsts []firstEvent
	out    []trace.ThreadID
	acc    []trace.Access
	cands  []int32
	// The scan, when the index is not whole (an access it cannot file)
	// or the reversal has fewer events than the trace has threads
	// (scanned).
	scan    []int32
	scanned bool
	seen    ThreadSet
}

// firstEvent is the first event j of notdep(i) that thread q takes part in.
type firstEvent struct {
	j int32
	q trace.ThreadID
}

// Reset indexes tr, whose steps' accesses steps gives, for the reversals of
// its races.
func (r *Reversal) Reset(tr *trace.Trace, steps *trace.Steps) { r.x.reset(tr, steps) }

// Initials returns the threads that can start the reversal of the race
// between event i and thread p's operation v, pending in state s_k (run at
// event k, or never if k is the length of the trace), whose footprint is fp.
// The reversal runs notdep(i).v from pre(E, i): the events between i and k
// that do not happen after i, then v; an initial is a thread whose first
// event there has no predecessor there in happens-before (for p, v's
// predecessors are the events p's clock knows, those dependent with fp and,
// if v joins a thread, that thread's events: the join waits for them).
// Running an initial first from pre(E, i) starts an execution equivalent to
// the reversal, and if an initial sleeps there, that execution is covered.
// hb must have processed the events before k, and no more; Reset must have
// indexed tr. The result, in the order of the initials' first events,
// aliases the Reversal's memory.
//
// The events of notdep(i) that a thread takes part in are consecutive among
// its events (those i happens before are a suffix), so each question is
// answered per thread by binary searches: O(threads × log n), and for p
// O(threads × |fp| × log n), not O(k - i); where k - i is the smaller, the
// events between i and k are scanned instead.
func (r *Reversal) Initials(tr *trace.Trace, hb *trace.HB, i, k int, p trace.ThreadID, v trace.Op, fp []trace.Access) []trace.ThreadID {
	// The scan costs the events between i and k, the index the threads:
	// the cheaper is taken.
	if r.scanned = !r.x.whole || k-i <= r.x.n; r.scanned {
		return r.scanInitials(tr, hb, i, k, p, v, fp)
	}
	r.out, r.firsts = r.out[:0], r.firsts[:0]
	r.d.reset(&r.x, hb, i, k)
	for q := range r.x.n {
		if r.d.lo[q] < r.d.hi[q] {
			r.firsts = append(r.firsts, firstEvent{r.x.evs[q][r.d.lo[q]], trace.ThreadID(q)})
		}
	}
	slices.SortFunc(r.firsts, func(a, b firstEvent) int { return int(a.j) - int(b.j) })
	for _, f := range r.firsts {
		// Only the event's own thread chooses it: a sender does not
		// choose its rendezvous. An event of notdep(i) that happens
		// before j comes after i (so j has a predecessor in notdep(i) iff
		// it has one after i: an event after i that happens before j does
		// not happen after i, or j would).
		if tr.Events[f.j].Thread == f.q && hb.LastBefore(int(f.j)) <= i {
			r.out = append(r.out, f.q)
		}
	}
	if r.d.has(p) {
		return r.out
	}
	for _, f := range r.firsts {
		// What p knows of a thread's events is a prefix of them.
		if hb.BeforeThread(int(f.j), p) {
			return r.out
		}
	}
	if v.Kind == trace.KindJoin && r.d.has(trace.ThreadID(v.Arg)) {
		return r.out
	}
	if r.d.conflicts(&r.x, fp) {
		return r.out
	}
	return append(r.out, p)
}

// scanInitials is Initials by a scan of the events between i and k, for a
// trace the index cannot hold whole.
func (r *Reversal) scanInitials(tr *trace.Trace, hb *trace.HB, i, k int, p trace.ThreadID, v trace.Op, fp []trace.Access) []trace.ThreadID {
	r.scan, r.out = r.scan[:0], r.out[:0]
	r.seen.Clear()
	for j := i + 1; j < k; j++ {
		if !hb.Before(i, j) {
			r.scan = append(r.scan, int32(j))
		}
	}
	steps := hb.Steps()
	for _, j := range r.scan {
		e := &tr.Events[j]
		q := e.Thread
		first := !r.seen.Has(q)
		r.seen.Add(q)
		if e.Partner != trace.NoThread {
			r.seen.Add(e.Partner) // a sender does not choose its rendezvous
		}
		if first && hb.LastBefore(int(j)) <= i {
			r.out = append(r.out, q)
		}
	}
	if !r.seen.Has(p) {
		joined := trace.NoThread
		if v.Kind == trace.KindJoin {
			joined = trace.ThreadID(v.Arg)
		}
		for _, j := range r.scan {
			e := &tr.Events[j]
			if hb.BeforeThread(int(j), p) || (joined != trace.NoThread && (e.Thread == joined || e.Partner == joined)) || trace.Conflicts(steps.Accesses(int(j)), fp) {
				return r.out
			}
		}
		r.out = append(r.out, p)
	}
	return r.out
}

// StepDepends reports whether the step of thread p from node n, the state
// pre(E, i) of the last Initials, depends on an event of the reversal
// (notdep(i)) by more than its operation, which Initials checks: by what
// the exploration knows p's step announces there, from p's sleeper in n
// (seen when p ran from an earlier state, reading what it reads in n) or
// from p's own runs from n. The trace may show less, or another step: p's
// operation, reversed with event i, may read another value and run other
// local code, and a step that failed ended the execution before announcing
// anything. If the step depends on notdep(i), p is not an initial of the
// reversal, and its sleeping or having run in n covers nothing.
func (r *Reversal) StepDepends(steps *trace.Steps, n *Node, p trace.ThreadID) bool {
	for x := range n.Sleep {
		if s := &n.Sleep[x]; s.Thread == p && r.notdepConflicts(steps, s.Ann, s.Objs) {
			return true
		}
	}
	r.acc = r.acc[:0]
	for _, a := range n.announcements() {
		if a.thread == p {
			r.acc = append(r.acc, a.acc)
		}
	}
	return r.notdepConflicts(steps, r.acc, n.objs)
}

// notdepConflicts reports whether accesses as, seen in a state with objs
// objects (newObject standing for any object numbered objs or more),
// conflict with an event of the last reversal's notdep.
func (r *Reversal) notdepConflicts(steps *trace.Steps, as []trace.Access, objs int32) bool {
	if len(as) == 0 {
		return false
	}
	fresh := slices.ContainsFunc(as, isNew)
	if r.scanned {
		for _, j := range r.scan {
			acc := steps.Accesses(int(j))
			if conflict(acc, as) || (fresh && usesNew(acc, objs)) {
				return true
			}
		}
		return false
	}
	if r.d.conflicts(&r.x, as) {
		return true
	}
	// Objects first used after the state: the events of notdep(i) one by
	// one (rare: a sleeper's local code created an object).
	return fresh && r.d.each(&r.x, func(j int) bool { return usesNew(steps.Accesses(j), objs) })
}
