// This file applies the key merges the runtime reports (trace.Trace.Merged)
// to the events the exploration keeps: two stable numbers found to name one
// object become one.

package optimal

import "github.com/weft-go/weft/trace"

// merge applies the key merges of tr (see mergeKey); a strategy resumed
// from a unit keeps them for its handback.
func (s *Strategy) merge(tr *trace.Trace) {
	for _, m := range tr.Merged {
		if s.mergeKey(m) {
			s.stats.Merges++
			s.staleCovers()
		}
		if s.units.resumed {
			s.units.merges = append(s.units.merges, m)
		}
	}
}

// mergeKey applies key merge m: the stable number of the younger key is
// replaced by that of the older one in the names of the current execution
// and in every event kept (nodes, sleep sets, wakeup trees, the analysis's
// copy of the last execution, the wakeup sequences kept for a handback).
// It reports whether two numbers became one.
func (s *Strategy) mergeKey(m trace.KeyMerge) bool {
	nm := &s.nm
	from, ok := nm.ids[m.From]
	if !ok {
		return false
	}
	to, ok := nm.ids[m.To]
	if !ok {
		nm.ids[m.To] = from
		return false
	}
	if from == to {
		return false
	}
	for k, v := range nm.ids {
		if v == from {
			nm.ids[k] = to
		}
	}
	for i, v := range nm.canon {
		if v == from {
			nm.canon[i] = to
		}
	}
	r := renumber{from: from, to: to}
	for i := range s.nodes.Len() {
		n := s.nodes.At(i)
		r.event(&n.ev)
		for j := range n.sleep {
			r.event(&n.sleep[j])
		}
		r.forest(n.wut)
		r.forest(n.sub)
		r.forest(n.given())
	}
	// The analysis holds the events of the states on the stack in their
	// nodes, the others in spill.
	for i := range s.an.spill {
		r.event(&s.an.spill[i])
	}
	for _, in := range s.units.inserts {
		for j := range in.seq {
			r.event(&in.seq[j])
		}
		for j := range in.branch {
			r.event(&in.branch[j])
		}
	}
	return true
}

// renumber replaces stable object number from by to.
type renumber struct{ from, to trace.ObjectID }

// forest renumbers the events of a wakeup forest.
func (r renumber) forest(f []*wnode) {
	for _, c := range f {
		r.event(c.ev)
		r.forest(c.children)
	}
}

// event renumbers the objects of e and recomputes its cached accesses.
func (r renumber) event(e *event) {
	r.op(&e.Op)
	r.op(&e.PartnerOp)
	r.accesses(e.ann())
	if e.cached {
		e.cache()
	}
}

// op renumbers the objects of op (its select cases are the event's own).
func (r renumber) op(op *trace.Op) {
	if op.Obj == r.from {
		op.Obj = r.to
	}
	for i := range op.Cases {
		if op.Cases[i].Obj == r.from {
			op.Cases[i].Obj = r.to
		}
	}
	if m := trace.ArgObject(op); m != trace.NoObject && m == r.from {
		op.Arg = int64(r.to)
	}
}

// accesses renumbers the objects of acc.
func (r renumber) accesses(acc []trace.Access) {
	for i := range acc {
		if acc[i].Obj == r.from {
			acc[i].Obj = r.to
		}
	}
}
