// This file implements the exploration of scenarios: Alg. 3
// (ExploreISCs), which adds an interference to an unrealizable ISC, and
// the extension of lock holders to lock-free nodes (seed 003 §7.4).

package con2

import (
	"maps"
	"slices"
)

// explore returns the ISCs that extend c by one interference from a
// write of ws to a read of c that reads locally (Alg. 3), only to the
// reads of guide if it is not nil. The write's causal past joins c's
// (merge(C, I_w)) when the two are compatible: one path per thread. The
// results are made lock-free (§7.4) and not yet checked against the bound
// or the duplicate cache.
func (s *Strategy) explore(c *isc, ws []int32, guide map[int32]bool) []*isc {
	f := s.f
	nodes := f.closure(c.tips...)
	var out []*isc
	for _, r := range nodes {
		rn := f.nodes[r]
		if !rn.lab.kind.reads() || rn.src != none || (guide != nil && !guide[r]) {
			continue
		}
	writes:
		for _, w := range ws {
			wn := &f.nodes[w]
			if !wn.lab.kind.writes() || wn.lab.obj != rn.lab.obj || wn.thread == rn.thread || f.before(w, rn.up) {
				continue
			}
			// The read must not be in the write's causal past, nor any
			// node of its thread at its depth or beyond: the write would
			// come after the read it is read by, or the two need
			// different paths of the read's thread.
			for _, n := range f.closure(w) {
				if m := &f.nodes[n]; m.thread == rn.thread && m.depth >= rn.depth {
					continue writes
				}
			}
			tips, sink := f.interfere(nodes, c.tips, c.sink, r, w)
			out = append(out, s.lockFree(&isc{kind: c.kind, sink: sink, target: c.target, tips: tips})...)
		}
	}
	return out
}

// before reports whether node w is node n or before it in n's thread or,
// before its fork, in its ancestors': a write the read after n reads
// locally, or one a local write hides from it, never an interference.
func (f *forest) before(w, n int32) bool {
	for ; n != none; n = f.nodes[n].up {
		if n == w {
			return true
		}
	}
	return false
}

// interfere returns the tips and sink of the scenario of nodes (the
// causal past of tips) in which read r reads write w: r's node is
// replaced by one whose source is w, and every node that depends on it
// by one that depends on the replacement, in topological (index) order.
func (f *forest) interfere(nodes, tips []int32, sink, r, w int32) ([]int32, int32) {
	m := map[int32]int32{}
	k := f.nodes[r].key
	k.src = w
	m[r], _ = f.intern(k)
	for _, n := range nodes {
		if n <= r {
			continue
		}
		k := f.nodes[n].key
		nk := k
		if v, ok := m[k.up]; ok {
			nk.up = v
		}
		if v, ok := m[k.src]; ok {
			nk.src = v
		}
		if nk != k {
			m[n], _ = f.intern(nk)
		}
	}
	mapped := func(n int32) int32 {
		if v, ok := m[n]; ok {
			return v
		}
		return n
	}
	out := make([]int32, len(tips))
	for i, t := range tips {
		out[i] = mapped(t)
	}
	slices.Sort(out)
	return out, mapped(sink)
}

// maxExtensions bounds the rounds of lock extension of one ISC.
const maxExtensions = 16

// lockFree returns c with every thread but its target that holds a lock
// at its last node extended along the observed paths of the forest to
// the first node where it holds none (§7.4): one ISC per combination of
// such paths. A thread with no such path observed keeps its last node,
// and the strategy asks for an execution that continues the thread
// alone from there if the node was observed (iscResume); once the forest
// has a path, c is extended again (retry). ISCs whose parts are
// incompatible are dropped.
func (s *Strategy) lockFree(c *isc) []*isc {
	var out []*isc
	s.extendLocks(c, c.tips, 0, &out)
	return out
}

func (s *Strategy) extendLocks(c *isc, tips []int32, round int, out *[]*isc) {
	f := s.f
	nodes := f.closure(tips...)
	chains, ok := f.chains(nodes)
	if !ok {
		return
	}
	// The target's last node is its sink (it runs alone from there), or
	// it has none for a thread start (it runs alone from its fork).
	if tc := chains[c.target]; c.kind == iscStart && len(tc) > 0 || c.kind != iscStart && (len(tc) == 0 || tc[len(tc)-1] != c.sink) {
		return
	}
	if round < maxExtensions {
		for _, th := range sortedThreads(chains) {
			ch := chains[th]
			if th == c.target || len(f.held(ch)) == 0 {
				continue
			}
			last := ch[len(ch)-1]
			ends := f.releases(last)
			if len(ends) == 0 {
				s.await(last, c)
				continue
			}
			for _, e := range ends {
				s.extendLocks(c, withTip(tips, e), round+1, out)
			}
			return
		}
	}
	d := *c
	d.tips, d.degree = tips, f.degreeOf(nodes)
	d.makeKey()
	*out = append(*out, &d)
}

// releases returns the observed nodes after node n in its thread, on
// each path, where the thread first holds no lock.
func (f *forest) releases(n int32) []int32 {
	var c []int32
	for m := n; m != none && f.nodes[m].thread == f.nodes[n].thread; m = f.nodes[m].up {
		c = append(c, m)
	}
	slices.Reverse(c)
	held := f.held(c)
	var out []int32
	var walk func(m int32, held []uint64)
	walk = func(m int32, held []uint64) {
		for _, k := range f.kids[m] {
			h := held
			if l := &f.nodes[k].lab; l.kind == kAcquire {
				h = append(slices.Clone(held), l.obj)
			} else if l.kind == kRelease {
				if i := slices.Index(held, l.obj); i >= 0 {
					h = slices.Delete(slices.Clone(held), i, i+1)
				}
			}
			if len(h) == 0 {
				out = append(out, k)
				continue
			}
			walk(k, h)
		}
	}
	walk(n, held)
	return out
}

// await records that ISC c has a thread holding a lock at node n with no
// observed way to its release: it asks, once, for an execution that runs
// n's thread alone from n (if n was observed: a hypothetical node has no
// execution to continue), and c is extended again when the forest has a
// path (retry).
func (s *Strategy) await(n int32, c *isc) {
	if !s.f.nodes[n].observed {
		return
	}
	if !slices.Contains(s.waiting[n], c) {
		s.waiting[n] = append(s.waiting[n], c)
	}
	if s.resumed[n] {
		return
	}
	s.resumed[n] = true
	s.add(&isc{kind: iscResume, sink: n, target: s.f.nodes[n].thread, tips: []int32{n}})
}

// retry extends again the ISCs that waited for a release now observed.
func (s *Strategy) retry() {
	ns := slices.Sorted(maps.Keys(s.waiting))
	for _, n := range ns {
		if len(s.f.releases(n)) == 0 {
			continue
		}
		cs := s.waiting[n]
		delete(s.waiting, n)
		for _, c := range cs {
			s.add(c)
		}
	}
}
