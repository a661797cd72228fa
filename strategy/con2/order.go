// This file implements the realizability of the temporal part of a
// scenario with steps of other primitives: a search for an order of its
// steps in which every step is enabled and synchronises with the step
// its node says, on package model's states of the primitives.

package con2

import (
	"slices"

	"github.com/weft-go/weft/model"
	"github.com/weft-go/weft/trace"
)

// maxOrderSteps bounds the steps the search of one scenario's order
// tries; a scenario whose search runs out is counted unrealizable
// (Stats.OrderBound).
const maxOrderSteps = 20000

// hasSync reports whether the nodes hold a step of another primitive.
func (f *forest) hasSync(ns []int32) bool {
	for _, n := range ns {
		if f.nodes[n].lab.kind == kSync {
			return true
		}
	}
	return false
}

// orderer searches an order of a scenario's steps (its event nodes).
type orderer struct {
	f       *forest
	threads []trace.ThreadID
	idx     map[trace.ThreadID]int
	seq     [][]int32 // each thread's steps, in order
	// startAt[i] is the number of steps of thread parent[i] that must
	// have run before thread i starts (its fork follows them); parent
	// -1 for a thread started from the first.
	parent, startAt []int
	pos             []int
	lastW           map[uint64]int32 // the last write run of each variable
	trk             *tracker
	evNode          []int32 // the node of each event of the model's state
	order           []int32
	budget          int
	// ghosts are the threads forked and not run; after holds each
	// thread's step after its last in the scenario (none if unknown).
	ghosts []ghost
	after  []trace.Op
}

// schedule returns an order of the steps of the scenario of nodes (by
// thread in chains) in which each runs as its node says, or false if
// none is found.
func (f *forest) schedule(nodes []int32, chains map[trace.ThreadID][]int32) ([]int32, bool, bool) {
	o := &orderer{f: f, idx: map[trace.ThreadID]int{}, lastW: map[uint64]int32{}, trk: newTracker(), budget: maxOrderSteps}
	o.threads = sortedThreads(chains)
	for i, th := range o.threads {
		o.idx[th] = i
	}
	o.seq = make([][]int32, len(o.threads))
	o.parent = make([]int, len(o.threads))
	o.startAt = make([]int, len(o.threads))
	o.pos = make([]int, len(o.threads))
	for i, th := range o.threads {
		c := chains[th]
		for _, n := range c {
			if f.step(n) {
				o.seq[i] = append(o.seq[i], n)
			}
		}
		o.parent[i] = -1
		fk := f.nodes[c[0]].up
		if fk == none {
			continue
		}
		pt := f.nodes[fk].thread
		j, ok := o.idx[pt]
		if !ok {
			continue
		}
		o.parent[i] = j
		for _, n := range chains[pt] {
			if f.nodes[n].depth < f.nodes[fk].depth && f.step(n) {
				o.startAt[i]++
			}
		}
	}
	// The threads the scenario forks and does not run: they wait at
	// their first step, which may offer a rendezvous.
	for _, n := range nodes {
		l := &f.nodes[n].lab
		if l.kind != kFork {
			continue
		}
		th := trace.ThreadID(l.obj)
		if _, ok := chains[th]; ok {
			continue
		}
		j, ok := o.idx[f.nodes[n].thread]
		if !ok {
			continue
		}
		g := ghost{parent: j}
		for _, m := range chains[f.nodes[n].thread] {
			if f.nodes[m].depth < f.nodes[n].depth && f.step(m) {
				g.startAt++
			}
		}
		g.op, _ = f.nextOp(n, th)
		o.ghosts = append(o.ghosts, g)
	}
	o.after = make([]trace.Op, len(o.threads))
	for i, th := range o.threads {
		c := chains[th]
		o.after[i], _ = f.nextOp(c[len(c)-1], th)
	}
	var st model.State
	st.Reset(f.objs, len(o.threads)+len(o.ghosts))
	ok := o.search(&st)
	return o.order, ok, o.budget <= 0
}

// started reports whether thread i has started.
func (o *orderer) started(i int) bool {
	return o.parent[i] < 0 || o.pos[o.parent[i]] >= o.startAt[i]
}

// done reports whether thread i ran all its steps.
func (o *orderer) done(i int) bool { return o.pos[i] >= len(o.seq[i]) }

// search extends the order from state st, depth first.
func (o *orderer) search(st *model.State) bool {
	all := true
	for i := range o.threads {
		if !o.done(i) {
			all = false
		}
	}
	if all {
		return true
	}
	if o.budget <= 0 {
		return false
	}
	o.budget--
	// Every thread's pending operation: its next step's, or after its
	// last the step an execution took next, if one did.
	for i := range o.threads {
		st.Threads[i].Op = trace.Op{}
		st.Threads[i].Done = o.started(i) && o.done(i)
		switch {
		case o.started(i) && !o.done(i):
			st.Threads[i].Op = o.f.ops[o.seq[i][o.pos[i]]]
		case o.started(i):
			st.Threads[i].Op = o.after[i]
		}
	}
	for j, g := range o.ghosts {
		st.Threads[len(o.threads)+j].Op = trace.Op{}
		if o.pos[g.parent] >= g.startAt {
			st.Threads[len(o.threads)+j].Op = g.op
		}
	}
	for i := range o.threads {
		if !o.started(i) || o.done(i) {
			continue
		}
		n := o.seq[i][o.pos[i]]
		if o.f.nodes[n].lab.rdv {
			continue // runs with its receiver's step
		}
		if o.try(st, i, n) {
			return true
		}
	}
	return false
}

// try runs step n of thread i next, in each way that matches n, and
// searches on.
func (o *orderer) try(st *model.State, i int, n int32) bool {
	f := o.f
	nd := &f.nodes[n]
	switch nd.lab.kind {
	case kRead, kWrite, kUpdate:
		w, ok := o.lastW[nd.lab.obj]
		if !ok {
			w = none
		}
		if nd.lab.kind.reads() && w != f.source(n) {
			return false
		}
		for _, r := range f.awaitParts(n) {
			// The other reads of an await, in its step.
			w, ok := o.lastW[f.nodes[r].lab.obj]
			if !ok {
				w = none
			}
			if w != f.source(r) {
				return false
			}
		}
		old, had := o.lastW[nd.lab.obj]
		if nd.lab.kind.writes() {
			o.lastW[nd.lab.obj] = n
		}
		if o.next(st, i, n, nil) {
			return true
		}
		if nd.lab.kind.writes() {
			if had {
				o.lastW[nd.lab.obj] = old
			} else {
				delete(o.lastW, nd.lab.obj)
			}
		}
		return false
	case kJoin:
		if nd.src != none {
			j, ok := o.idx[f.nodes[nd.src].thread]
			if ok && !o.done(j) {
				return false
			}
		}
		return o.next(st, i, n, nil)
	}
	op := st.Threads[i].Op
	if st.Enabled(trace.ThreadID(i), op) == model.Disabled {
		return false
	}
	found := false
	st.Alternatives(trace.ThreadID(i), op, func(a model.Alt) bool {
		if o.matches(st, i, n, a) {
			s2 := new(model.State)
			s2.CopyFrom(st)
			if o.step(s2, i, n, a) {
				found = true
				return false
			}
		}
		return o.budget > 0
	})
	return found
}

// matches reports whether alternative a of thread i's pending operation
// runs step n as its node says: the select case, the partner, the OK,
// and the step it synchronises with.
func (o *orderer) matches(st *model.State, i int, n int32, a model.Alt) bool {
	f := o.f
	nd := &f.nodes[n]
	l := &nd.lab
	op := st.Threads[i].Op
	if op.Kind == trace.KindSelect && a.Case != l.cas {
		return false
	}
	if a.Partner != trace.NoThread {
		if nd.src == none || !f.nodes[nd.src].lab.rdv {
			return false
		}
		j, ok := o.idx[f.nodes[nd.src].thread]
		if !ok || int(a.Partner) != j || o.done(j) || o.seq[j][o.pos[j]] != nd.src || a.PartnerCase != f.nodes[nd.src].lab.cas {
			return false
		}
		// A timer's send observes the advance of the clock that made the
		// timer due (time at any step): it runs after it.
		if w := f.nodes[nd.src].src; w != none && !slices.Contains(o.order, w) {
			return false
		}
		return true
	}
	if nd.src != none && f.nodes[nd.src].lab.rdv {
		return false
	}
	out := st.Outcome(trace.ThreadID(i), op, a)
	if l.kind == kSync && (out.OK != l.ok || op.Class == trace.ClassMutex && out.OK) {
		return false // (a Mutex's TryLock that succeeds is an acquire)
	}
	if l.kind == kAcquire || l.kind == kRelease {
		return out.OK // (a TryLock that fails is no acquire)
	}
	if op.Kind == trace.KindLen && int64(out.Value) != l.val {
		return false
	}
	src, ok := o.trk.source(f, nd.thread, l, op)
	if !ok {
		src = none
		if out.Source >= 0 && int(out.Source) < len(o.evNode) {
			src = o.evNode[out.Source]
		}
	}
	if nd.src != none {
		return src == nd.src
	}
	return src == none || f.nodes[src].thread == nd.thread || f.before(src, nd.up)
}

// step applies alternative a of thread i's step n to st and searches on.
func (o *orderer) step(st *model.State, i int, n int32, a model.Alt) bool {
	st.Step(trace.ThreadID(i), a, 0)
	o.evNode = append(o.evNode, n)
	var partner = -1
	if a.Partner != trace.NoThread {
		partner = int(a.Partner)
		o.pos[partner]++
	}
	nd := &o.f.nodes[n]
	saved := o.trk
	o.trk = saved.clone()
	o.trk.apply(o.f, nd.thread, n, &nd.lab, o.f.ops[n])
	if o.next(st, i, n, nil) {
		return true
	}
	o.trk = saved
	if partner >= 0 {
		o.pos[partner]--
	}
	o.evNode = o.evNode[:len(o.evNode)-1]
	return false
}

// next records step n of thread i as run and searches on; it undoes the
// record if the search fails.
func (o *orderer) next(st *model.State, i int, n int32, _ any) bool {
	o.pos[i]++
	o.order = append(o.order, n)
	if o.search(st) {
		return true
	}
	o.order = o.order[:len(o.order)-1]
	o.pos[i]--
	return false
}

// ghost is a thread the scenario forks and does not run: it waits at its
// first step, op (if an execution showed it), once thread parent ran
// startAt steps.
type ghost struct {
	parent, startAt int
	op              trace.Op
}

// nextOp returns the operation of the step thread th took after node n
// (its last node, or the fork that started it) in an execution, past its
// local actions; false if no execution showed one.
func (f *forest) nextOp(n int32, th trace.ThreadID) (trace.Op, bool) {
	if op, ok := f.waits[[2]int32{n, int32(th)}]; ok {
		return op, true
	}
	for _, k := range f.next(n, th) {
		if f.nodes[k].lab.kind.event() {
			if op, ok := f.ops[k]; ok {
				return op, true
			}
		}
	}
	for _, k := range f.next(n, th) {
		if !f.nodes[k].lab.kind.event() {
			if op, ok := f.nextOp(k, th); ok {
				return op, true
			}
		}
	}
	return trace.Op{}, false
}
