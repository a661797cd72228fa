// This file implements the exploration of scenarios: Alg. 3
// (ExploreISCs), which adds an interference to an unrealizable ISC, and
// the extension of lock holders to lock-free nodes (Farzan et al. 2013, §7.4).

package con2

import (
	"maps"
	"slices"

	"github.com/weft-go/weft/trace"
)

// explore returns the ISCs that extend c by one interference from a
// write of ws to a read of c that reads locally (Alg. 3), only to the
// reads of guide if it is not nil. The write's causal past joins c's
// (merge(C, I_w)) when the two are compatible: one path per thread. The
// results are completed (complete) and not yet checked against the bound
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
			if (f.concrete(rn.lab.obj) || f.constantAfter(nodes, r)) && f.after(nodes, r) && rn.lab.op != trace.KindAwait {
				// The variable's values carry no expression: a plain Go
				// if on the value read, which con2 does not see, may
				// take the thread elsewhere than the nodes after the
				// read. The scenario ends at the read, which its thread
				// then runs alone from. (Not for an await's read: no
				// value it reads flows into its thread; doc.go, "Busy
				// waits".)
				k := rn.key
				k.src = w
				rw, _ := f.intern(k)
				f.copyOp(r, rw)
				out = append(out, s.complete(&isc{kind: iscRead, sink: rw, target: rn.thread, tips: []int32{rw}})...)
				continue
			}
			tips, sink := f.interfere(nodes, c.tips, c.sink, r, w)
			out = append(out, s.complete(&isc{kind: c.kind, sink: sink, target: c.target, tips: tips})...)
		}
	}
	return out
}

// concrete reports whether variable obj's values carry no expression (no
// read of it had one).
func (f *forest) concrete(obj uint64) bool {
	w, ok := f.widths[obj]
	return !ok || w < 0
}

// constantAfter reports whether nodes holds a branch on a constant
// condition after read r in its thread: a plain w.Assert, whose side the
// value read may decide in a way con2 does not see.
func (f *forest) constantAfter(nodes []int32, r int32) bool {
	rn := &f.nodes[r]
	return slices.ContainsFunc(nodes, func(n int32) bool {
		m := &f.nodes[n]
		return m.thread == rn.thread && m.depth > rn.depth && m.lab.kind == kBranch && constant(m.lab.expr)
	})
}

// after reports whether nodes holds a node of read r's thread after it.
func (f *forest) after(nodes []int32, r int32) bool {
	rn := &f.nodes[r]
	return slices.ContainsFunc(nodes, func(n int32) bool {
		return f.nodes[n].thread == rn.thread && f.nodes[n].depth > rn.depth
	})
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
	f.copyOp(r, m[r])
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
			f.copyOp(n, m[n])
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

// maxExtensions bounds the rounds of extension of one ISC.
const maxExtensions = 32

// complete returns the ISCs that extend c's threads other than its target
// to where an execution of c's prefix leaves them, along observed paths
// of the forest (one ISC per combination of paths):
//
//   - a thread that holds a lock at its last node, to the first node
//     where it holds none (§7.4). With no such path observed, it keeps
//     its last node, and the strategy asks for an execution that runs the
//     thread alone from there if the node was observed (iscResume, await);
//     c is completed again once the forest has a path (retry);
//   - every thread, through the local actions (branches, forks) that
//     follow its last node before its next step: they run with the step
//     before them. A thread the scenario forks and does not run starts so
//     too: weft runs a new thread's local code up to its first operation
//     when it is started. The paper's threads do nothing until scheduled.
//
// ISCs whose parts are incompatible are dropped.
func (s *Strategy) complete(c *isc) []*isc {
	var out []*isc
	s.extend(c, c.tips, nil, 0, &out)
	return out
}

// start is where a thread of a scenario stands: its last node, or the
// fork that starts a thread with none.
type start struct {
	thread trace.ThreadID
	node   int32
}

func (s *Strategy) extend(c *isc, tips []int32, done map[trace.ThreadID]bool, round int, out *[]*isc) {
	if s.stop.Now() {
		return // a bound of the exploration passed; each call is long enough to look at the clock
	}
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
	// A sender's side of a rendezvous runs in its receiver's step: a
	// scenario that has it needs a receiver, one an execution showed.
	// The receiver's interference is the rendezvous's, the receiver's
	// own: it does not count for the scenario.
	if round < maxExtensions {
		for _, v := range nodes {
			if !f.nodes[v].lab.rdv || slices.ContainsFunc(nodes, func(r int32) bool { return f.nodes[r].src == v }) {
				continue
			}
			for _, r := range f.receivers[v] {
				c2 := *c
				c2.free = withTip(c.free, r)
				s.extend(&c2, withTip(tips, r), done, round+1, out)
			}
			return
		}
	}
	if round < maxExtensions {
		for _, st := range f.starts(nodes, chains, c.target) {
			if done[st.thread] {
				continue
			}
			if ch := chains[st.thread]; len(ch) > 0 && len(f.held(ch)) > 0 {
				ends := f.releases(st.node)
				if len(ends) == 0 {
					s.await(st.node, c)
					done = with(done, st.thread)
					continue
				}
				for _, e := range ends {
					s.extend(c, withTip(tips, e), done, round+1, out)
				}
				return
			}
			ends, stop := f.locals(st.node, st.thread)
			d := with(done, st.thread)
			if stop {
				s.extend(c, tips, d, round+1, out)
			}
			for _, e := range ends {
				s.extend(c, withTip(tips, e), d, round+1, out)
			}
			return
		}
	}
	x := *c
	x.tips, x.degree = tips, f.degreeOf(nodes)
	for i, r := range c.free {
		if f.interfered(r) && !slices.Contains(c.free[:i], r) && slices.Contains(nodes, r) {
			x.degree--
		}
	}
	x.makeKey()
	*out = append(*out, &x)
}

// with returns done with thread th added, leaving done unchanged.
func with(done map[trace.ThreadID]bool, th trace.ThreadID) map[trace.ThreadID]bool {
	d := make(map[trace.ThreadID]bool, len(done)+1)
	for k := range done {
		d[k] = true
	}
	d[th] = true
	return d
}

// starts returns where each thread of a scenario but target stands, by
// thread.
func (f *forest) starts(nodes []int32, chains map[trace.ThreadID][]int32, target trace.ThreadID) []start {
	var out []start
	for th, ch := range chains {
		if th != target {
			out = append(out, start{th, ch[len(ch)-1]})
		}
	}
	for _, n := range nodes {
		if l := &f.nodes[n].lab; l.kind == kFork {
			th := trace.ThreadID(l.obj)
			if _, ok := chains[th]; !ok && th != target {
				out = append(out, start{th, n})
			}
		}
	}
	slices.SortFunc(out, func(a, b start) int { return int(a.thread - b.thread) })
	return out
}

// locals returns the ends of the paths of local actions of thread th
// after node n, up to its next step: the nodes after which an observed
// execution took a step or ran nothing more of th, and the other sides
// of the branches observed on the way (hypothetical: what follows them
// is unknown until an execution takes them). stop reports that n itself
// is such an end. A path through a node after which an execution failed
// ends none: the thread fails there, and the scenario cannot go on.
func (f *forest) locals(n int32, th trace.ThreadID) (ends []int32, stop bool) {
	next := f.next(n, th)
	if len(next) == 0 {
		return nil, true
	}
	for _, k := range next {
		// The other side of a branch on a constant is never taken after
		// the same nodes: the values its thread read decide it.
		if l := &f.nodes[k].lab; l.kind == kBranch && !constant(l.expr) {
			if d, ok := f.index[f.dual(k)]; ok && !slices.Contains(next, d) {
				next = append(next, d)
			}
		}
	}
	for _, k := range next {
		switch {
		case f.nodes[k].lab.kind.event():
			stop = true
		case f.fails[k]:
		default:
			e, st := f.locals(k, th)
			if st {
				ends = append(ends, k)
			}
			ends = append(ends, e...)
		}
	}
	return ends, stop
}

// releases returns the observed nodes after node n in its thread, on
// each path, where the thread first holds no lock.
func (f *forest) releases(n int32) []int32 {
	th := f.nodes[n].thread
	var c []int32
	for m := n; m != none && f.nodes[m].thread == th; m = f.nodes[m].up {
		c = append(c, m)
	}
	slices.Reverse(c)
	var out []int32
	var walk func(m int32, held []uint64)
	walk = func(m int32, held []uint64) {
		for _, k := range f.next(m, th) {
			h := lockStep(held, &f.nodes[k].lab)
			if len(h) == 0 {
				out = append(out, k)
				continue
			}
			walk(k, h)
		}
	}
	walk(n, f.held(c))
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
