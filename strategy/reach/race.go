// This file computes race sets (Lei and Carver 2006, §5.2, Proposition 2): the other
// outcomes a receiving event could have had in an execution that replays
// what happened before it and before the calls that race for it.

package reach

import (
	"slices"

	"github.com/weft-go/weft/model"
	"github.com/weft-go/weft/trace"
)

// outcome is what a receiving event synchronised with: its executor's call
// (with the case a select took, -1 for its default) and, for a rendezvous,
// its partner's (Lei and Carver 2006's sending partner; a step that completes two
// calls has two).
type outcome struct {
	exec, par side
}

// outcomeOf returns the outcome of step i.
func (a *analysis) outcomeOf(i int) outcome { return outcome{a.exec[i], a.par[i]} }

// racer computes race sets; it keeps scratch memory across calls.
type racer struct {
	a  *analysis
	gs *groups
	m  model.State
	k  vc
	// foot[o] lists the groups channel or object o has refs in (a
	// buffered channel's two halves may be in two groups); the last slot,
	// one past the objects, is the clock's (time at any step).
	foot [][2]int32
	// onObj[o] lists the steps that touch object o, in order; the last
	// slot, the operations on time at any step (trace.ClassClock).
	onObj [][]int32
	// clock is the group of the clock (clockRef), or -1.
	clock    int32
	buf      []int32
	defaults []side
}

// reset prepares r for the races of analysis a.
func (r *racer) reset(a *analysis, gs *groups) {
	r.a, r.gs = a, gs
	objs := a.tr.Objects
	// One slot more, the last, for the clock (trace.TimeObject).
	clock := len(objs)
	if cap(r.foot) < clock+1 {
		r.foot = make([][2]int32, clock+1)
		r.onObj = make([][]int32, clock+1)
	}
	r.foot, r.onObj = r.foot[:clock+1], r.onObj[:clock+1]
	r.foot[clock] = [2]int32{-1, -1}
	r.onObj[clock] = r.onObj[clock][:0]
	r.clock = -1
	if gs.known(clockRef) {
		r.clock = gs.of(clockRef)
		r.foot[clock][0] = r.clock
	}
	for o := range objs {
		r.foot[o] = [2]int32{-1, -1}
		r.onObj[o] = r.onObj[o][:0]
		info := &objs[o]
		switch {
		case info.Class == trace.ClassChan && info.Cap > 0:
			if gs.known(ref{info.Key, input}) {
				r.foot[o][0] = gs.of(ref{info.Key, input})
			}
			if gs.known(ref{info.Key, output}) {
				r.foot[o][1] = gs.of(ref{info.Key, output})
			}
		default:
			if gs.known(ref{info.Key, whole}) {
				r.foot[o][0] = gs.of(ref{info.Key, whole})
			}
		}
	}
	for i := range a.tr.Events {
		x, y := model.Touched(&a.tr.Events[i])
		if x >= 0 {
			r.onObj[x] = append(r.onObj[x], int32(i))
		}
		if y >= 0 && y != x {
			r.onObj[y] = append(r.onObj[y], int32(i))
		}
		if a.tr.Events[i].Op.Class == trace.ClassClock {
			r.onObj[clock] = append(r.onObj[clock], int32(i))
		}
	}
	if cap(r.k) < a.n {
		r.k = make(vc, a.n)
	}
	r.k = r.k[:a.n]
}

// callGroup returns the group of thread t's call k, or -1.
func (r *racer) callGroup(t, k int32) int32 {
	ref, ok := callRef(r.a.callOp(t, k), r.a.tr.Objects)
	if !ok {
		return -1
	}
	return r.gs.of(ref)
}

// raceSet appends to dst the race set of step i, a receiving event: the
// outcomes other than its own that its position could have had. A call c
// of another thread takes part if (Proposition 2) it is open at the
// event (an alternative of the model in the state below), the event did
// not happen before it, and it completed later on the same object or
// never; each thread has at most one such call (its last one the event
// did not happen before), so every outcome is found in one state: the
// one reached by what happened before the event and before those calls.
// A select's default is an outcome without a sending partner: it is
// possible if no case is ready once what happened before the event's
// control structure and before the select is replayed (what happened
// before the other calls would only make cases ready).
func (r *racer) raceSet(i int, dst []outcome) []outcome {
	a := r.a
	g := a.grp[i]
	if g < 0 {
		return dst
	}
	x := a.exec[i]
	k := r.k
	copy(k, a.tsOf(i))
	k[x.t] = uint32(x.k)
	if p := a.par[i]; p.t >= 0 {
		k[p.t] = uint32(p.k)
	}
	// A send in place of a close needs room in the buffer: the receive
	// that made it in this run, if the event did not happen before it.
	if j := a.slot[i]; j >= 0 && !a.before(int32(i), a.tsOf(int(j))) {
		k.join(a.tsOf(int(j)))
	}
	// The calls of the other threads that race for the event.
	defaults := r.defaults[:0]
	for _, c := range [2]side{x, a.par[i]} {
		if c.t >= 0 && model.NonBlocking(a.callOp(c.t, c.k)) {
			defaults = append(defaults, side{c.t, c.k, -1})
		}
	}
	for u := range int32(a.n) {
		if u == x.t || u == a.par[i].t {
			continue
		}
		kc, ok := r.candidate(i, u)
		if !ok || r.callGroup(u, kc) != g {
			continue
		}
		k.join(a.callClock(u, kc))
		if model.NonBlocking(a.callOp(u, kc)) {
			defaults = append(defaults, side{u, kc, -1})
		}
	}
	r.defaults = defaults
	return r.alternatives(g, k, a.csOf(i), a.outcomeOf(i), dst)
}

// raceSetUnfilled appends to dst the race set of a receiving event of the
// variant that the run did not fill (an unmatched one, or one the run
// did not reach): a position of group g, after the step whose timestamp
// is cs (zero if none), needing what pre knows (cs, and the send whose
// value a receive there would take), other than own. The calls that race
// for it are those still pending at the end: nothing happened after it.
func (r *racer) raceSetUnfilled(g int32, pre, cs vc, own outcome, dst []outcome) []outcome {
	a := r.a
	k := r.k
	copy(k, pre)
	defaults := r.defaults[:0]
	for u := range int32(a.n) {
		kc := a.calls(u) - 1
		if kc < int32(len(a.steps[u])) || r.callGroup(u, kc) != g {
			continue // no pending call, or one on another object
		}
		k.join(a.callClock(u, kc))
		if model.NonBlocking(a.callOp(u, kc)) {
			defaults = append(defaults, side{u, kc, -1})
		}
	}
	r.defaults = defaults
	return r.alternatives(g, k, cs, own, dst)
}

// alternatives appends to dst the outcomes other than own that a position
// of group g could have: the alternatives, on g, of the state clock k
// knows (Proposition 2), and the defaults of r.defaults, each possible if
// no case of its select is ready once what clock cs knows and the
// select's past are replayed.
func (r *racer) alternatives(g int32, k, cs vc, own outcome, dst []outcome) []outcome {
	a := r.a
	r.simulate(g, k)
	for t := range int32(a.n) {
		op := r.m.Threads[t].Op
		if op.Kind == trace.KindNone || r.callGroup(t, int32(k[t])) != g {
			continue
		}
		r.m.Alternatives(trace.ThreadID(t), op, func(alt model.Alt) bool {
			if alt.Case < 0 && op.Kind == trace.KindSelect {
				return true // defaults below
			}
			o := outcome{exec: side{t, int32(k[t]), alt.Case}, par: noSide}
			if alt.Partner != trace.NoThread {
				o.par = side{int32(alt.Partner), int32(k[alt.Partner]), alt.PartnerCase}
			}
			if o != own {
				dst = append(dst, o)
			}
			return true
		})
	}
	for _, d := range r.defaults {
		o := outcome{exec: d, par: noSide}
		if o == own {
			continue
		}
		copy(k, cs)
		k.join(a.callClock(d.t, d.k))
		r.simulate(g, k)
		op := r.m.Threads[d.t].Op
		found := false
		r.m.Alternatives(trace.ThreadID(d.t), op, func(alt model.Alt) bool {
			found = found || alt.Case < 0
			return true
		})
		if found {
			dst = append(dst, o)
		}
	}
	return dst
}

// candidate returns the call of thread u that may race for step i: u's
// last call that i did not happen before, if the step that completed it
// came after i (ok false if u has none, or it completed before i or
// apart from it).
func (r *racer) candidate(i int, u int32) (int32, bool) {
	a := r.a
	n := a.calls(u)
	if n == 0 || a.before(int32(i), a.callClock(u, 0)) {
		return 0, false
	}
	// The calls i happened before are a suffix: find its start.
	lo, hi := int32(1), n // call lo-1 is not after i; calls >= hi are
	for lo < hi {
		m := (lo + hi) / 2
		if a.before(int32(i), a.callClock(u, m)) {
			hi = m
		} else {
			lo = m + 1
		}
	}
	kc := lo - 1
	if j := a.completion(u, kc); j >= 0 && !a.before(int32(i), a.tsOf(int(j))) {
		return 0, false
	}
	return kc, true
}

// simulate sets r.m to the state reached by the steps clock k knows,
// restricted to the objects of group g (what the enabledness and the
// alternatives of an operation on g depend on), with every thread's
// pending operation its next call after the steps k knows of it.
func (r *racer) simulate(g int32, k vc) {
	a := r.a
	r.m.Reset(a.tr.Objects, a.n)
	// Time at any step: every move of time is an advance of the clock,
	// an event of the clock's group, so a state of that group reached by
	// what happened before knows the time (from 0, before any advance).
	r.m.Timed = g >= 0 && g == r.clock
	steps := r.buf[:0]
	for o := range r.foot {
		if r.foot[o][0] == g || r.foot[o][1] == g {
			for _, j := range r.onObj[o] {
				if a.before(j, k) {
					steps = append(steps, j)
				}
			}
		}
	}
	slices.Sort(steps)
	prev := int32(-1)
	for _, j := range steps {
		if j != prev {
			r.m.Apply(&a.tr.Events[j])
		}
		prev = j
	}
	r.buf = steps
	for t := range int32(a.n) {
		r.m.Threads[t].Op = trace.Op{}
		if s := a.tr.Threads[t].Step; s >= 0 && !a.before(s, k) {
			continue // not started
		}
		if c := int32(k[t]); c < a.calls(t) {
			r.m.Threads[t].Op = a.callOp(t, c)
		}
	}
}
