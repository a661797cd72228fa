// This file indexes a finished trace's events by thread and its accesses by
// object, thread and mode, so that a race's reversal (notdep(i), its
// initials, its conflicts with a footprint) is found by binary searches per
// thread, not by a scan of the events between the race's two sides.

package dpor

import (
	"slices"
	"sort"

	"github.com/weft-go/weft/trace"
)

// modes is the number of access modes the index separates: trace.Read,
// trace.Write and trace.Shared, and the zero mode.
const modes = int(trace.Shared) + 1

// eventIndex lists, for a finished trace, the events each thread takes part
// in (as the event's Thread or Partner), and for each object (TimeObject
// last), thread (as the event's Thread) and mode the events of the thread
// that access the object in that mode (their step's accesses, trace.Steps),
// each in trace order. The access lists are kept only for the (object,
// thread, mode) triples that have accesses, grouped by object: a dense table
// of every triple grew as objects times threads, gigabytes with ten
// thousand goroutines. Its memory is reused across resets.
type eventIndex struct {
	tr  *trace.Trace
	n   int       // threads
	evs [][]int32 // by thread
	// groups lists the non-empty (thread, mode) lists of each object, in
	// thread then mode order: object o's are groups[objAt[o]:objAt[o+1]],
	// each naming its events as accEvs[lo:hi].
	groups []accGroup
	objAt  []int32
	accEvs []int32
	keys   []accKey // scratch: the accesses, to sort
	whole  bool     // every access of every event is in the lists
}

// accGroup is the list of the events of thread q that access an object in
// mode m: accEvs[lo:hi].
type accGroup struct {
	q      int32
	m      int32
	lo, hi int32
}

// accKey is an access by event i of object o, as event i's thread q, in
// mode m.
type accKey struct{ o, q, m, i int32 }

// reset indexes tr, whose steps' accesses steps gives.
func (x *eventIndex) reset(tr *trace.Trace, steps *trace.Steps) {
	x.tr, x.n, x.whole = tr, len(tr.Threads), true
	x.evs = resetLists(x.evs, x.n)
	// Sized once: append would grow a long execution's keys by a quarter
	// at a time, copying them each time.
	ks := slices.Grow(x.keys[:0], steps.NumAccesses(len(tr.Events)))
	for i := range tr.Events {
		e := &tr.Events[i]
		x.evs[e.Thread] = append(x.evs[e.Thread], int32(i))
		if e.Partner != trace.NoThread {
			x.evs[e.Partner] = append(x.evs[e.Partner], int32(i))
		}
		for _, a := range steps.Accesses(i) {
			o := objIndex(tr, a.Obj)
			if o < 0 || int(a.Mode) >= modes {
				x.whole = false
				continue
			}
			ks = append(ks, accKey{int32(o), int32(e.Thread), int32(a.Mode), int32(i)})
		}
	}
	// Stable: each list stays in trace order.
	slices.SortStableFunc(ks, func(a, b accKey) int {
		if a.o != b.o {
			return int(a.o - b.o)
		}
		if a.q != b.q {
			return int(a.q - b.q)
		}
		return int(a.m - b.m)
	})
	x.keys = ks
	objs := len(tr.Objects) + 1
	x.objAt = slices.Grow(x.objAt[:0], objs+1)[:objs+1]
	// At most one event per key: sized once, as keys.
	x.groups, x.accEvs = x.groups[:0], slices.Grow(x.accEvs[:0], len(ks))
	o := 0
	x.objAt[0] = 0
	for _, k := range ks {
		for o < int(k.o) {
			o++
			x.objAt[o] = int32(len(x.groups))
		}
		g := len(x.groups) - 1
		if g < int(x.objAt[o]) || x.groups[g].q != k.q || x.groups[g].m != k.m {
			x.groups = append(x.groups, accGroup{q: k.q, m: k.m, lo: int32(len(x.accEvs)), hi: int32(len(x.accEvs))})
			g++
		}
		// An event's accesses of one object in one mode count once.
		if gr := &x.groups[g]; gr.hi == gr.lo || x.accEvs[gr.hi-1] != k.i {
			x.accEvs = append(x.accEvs, k.i)
			gr.hi++
		}
	}
	for o < objs {
		o++
		x.objAt[o] = int32(len(x.groups))
	}
}

// accesses returns the non-empty access lists of object o (objIndex).
func (x *eventIndex) accesses(o int) []accGroup {
	return x.groups[x.objAt[o]:x.objAt[o+1]]
}

// list returns the events of group g.
func (x *eventIndex) list(g *accGroup) []int32 { return x.accEvs[g.lo:g.hi] }

// resetLists returns ls with n empty lists, reusing their memory.
func resetLists(ls [][]int32, n int) [][]int32 {
	for len(ls) < n {
		ls = append(ls, nil)
	}
	ls = ls[:n]
	for i := range ls {
		ls[i] = ls[i][:0]
	}
	return ls
}

// after returns the position in l (ascending) of its first entry after i.
func after(l []int32, i int) int {
	p, found := slices.BinarySearch(l, int32(i))
	if found {
		p++
	}
	return p
}

// notdep describes notdep(i) between event i and state s_k, per thread q:
// the events of q after i that i does not happen before, and before k, are
// positions lo[q] to hi[q] (excluded) of the index's list of q's events,
// since the events of q that i happens before are a suffix of q's events;
// limit[q] is the event of q after them (or k).
type notdep struct {
	i, k          int
	lo, hi, limit []int
}

// reset computes notdep(i) before s_k; hb must have processed the events
// before k.
func (d *notdep) reset(x *eventIndex, hb *trace.HB, i, k int) {
	d.i, d.k = i, k
	d.lo, d.hi, d.limit = resize(d.lo, x.n), resize(d.hi, x.n), resize(d.limit, x.n)
	for q := range x.n {
		l := x.evs[q]
		lo := after(l, i)
		end, _ := slices.BinarySearch(l, int32(k))
		end = max(end, lo)
		hi := lo + sort.Search(end-lo, func(y int) bool { return hb.Before(i, int(l[lo+y])) })
		d.lo[q], d.hi[q], d.limit[q] = lo, hi, k
		if hi < end {
			d.limit[q] = int(l[hi])
		}
	}
}

// resize returns s with n entries, reusing its memory.
func resize(s []int, n int) []int {
	if cap(s) < n {
		return make([]int, n)
	}
	return s[:n]
}

// has reports whether thread q takes part in an event of notdep(i).
func (d *notdep) has(q trace.ThreadID) bool {
	return int(q) >= 0 && int(q) < len(d.lo) && d.lo[q] < d.hi[q]
}

// conflicts reports whether an event of notdep(i) has an access that
// conflicts with one of as; x must be whole.
func (d *notdep) conflicts(x *eventIndex, as []trace.Access) bool {
	for _, a := range as {
		o := objIndex(x.tr, a.Obj)
		if o < 0 {
			continue // no event accesses it (x is whole)
		}
		for k := range x.accesses(o) {
			g := &x.accesses(o)[k]
			q := int(g.q)
			if d.lo[q] == d.hi[q] || !trace.ModesConflict(a.Mode, trace.Mode(g.m)) {
				continue
			}
			l := x.list(g)
			if p := after(l, d.i); p < len(l) && int(l[p]) < d.limit[q] {
				return true
			}
		}
	}
	return false
}

// each calls f for each event of notdep(i), an event with a partner once
// per thread, until f returns true; it reports whether one did.
func (d *notdep) each(x *eventIndex, f func(j int) bool) bool {
	for q := range x.n {
		for _, j := range x.evs[q][d.lo[q]:d.hi[q]] {
			if f(int(j)) {
				return true
			}
		}
	}
	return false
}
