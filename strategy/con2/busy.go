// This file builds the nodes of busy waits (w.Await, and the loops of
// w.Yield, whose turns the runtime turns into awaits) and of virtual time
// that moves at any step (trace.ClassClock), both as reads of shared
// variables (doc.go, "Busy waits" and "Time at any step").

package con2

import (
	"math"
	"slices"

	"github.com/weft-go/weft/solver"
	"github.com/weft-go/weft/trace"
)

// clockKey is the key of the clock, a shared variable of its own when time
// moves at any step: the clock thread's advances write it; a read of the
// time, a Sleep's wake-up, a timer's Stop or Reset read it. noVarKey is
// the variable of an await whose condition loaded none. Objects' keys are
// small numbers or numbers from 1<<63 up, counted: neither reaches these.
const (
	clockKey = math.MaxUint64
	noVarKey = math.MaxUint64 - 1
)

// clockRead reports whether op, an operation on time that moves at any
// step (trace.ClassClock), reads the clock; the advance writes it.
func clockRead(op trace.Op) bool {
	return op.Class == trace.ClassClock && op.Kind != trace.KindAdvance
}

// clock adds the node of step s, an operation on time that moves at any
// step: a write of the clock (the advance) or a read, interfered when the
// last write before it is not the one its thread reads locally, as a
// read of a variable.
func (b *builder) clock(s int) {
	ev := &b.tr.Events[s]
	p := ev.Thread
	l := label{kind: kWrite, op: ev.Op.Kind, obj: clockKey}
	if ev.Op.Kind == trace.KindAdvance {
		l.val = int64(ev.Value) // where it moves the clock
	}
	src := none
	if clockRead(ev.Op) {
		l.kind = kRead
		src = b.interferer(p, clockKey)
	}
	n := b.step(s, b.add(p, l, src))
	if l.kind == kWrite {
		b.lastWrite[clockKey] = n
		for _, c := range ev.Op.Cases {
			if c.Obj >= 0 && int(c.Obj) < len(b.tr.Objects) {
				b.due[b.tr.Objects[c.Obj].Key] = n
			}
		}
		if !slices.Contains(b.f.advances, n) {
			b.f.advances = append(b.f.advances, n)
		}
	}
}

// dueBy returns the source of the send of a timer's thread on its
// channel, op: the advance of the clock that made the timer due, which
// the send observes (time at any step; none when time moves only when
// every thread is blocked, or for another send).
func (b *builder) dueBy(op trace.Op) int32 {
	if op.Kind != trace.KindSend || op.Obj < 0 || int(op.Obj) >= len(b.tr.Objects) || b.tr.Objects[op.Obj].Class != trace.ClassTimer {
		return none
	}
	if a, ok := b.due[b.tr.Objects[op.Obj].Key]; ok {
		return a
	}
	return none
}

// dueSends interns, for the pending send of a timer's thread (stable th)
// on its channel after node up, with label l, the sends that observe each
// advance of the clock known to make the timer due, and lists them among
// the steps on the channel (sync.go, addSync): sources for a receive.
func (f *forest) dueSends(th trace.ThreadID, up int32, l label, op trace.Op) {
	if op.Obj < 0 || int(op.Obj) >= len(f.objs) || f.objs[op.Obj].Class != trace.ClassTimer {
		return
	}
	for _, a := range f.advances {
		if !slices.ContainsFunc(f.ops[a].Cases, func(c trace.Case) bool { return c.Obj >= 0 && int(c.Obj) < len(f.keys) && f.keys[c.Obj] == l.obj }) {
			continue
		}
		n, _ := f.intern(key{thread: th, up: up, src: a, lab: l})
		if !f.compatible(a, th, f.nodes[n].depth) {
			continue
		}
		f.ops[n] = op
		f.addSync(n)
	}
}

// interferer returns the write a read of variable obj by thread p reads
// now if it is not the one p reads locally (an interference), else none.
func (b *builder) interferer(p trace.ThreadID, obj uint64) int32 {
	w, ok := b.lastWrite[obj]
	if !ok {
		w = none
	}
	if w == b.f.locW(b.last[p], obj) {
		return none
	}
	return w
}

// awaitVars returns the keys of the variables await op waits on (its
// KindLoad cases), or noVarKey alone for one that waits on none.
func awaitVars(tr *trace.Trace, op trace.Op) []uint64 {
	var out []uint64
	for _, c := range op.Cases {
		if c.Obj >= 0 && int(c.Obj) < len(tr.Objects) {
			out = append(out, tr.Objects[c.Obj].Key)
		}
	}
	if len(out) == 0 {
		out = append(out, noVarKey)
	}
	return out
}

// awaitLabel returns the label of the read of variable obj by an await,
// the i-th of its n.
func awaitLabel(obj uint64, i, n int) label {
	return label{kind: kRead, op: trace.KindAwait, obj: obj, part: i < n-1}
}

// await adds the nodes of step s, a w.Await whose condition held: a read
// of each variable it waits on, each interfered by the write it reads if
// that is not its thread's local one. The condition is Go code: the
// nodes do not hold it (see doc.go).
func (b *builder) await(s int) {
	ev := &b.tr.Events[s]
	p := ev.Thread
	vars := awaitVars(b.tr, ev.Op)
	for i, obj := range vars {
		n := b.add(p, awaitLabel(obj, i, len(vars)), b.interferer(p, obj))
		b.f.setOp(n, b.tr, ev.Op, b.names)
		if i == len(vars)-1 {
			b.step(s, n)
		}
	}
}

// awaitChain interns the nodes of an await of thread th (stable) after
// node up that reads variables vars, each locally, and returns them.
func (f *forest) awaitChain(th trace.ThreadID, up int32, vars []uint64, op trace.Op) []int32 {
	out := make([]int32, len(vars))
	for i, obj := range vars {
		n, _ := f.intern(key{thread: th, up: up, src: none, lab: awaitLabel(obj, i, len(vars))})
		if _, ok := f.ops[n]; !ok {
			f.ops[n] = op
		}
		out[i], up = n, n
	}
	return out
}

// awaitParts returns the reads of the await whose last read is node n
// before n (label.part), last first.
func (f *forest) awaitParts(n int32) []int32 {
	var out []int32
	th := f.nodes[n].thread
	for m := f.nodes[n].up; m != none && f.nodes[m].thread == th && f.nodes[m].lab.part; m = f.nodes[m].up {
		out = append(out, m)
	}
	return out
}

// stepOf returns the node whose step runs node n: the last read of its
// await for a read before it (label.part), else n.
func (f *forest) stepOf(n int32, chain []int32) int32 {
	if !f.nodes[n].lab.part {
		return n
	}
	d := f.nodes[n].depth
	for _, m := range chain {
		if f.nodes[m].depth > d && !f.nodes[m].lab.part {
			return m
		}
	}
	return n
}

// blocked records the scenario that ends at node sink of thread th (stable)
// and finds th blocked: at an await whose condition does not hold, the
// turn of a busy-wait loop (w.Yield) that failed, or a Sleep whose
// deadline has not come. The runtime cannot realize it as it stands: like
// an unrealizable ISC (UN), it is extended by an interference on the
// reads of guide (Alg. 3), from the writes known now and from those later
// executions observe (Alg. 1 lines 21-23), once per sink.
func (s *Strategy) blocked(sink int32, th trace.ThreadID, guide []int32) {
	if len(guide) == 0 || s.blockedAt[sink] {
		return
	}
	s.blockedAt[sink] = true
	s.stats.Blocked++
	c := &isc{kind: iscRead, sink: sink, target: th, tips: []int32{sink}, degree: s.f.degree(sink), guide: map[int32]bool{}}
	for _, r := range guide {
		c.guide[r] = true
	}
	c.makeKey()
	s.un = append(s.un, c)
	for _, d := range s.explore(c, s.f.writes, c.guide) {
		s.queue(d)
	}
}

// pendingWait handles thread p of execution tr, left at a busy wait or a
// Sleep (op) when the execution ended: the scenario that leaves it there
// is blocked (blocked), and an await that may hold with what its thread
// reads locally is tried too (a thread but the target stops wherever the
// scenario ends). It reports whether op is such a wait.
func (s *Strategy) pendingWait(tr *trace.Trace, p int, op trace.Op) bool {
	f, b := s.f, &s.b
	th := b.stable(trace.ThreadID(p))
	switch {
	case op.Kind == trace.KindAwait && op.Arg == trace.AwaitYield:
		// The failed turn's loads are the thread's last reads of the
		// variables it waits on.
		vars := awaitVars(tr, op)
		var guide []int32
		for n := b.own(trace.ThreadID(p)); n != none && f.nodes[n].thread == th; n = f.nodes[n].up {
			l := &f.nodes[n].lab
			if l.kind != kRead && l.kind != kBranch {
				break
			}
			if l.kind == kRead && l.op != trace.KindAwait && containsKey(vars, l.obj) && !guideHas(f, guide, l.obj) {
				guide = append(guide, n)
			}
		}
		if n := b.own(trace.ThreadID(p)); n != none {
			s.blocked(n, th, guide)
			if s.learnLemma(tr, trace.ThreadID(p), guide, s.turnValues(guide)) {
				for _, c := range s.complete(&isc{kind: iscRead, sink: n, target: th, tips: []int32{n}}) {
					s.requeue(c)
				}
			}
		}
		return true
	case op.Kind == trace.KindAwait:
		chain := f.awaitChain(th, b.last[p], awaitVars(tr, op), f.numOp(tr, op, b.names))
		sink := chain[len(chain)-1]
		switch {
		case s.learnLemma(tr, trace.ThreadID(p), chain, nil):
			// Blocked with the values it read: tried again without them.
			for _, c := range s.complete(&isc{kind: iscRead, sink: sink, target: th, tips: []int32{sink}}) {
				s.requeue(c)
			}
		case th != s.run.target && !failedEval(tr, trace.ThreadID(p)):
			// Not known to be blocked: the scenario stopped the thread.
			s.add(&isc{kind: iscRead, sink: sink, target: th, tips: []int32{sink}})
		}
		s.blocked(sink, th, chain)
		return true
	case op.Kind == trace.KindSleep && op.Class == trace.ClassClock:
		n, _ := f.intern(key{thread: th, up: b.last[p], src: none, lab: label{kind: kRead, op: op.Kind, obj: clockKey}})
		f.setOp(n, tr, op, b.names)
		s.blocked(n, th, []int32{n})
		return true
	}
	return false
}

// failedEval reports whether the last evaluation of an await's condition
// by thread p in tr did not hold: p is blocked at its await.
func failedEval(tr *trace.Trace, p trace.ThreadID) bool {
	for i := len(tr.Evals) - 1; i >= 0; i-- {
		if tr.Evals[i].Thread == p {
			return !tr.Evals[i].OK
		}
	}
	return false
}

// turnValues returns the values the reads of nodes took in the execution
// just built (the loads of a failed turn of a loop of w.Yield).
func (s *Strategy) turnValues(nodes []int32) []uint64 {
	vals := make([]uint64, len(nodes))
	for i, n := range nodes {
		if j := slices.Index(s.b.steps, n); j >= 0 {
			vals[i] = s.b.tr.Events[j].Value
		}
	}
	return vals
}

// containsKey reports whether keys holds k.
func containsKey(keys []uint64, k uint64) bool {
	for _, x := range keys {
		if x == k {
			return true
		}
	}
	return false
}

// guideHas reports whether the reads of guide hold one of variable obj.
func guideHas(f *forest, guide []int32, obj uint64) bool {
	for _, r := range guide {
		if f.nodes[r].lab.obj == obj {
			return true
		}
	}
	return false
}

// unforeseenWait reports whether thread p's pending operation op, a
// w.Await or a read of the clock, would read a write of another thread
// (§7.3), and returns the key of the step reading locally instead: for
// an await, the last of its reads, each local.
func (s *Strategy) unforeseenWait(st *trace.Trace, p trace.ThreadID, op trace.Op) (key, bool) {
	b := &s.b
	th := b.stable(p)
	if op.Kind == trace.KindAwait {
		if op.Arg == trace.AwaitYield {
			return key{}, false
		}
		vars := awaitVars(st, op)
		interfered := false
		up := b.last[p]
		for _, obj := range vars {
			if w, ok := b.lastWrite[obj]; ok && w != b.f.locW(up, obj) {
				interfered = true
			}
		}
		if !interfered {
			return key{}, false
		}
		chain := s.f.awaitChain(th, up, vars, s.f.numOp(st, op, b.names))
		return s.f.nodes[chain[len(chain)-1]].key, true
	}
	if !clockRead(op) || b.interferer(p, clockKey) == none {
		return key{}, false
	}
	return key{thread: th, up: b.last[p], src: none, lab: label{kind: kRead, op: op.Kind, obj: clockKey}}, true
}

// maxLemmas bounds the lemmas learnt on one await (or turn of a loop of
// w.Yield): the times its scenarios are run again with other values.
const maxLemmas = 8

// learnAwait learns from execution tr, whose scenario's await (the last
// read run.awaitAt) blocked (learnLemma), and runs the scenario again
// with the values the solver gives now.
func (s *Strategy) learnAwait(tr *trace.Trace) {
	n := s.run.awaitAt
	p := s.names.Current(s.f.nodes[n].thread)
	if s.learnLemma(tr, p, append(s.f.awaitParts(n), n), nil) && s.run.c != nil {
		s.requeue(s.run.c)
	}
}

// learnLemma learns from execution tr, in which thread p (its number in
// tr) was left blocked at a busy wait whose reads are the nodes reads:
// the await's, its condition evaluated last with the values of its last
// evaluation (trace.Trace.Evals), or, if vals is not nil, the loads of a
// failed turn of a loop of w.Yield, which read vals. A w.Await's
// condition may only load variables: given the values it loads it holds
// or not, whatever else the execution did (and a turn of a loop decides
// by what it loaded likewise, as long as the loop's test is on those
// values). Those values are excluded, as a lemma ¬(r1 = v1 ∧ ...) over
// the symbols of the reads of variables whose values carry expressions
// (the scenario fixes the others), from every scenario with the reads:
// the lemma is the last read's, which has the others in its causal past.
// It reports whether it learnt a lemma, at most maxLemmas per read.
func (s *Strategy) learnLemma(tr *trace.Trace, p trace.ThreadID, reads []int32, vals []uint64) bool {
	f := s.f
	if vals == nil {
		var ev *trace.AwaitEval
		for i := len(tr.Evals) - 1; i >= 0; i-- {
			if tr.Evals[i].Thread == p {
				ev = &tr.Evals[i]
				break
			}
		}
		if ev == nil || ev.OK {
			return false
		}
		vals = make([]uint64, len(reads))
		seen := make([]bool, len(reads))
		for _, rd := range ev.Reads {
			if rd.Obj < 0 || int(rd.Obj) >= len(tr.Objects) {
				continue
			}
			obj := tr.Objects[rd.Obj].Key
			if i := slices.IndexFunc(reads, func(r int32) bool { return f.nodes[r].lab.obj == obj }); i >= 0 {
				vals[i], seen[i] = rd.Value, true
			}
		}
		var rs []int32
		var vs []uint64
		for i := range reads {
			if seen[i] {
				rs, vs = append(rs, reads[i]), append(vs, vals[i])
			}
		}
		reads, vals = rs, vs
	}
	var conj solver.Expr
	last := none
	for i, r := range reads {
		nd := &f.nodes[r]
		if last == none || nd.depth > f.nodes[last].depth {
			last = r
		}
		w, ok := f.widths[nd.lab.obj]
		if !ok || w < 0 {
			continue // a variable whose values carry no expression: the scenario fixes it
		}
		sym := symbol(nd.thread, nd.depth, w)
		eq := solver.Eq(sym, solver.Const(vals[i], w))
		if w == 0 {
			eq = sym
			if vals[i] == 0 {
				eq = solver.Not(sym)
			}
		}
		if conj.IsValid() {
			conj = solver.And(conj, eq)
		} else {
			conj = eq
		}
	}
	if !conj.IsValid() || len(f.lemmas[last]) >= maxLemmas {
		return false
	}
	lemma := solver.Not(conj)
	if slices.Contains(f.lemmas[last], lemma) {
		return false
	}
	f.lemmas[last] = append(f.lemmas[last], lemma)
	return true
}

// requeue queues ISC c again, its duplicate cache notwithstanding: a
// lemma changed what it solves to. Each lemma requeues a scenario once,
// and an await has at most maxLemmas.
func (s *Strategy) requeue(c *isc) {
	if c.degree > s.opts.K {
		return
	}
	s.seen[c.key] = true
	s.work.push(c)
}

// clockAlone queues, for execution tr that ended with weft's clock
// thread at a pending advance while a thread waited for time (at a
// Sleep's wake-up, or a receive or select on a timer's channel), the
// scenario of the execution's nodes in which the clock then runs alone:
// its advances to the deadlines armed by then, which the waits can then
// observe (time at any step); once for each advance it would make (its
// node is the same whatever the other threads did), and not if an
// execution made it.
func (s *Strategy) clockAlone(tr *trace.Trace) {
	b := &s.b
	clock, waits := -1, false
	for p, op := range tr.Final {
		switch {
		case op.Kind == trace.KindAdvance:
			clock = p
		case op.Kind == trace.KindSleep && op.Class == trace.ClassClock:
			waits = true
		case op.Kind == trace.KindRecv || op.Kind == trace.KindSelect:
			op.Accesses(func(o trace.ObjectID) bool {
				if o >= 0 && int(o) < len(tr.Objects) && tr.Objects[o].Class == trace.ClassTimer {
					waits = true
				}
				return !waits
			})
		}
	}
	if clock < 0 || !waits || clock >= len(b.last) || b.last[clock] == none || tr.Final[clock].Arg < 0 {
		return // (Arg -1: no deadline lies ahead)
	}
	th := b.stable(trace.ThreadID(clock))
	next := key{thread: th, up: b.last[clock], src: none, lab: label{kind: kWrite, op: trace.KindAdvance, obj: clockKey, val: tr.Final[clock].Arg}}
	if n, ok := s.f.index[next]; ok && s.f.nodes[n].observed || s.clockRuns[next] {
		return // an execution ran, or will run, the clock on from there
	}
	s.clockRuns[next] = true
	var tips []int32
	for q := range b.last {
		if n := b.last[q]; n != none && !slices.Contains(tips, n) {
			tips = append(tips, n)
		}
	}
	slices.Sort(tips)
	c := &isc{kind: iscStart, sink: b.last[clock], target: th, tips: tips}
	if n := b.own(trace.ThreadID(clock)); n != none {
		c.kind, c.sink = iscRead, n
	}
	s.add(c)
}
