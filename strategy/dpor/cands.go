// This file indexes the accesses of a finished execution by object and
// thread, so that the races of a pending operation are found without a
// scan of every event before it.

package dpor

import (
	"slices"

	"github.com/weft-go/weft/trace"
)

// accessIndex lists, for each object (TimeObject last) and each thread,
// the events of the thread (as the event's Thread) that access the object,
// in trace order. An event that races with thread t's pending operation
// accesses an object of its footprint and does not happen before t: it is
// in the part of such a list that t's clock does not know, a suffix, since
// what t knows of a thread's events is a prefix of them.
type accessIndex struct {
	lists [][]int32 // by object*threads + thread
	n     int       // threads
	cands []int32
}

// reset indexes the accesses of tr's events (steps gives them).
func (x *accessIndex) reset(tr *trace.Trace, steps *trace.Steps) {
	x.n = len(tr.Threads)
	m := (len(tr.Objects) + 1) * x.n
	for len(x.lists) < m {
		x.lists = append(x.lists, nil)
	}
	x.lists = x.lists[:m]
	for i := range x.lists {
		x.lists[i] = x.lists[i][:0]
	}
	for i := range tr.Events {
		q := int(tr.Events[i].Thread)
		for _, a := range steps.Accesses(i) {
			o := objIndex(tr, a.Obj)
			if o < 0 {
				continue
			}
			l := &x.lists[o*x.n+q]
			if k := len(*l); k == 0 || (*l)[k-1] != int32(i) {
				*l = append(*l, int32(i))
			}
		}
	}
}

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

// candidates returns, latest first and each once, the events before k of
// threads other than t that access an object of fp and do not happen
// before t (hb at position k): a superset of the events that race with
// t's pending operation of footprint fp, unless it joins a thread. It
// reports false if fp has an object it cannot index.
func (x *accessIndex) candidates(tr *trace.Trace, hb *trace.HB, k int, t trace.ThreadID, fp []trace.Access) ([]int32, bool) {
	c := x.cands[:0]
	for j, a := range fp {
		o := objIndex(tr, a.Obj)
		if o < 0 {
			return nil, false
		}
		if slices.ContainsFunc(fp[:j], func(b trace.Access) bool { return b.Obj == a.Obj }) {
			continue
		}
		for q := range x.n {
			if q == int(t) {
				continue
			}
			l := x.lists[o*x.n+q]
			hi, _ := slices.BinarySearch(l, int32(k))
			// The events of q that t knows are a prefix of l.
			lo, _ := slices.BinarySearchFunc(l[:hi], true, func(i int32, _ bool) int {
				if hb.BeforeThread(int(i), t) {
					return -1
				}
				return 1
			})
			c = append(c, l[lo:hi]...)
		}
	}
	slices.Sort(c)
	c = slices.Compact(c)
	slices.Reverse(c)
	x.cands = c
	return c, true
}
