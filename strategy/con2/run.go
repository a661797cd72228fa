// This file implements the execution of a scenario: its prefix in the
// solved order, then its target thread alone, stopped at an interference
// the scenario did not foresee (Farzan et al. 2013, §7.1, §7.3).

package con2

import (
	"github.com/weft-go/weft/model"
	"github.com/weft-go/weft/solver"
	"github.com/weft-go/weft/strategy"
	"github.com/weft-go/weft/trace"
)

// run is the execution under way.
type run struct {
	c      *isc    // nil for the first execution (thread 0 alone)
	plan   []int32 // the steps of the prefix, in the solved order
	pos    int
	target trace.ThreadID // stable
	// expect holds the scenario's path of each of its threads.
	expect map[trace.ThreadID][]int32
	inputs solver.Model
	// begun says the builder follows this execution; checked counts the
	// nodes of it checked against the scenario.
	begun    bool
	checked  int
	diverged bool
	// blocked says the thread of node awaitAt, the last read of an await
	// in the prefix, was blocked there: its condition did not hold with
	// the values it read (busy.go, learnAwait).
	blocked bool
	awaitAt int32
	// unforeseen is the read at which the execution stopped, as a node
	// that reads locally (§7.3).
	unforeseen struct {
		ok  bool
		key key
	}
}

// begin starts building the execution of tr on the first call for it.
func (s *Strategy) begin(tr *trace.Trace) {
	if s.run.begun {
		return
	}
	s.run.begun = true
	s.b.reset(s.f, &s.names, tr)
}

// choose implements Choose.
func (s *Strategy) choose(st *strategy.State) strategy.Choice {
	r := &s.run
	s.begin(st.Trace)
	s.b.advance()
	if s.b.err != nil {
		s.err = s.b.err
		return strategy.Cut
	}
	if !s.check() {
		return strategy.Cut
	}
	if r.pos < len(r.plan) {
		n := r.plan[r.pos]
		nd := &s.f.nodes[n]
		p := s.names.Current(nd.thread)
		if p == trace.NoThread || !st.Enabled(p) || !s.matches(st, p, &nd.lab) {
			if p != trace.NoThread && nd.lab.op == trace.KindAwait && s.matches(st, p, &nd.lab) {
				r.blocked, r.awaitAt = true, n
			}
			s.diverge()
			return strategy.Cut
		}
		r.pos++
		return strategy.Choice{Thread: p, Alt: s.alt(st, p, nd)}
	}
	p := s.names.Current(r.target)
	if p == trace.NoThread || !st.Enabled(p) {
		return strategy.Cut // the target blocks, or has finished
	}
	op := st.Threads[p].Op
	if modelled(op) && s.unforeseenSync(st, p, op) {
		s.stats.Unforeseen++
		return strategy.Cut
	}
	if op.Class == trace.ClassVar {
		if k, stop, read := s.unforeseen(st, p, op); stop {
			s.stats.Unforeseen++
			r.unforeseen.ok, r.unforeseen.key = read, k
			return strategy.Cut
		}
	}
	if k, stop := s.unforeseenWait(st.Trace, p, op); stop {
		s.stats.Unforeseen++
		r.unforeseen.ok, r.unforeseen.key = true, k
		return strategy.Cut
	}
	return strategy.Choice{Thread: p}
}

// matches reports whether thread p's pending operation is the step of
// the label.
func (s *Strategy) matches(st *strategy.State, p trace.ThreadID, l *label) bool {
	op := st.Threads[p].Op
	if op.Kind != l.op {
		return false
	}
	if op.Kind == trace.KindJoin {
		return uint64(s.names.Stable(trace.ThreadID(op.Arg))) == l.obj
	}
	if op.Kind == trace.KindAwait || op.Class == trace.ClassClock {
		return true // the variables an await reads, and the clock, are the node's
	}
	if op.Kind == trace.KindSelect {
		return caseKey(st.Trace, op, l.cas) == l.obj
	}
	return op.Obj >= 0 && int(op.Obj) < len(st.Trace.Objects) && st.Trace.Objects[op.Obj].Key == l.obj
}

// unforeseen reports whether thread p's pending access op would read a
// write other than its local one (an interference the scenario did not
// foresee: stop), and if so, for a read, returns the key of the read
// without it (read), which the next ISC tries to realize (§7.3). A
// read-modify-write is stopped there too, with no key: its write's value
// is not known before it runs.
func (s *Strategy) unforeseen(st *strategy.State, p trace.ThreadID, op trace.Op) (k key, stop, read bool) {
	switch op.Kind {
	case trace.KindLoad:
		read = true
	case trace.KindSwap, trace.KindAdd, trace.KindCAS:
	default:
		return key{}, false, false
	}
	obj := st.Trace.Objects[op.Obj].Key
	w, ok := s.b.lastWrite[obj]
	if !ok {
		w = none
	}
	up := s.b.last[p]
	if w == s.f.locW(up, obj) {
		return key{}, false, false
	}
	if !read {
		return key{}, true, false // stopped, with nothing to try instead
	}
	return key{thread: s.names.Stable(p), up: up, src: none, lab: label{kind: kRead, op: op.Kind, obj: obj}}, true, true
}

// check compares the nodes the execution made since the last check with
// the scenario's: a node where the scenario has another at its place
// means the execution diverged (the scenario is realizable by the
// constraints con2 sees, but the program decided otherwise: data or
// branches outside the symbolic trace). It reports whether the execution
// still follows the scenario.
func (s *Strategy) check() bool {
	r := &s.run
	if r.diverged {
		return false
	}
	for ; r.checked < len(s.b.made); r.checked++ {
		n := s.b.made[r.checked]
		nd := &s.f.nodes[n]
		if c, ok := r.expect[nd.thread]; ok && int(nd.depth) < len(c) && c[nd.depth] != n {
			s.diverge()
			return false
		}
	}
	return true
}

// diverge records that the execution left its scenario.
func (s *Strategy) diverge() {
	if !s.run.diverged {
		s.run.diverged = true
		s.stats.Diverged++
	}
}

// alt returns the alternative of thread p's pending operation that runs
// the step of node nd: its select case and, for a receive that meets a
// sender on an unbuffered channel, the sender the node's source says; 0
// if the state does not describe its alternatives.
func (s *Strategy) alt(st *strategy.State, p trace.ThreadID, nd *node) int32 {
	if nd.lab.kind != kSync || st.Alternatives == nil || st.Threads[p].Alts <= 1 {
		return 0
	}
	partner, pcase := trace.NoThread, int32(-1)
	if nd.src != none && s.f.nodes[nd.src].lab.rdv {
		partner, pcase = s.names.Current(s.f.nodes[nd.src].thread), s.f.nodes[nd.src].lab.cas
	}
	for a := range st.Threads[p].Alts {
		x := st.Alternatives.Alternative(p, a)
		if x.Case == nd.lab.cas && x.Partner == partner && (partner == trace.NoThread || x.PartnerCase == pcase) {
			return a
		}
	}
	return 0
}

// unforeseenSync reports whether thread p's pending step op, of another
// primitive, would synchronise with another thread's step (an
// interference the scenario did not foresee, §7.3): the runtime's first
// alternative meets a sender, or the step's source, in the state of the
// primitives so far, is another thread's. The step is then tried without
// it, and with each source, from the pending node the execution's end
// leaves (alternatives.go).
func (s *Strategy) unforeseenSync(st *strategy.State, p trace.ThreadID, op trace.Op) bool {
	b := &s.b
	tr := st.Trace
	a := model.Single
	if st.Alternatives != nil && st.Threads[p].Alts > 0 {
		x := st.Alternatives.Alternative(p, 0)
		a = model.Alt{Case: x.Case, Partner: x.Partner, PartnerCase: x.PartnerCase}
	}
	if a.Partner != trace.NoThread {
		return true
	}
	b.ms.Grow(tr.Objects, len(tr.Threads))
	b.ms.Threads[p].Op = op
	out := b.ms.Outcome(p, op, a)
	l := label{kind: kSync, op: op.Kind, obj: caseKey(tr, op, a.Case), cas: a.Case, ok: out.OK}
	w, ok := b.trk.source(b.f, b.stable(p), &l, b.f.numOp(tr, op, b.names))
	if !ok {
		w = none
		if out.Source >= 0 && int(out.Source) < len(b.steps) {
			w = b.steps[out.Source]
		}
	}
	return w != none && b.f.nodes[w].thread != b.stable(p) && !b.f.before(w, b.last[p])
}
