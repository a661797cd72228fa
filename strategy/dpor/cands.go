// This file finds the candidates of a pending operation's races from the
// index of a trace's accesses, without a scan of every event before it.

package dpor

import (
	"slices"

	"github.com/weft-go/weft/trace"
)

// objIndex returns the index of object o in the per-object tables, or -1.
func objIndex(tr *trace.Trace, o trace.ObjectID) int {
	switch {
	case o == trace.TimeObject:
		return len(tr.Objects)
	case o >= 0 && int(o) < len(tr.Objects):
		return int(o)
	}
	return -1
}

// Candidates returns, latest first and each once, the events before k of
// threads other than t (as the event's Thread) with an access that
// conflicts with one of fp and that do not happen before t (hb at position
// k): a superset of the events that race with t's pending operation of
// footprint fp, unless it joins a thread. It reports false when the index
// cannot tell (an access of the trace or of fp it cannot file); the scan of
// every event before k must then find them. Reset must have indexed the
// trace. The result aliases the Reversal's memory.
//
// An event that races with t accesses an object of fp and does not happen
// before t: it is in the part of its thread's list for the object that t's
// clock does not know, a suffix, since what t knows of a thread's events is
// a prefix of them.
func (r *Reversal) Candidates(hb *trace.HB, k int, t trace.ThreadID, fp []trace.Access) ([]int32, bool) {
	return r.JoinCandidates(hb, k, t, trace.NoThread, fp)
}

// JoinCandidates is Candidates for a pending operation of t that joins
// thread u (none if u is trace.NoThread): the events of u before k that do
// not happen before t are candidates too, whatever they access.
func (r *Reversal) JoinCandidates(hb *trace.HB, k int, t, u trace.ThreadID, fp []trace.Access) ([]int32, bool) {
	x := &r.x
	if !x.whole {
		return nil, false
	}
	c := r.cands[:0]
	if u >= 0 && int(u) < x.n {
		c = appendUnknown(c, hb, x.evs[u], k, t)
	}
	for _, a := range fp {
		o := objIndex(x.tr, a.Obj)
		if o < 0 || int(a.Mode) >= modes {
			return nil, false
		}
		for g := range x.accesses(o) {
			gr := &x.accesses(o)[g]
			if gr.q == int32(t) || !trace.ModesConflict(a.Mode, trace.Mode(gr.m)) {
				continue
			}
			c = appendUnknown(c, hb, x.list(gr), k, t)
		}
	}
	slices.Sort(c)
	c = slices.Compact(c)
	slices.Reverse(c)
	r.cands = c
	return c, true
}

// appendUnknown appends to c the events of l, a list of one thread's
// events in trace order, that come before k and do not happen before t.
func appendUnknown(c []int32, hb *trace.HB, l []int32, k int, t trace.ThreadID) []int32 {
	hi, _ := slices.BinarySearch(l, int32(k))
	// The events of a thread that t knows are a prefix of l.
	lo, _ := slices.BinarySearchFunc(l[:hi], true, func(i int32, _ bool) int {
		if hb.BeforeThread(int(i), t) {
			return -1
		}
		return 1
	})
	return append(c, l[lo:hi]...)
}
