// This file models w.Await: an event that reads its thread's copies of the
// variables its condition loaded, enabled where the values of those copies
// make the condition hold, as the evaluations the executions recorded
// show; markings where no evaluation says are reached by a probe test.

package unfold

import (
	"fmt"
	"slices"

	"github.com/weft-go/weft/trace"
)

// condAwait reports whether k is a w.Await (its condition evaluated by
// the runtime), not a busy-wait loop with w.Yield.
func condAwait(k opKey) bool { return k.kind == trace.KindAwait && k.arg != trace.AwaitYield }

// evalRead is a load of an evaluation: stable variable obj held val; or,
// sym, a copy whose last write, event val, wrote a value that depends on
// inputs (trace.Event.SymValue), whose concrete part differs between
// tests.
type evalRead struct {
	obj int32
	val uint64
	sym bool
}

// awaitEval is an evaluation of a w.Await's condition: its loads, in
// order, whether it held, and its path, the branches on inputs it took
// (awaitpath.go).
type awaitEval struct {
	reads []evalRead
	ok    bool
	path  int32
}

// awaitKnown is what the evaluations of the condition of the w.Await of a
// thread condition showed: the evaluations, each once, and the variables
// they loaded, in the order they were first met.
type awaitKnown struct {
	evals []awaitEval
	seen  map[string]bool
	vars  []int32
}

// varValue returns the value of copy condition c of a variable, and
// whether it is known: written by its last write, or the variable's
// initial value if an evaluation or a load showed it.
func (n *net) varValue(c int32) (uint64, bool) {
	if n.lastWrite(c) >= 0 {
		return uint64(n.conds[c].value), true
	}
	v, ok := n.initVals[n.places[n.conds[c].place].obj]
	return v, ok
}

// symWrite returns the last write of copy condition c, and whether it
// wrote a value that depends on inputs.
func (n *net) symWrite(c int32) (int32, bool) {
	w := n.lastWrite(c)
	return w, w >= 0 && n.events[w].symVal
}

// awaitMatches returns the evaluations of the condition of the w.Await of
// thread condition t that say what it does where its thread's copies of
// variables are the conditions cs: those whose loads read the values of
// those copies. A value that depends on inputs matches one that does
// too, of the same write if the evaluation branched on inputs (its path
// may depend on the write's expression), of any write if it did not (it
// did not look at it). Without inputs, one evaluation at most matches;
// with them, one per path of the condition taken there.
func (n *net) awaitMatches(t int32, cs []int32) []*awaitEval {
	kn := n.awaits[t]
	if kn == nil {
		return nil
	}
	var out []*awaitEval
next:
	for i := range kn.evals {
		ev := &kn.evals[i]
		for _, r := range ev.reads {
			c := copyOf(n, cs, r.obj)
			if c < 0 {
				continue next
			}
			w, sym := n.symWrite(c)
			switch {
			case sym != r.sym:
				continue next
			case sym:
				if ev.path != 0 && uint64(w) != r.val {
					continue next
				}
			default:
				if v, ok := n.varValue(c); !ok || v != r.val {
					continue next
				}
			}
		}
		out = append(out, ev)
	}
	return out
}

// copyOf returns the condition of cs of a copy of variable obj, or -1.
func copyOf(n *net, cs []int32, obj int32) int32 {
	for _, c := range cs {
		if n.places[n.conds[c].place].obj == obj {
			return c
		}
	}
	return -1
}

// loadsOf returns the copies of cs that evaluation ev loaded, sorted by
// variable: the preset of its event, after the thread condition.
func (n *net) loadsOf(ev *awaitEval, cs []int32) []int32 {
	var loads []int32
	for _, r := range ev.reads {
		if c := copyOf(n, cs, r.obj); !slices.Contains(loads, c) {
			loads = append(loads, c)
		}
	}
	slices.SortFunc(loads, func(a, b int32) int {
		return int(n.places[n.conds[a].place].obj) - int(n.places[n.conds[b].place].obj)
	})
	return loads
}

// condAwaitExts adds the extensions of the w.Await of thread condition t
// whose presets hold condition fixed of place fp (any, if fp is -1): every
// choice of one copy per variable its evaluations loaded, concurrent with
// t, whose values an evaluation says make the condition hold, gives the
// event that takes t and the copies that evaluation loaded, one per path
// of the evaluations that hold there; a choice no evaluation says
// anything of is probed (addProbe), and so are the paths of the
// condition there that no evaluation took yet (probePaths).
func (n *net) condAwaitExts(t, fp, fixed int32) {
	kn := n.awaits[t]
	if kn == nil || n.conds[t].state != pending {
		return
	}
	th := n.threadOf(t)
	ps := make([]int32, len(kn.vars))
	for i, o := range kn.vars {
		ps[i] = n.copies[[2]int32{o, th}]
	}
	if fp >= 0 && !slices.Contains(ps, fp) {
		return
	}
	pre := make([]int32, 1, 1+len(ps))
	pre[0] = t
	var try func(i int)
	try = func(i int) {
		if ok, fatal := n.co(pre...); !ok || fatal {
			return
		}
		if i == len(ps) {
			ms := n.awaitMatches(t, pre[1:])
			if len(ms) == 0 {
				n.addProbe(pre, 0)
				return
			}
			for _, ev := range ms {
				if ev.ok {
					n.extensionAlt(append([]int32{t}, n.loadsOf(ev, pre[1:])...), awaitAlt(ev.path))
				}
			}
			n.probePaths(pre, ms)
			return
		}
		cands := n.places[ps[i]].conds
		if ps[i] == fp {
			cands = []int32{fixed}
		}
		for _, c := range cands {
			pre = append(pre, c)
			try(i + 1)
			pre = pre[:len(pre)-1]
		}
	}
	try(0)
}

// addProbe adds pre, a thread condition of a w.Await and a choice of its
// thread's copies, as a probe with path prefix (0: none), unless it is
// one already: a test that runs its local configuration, where the
// runtime evaluates the condition.
func (n *net) addProbe(pre []int32, prefix int32) {
	k := fmt.Sprint(pre, prefix)
	if n.probed[k] {
		return
	}
	n.probed[k] = true
	n.probes = append(n.probes, probe{pre: slices.Clone(pre), prefix: prefix})
}

// awaitVars returns the variables (stable objects, sorted) of the loads of
// reads, as the cases of a w.Await's event.
func (n *net) awaitVars(reads []evalRead) int32 {
	var cs []selCase
	for _, r := range reads {
		if !slices.ContainsFunc(cs, func(c selCase) bool { return c.obj == r.obj }) {
			cs = append(cs, selCase{kind: trace.KindLoad, obj: r.obj})
		}
	}
	slices.SortFunc(cs, func(a, b selCase) int { return int(a.obj) - int(b.obj) })
	return n.internCases(cs)
}

// awaitForm returns the operation of the event of w.Await k whose preset
// is pre: k with the variables of pre's copies as its cases.
func (n *net) awaitForm(k opKey, pre []int32) opKey {
	rs := make([]evalRead, 0, len(pre)-1)
	for _, c := range pre[1:] {
		rs = append(rs, evalRead{obj: n.places[n.conds[c].place].obj})
	}
	k.obj = n.awaitVars(rs)
	return k
}

// learnEvals takes in the evaluations of w.Await conditions of tr made in
// the state after its first upto events, the current marking, that it has
// not taken in yet.
func (s *Strategy) learnEvals(tr *trace.Trace, upto int) {
	for ; s.evalSeen < len(tr.Evals) && int(tr.Evals[s.evalSeen].At) <= upto && s.err == nil; s.evalSeen++ {
		s.learnEval(tr, &tr.Evals[s.evalSeen])
	}
}

// learnEval takes in ev, an evaluation in the current marking: the values
// of the copies it loaded, the evaluation for the thread condition of its
// thread, and, if either is new, the extensions they give.
//
// In an execution that read inputs, a value the evaluation loaded is
// taken as the unfolding's value of its copy, the one its last write
// wrote in the execution that added it; a value that depends on inputs,
// whose concrete part differs between tests, is taken as its write
// (evalRead.sym): the condition's outcome depends on it only through the
// branches on inputs the evaluation records (trace.BranchEvent.InAwait),
// its path (awaitpath.go).
func (s *Strategy) learnEval(tr *trace.Trace, ev *trace.AwaitEval) {
	n := s.n
	inputs := len(tr.Inputs) > 0
	th := int32(s.tn.Stable(ev.Thread))
	tp, ok := n.threads[th]
	if !ok || int(tp) >= len(s.marking) || s.marking[tp] < 0 || !condAwait(n.conds[s.marking[tp]].op) {
		s.diverge(fmt.Errorf("thread %v evaluated the condition of a w.Await where the unfolding has no w.Await of it", ev.Thread))
		return
	}
	t := s.marking[tp]
	reads := make([]evalRead, len(ev.Reads))
	var newInit []int32
	for i, r := range ev.Reads {
		o := s.on.stable(r.Obj)
		reads[i] = evalRead{obj: o, val: r.Value}
		p := s.needVar(th, o)
		c := s.marking[p]
		if w, sym := n.symWrite(c); sym {
			reads[i] = evalRead{obj: o, val: uint64(w), sym: true}
		} else if inputs && w >= 0 {
			reads[i].val = uint64(n.conds[c].value)
		}
		if n.lastWrite(c) < 0 {
			if v, ok := n.initVals[o]; !ok {
				n.initVals[o] = r.Value
				newInit = append(newInit, o)
			} else if v != r.Value {
				s.diverge(fmt.Errorf("thread %v read %d as the initial value of a variable, an earlier execution %d", ev.Thread, r.Value, v))
				return
			}
		}
	}
	path := s.evalPath(tr, ev)
	s.lastEval[th] = awaitEval{reads: reads, ok: ev.OK, path: path}
	kn := n.awaits[t]
	if kn == nil {
		kn = &awaitKnown{seen: map[string]bool{}}
		n.awaits[t] = kn
	}
	key := fmt.Sprint(reads, ev.OK, path)
	fresh := !kn.seen[key]
	if fresh {
		kn.seen[key] = true
		kn.evals = append(kn.evals, awaitEval{reads: reads, ok: ev.OK, path: path})
		for _, r := range reads {
			if !slices.Contains(kn.vars, r.obj) {
				kn.vars = append(kn.vars, r.obj)
				ob := n.objects[r.obj]
				if !slices.Contains(ob.awaiters, t) {
					ob.awaiters = append(ob.awaiters, t)
				}
			}
		}
	}
	if n.observe {
		return
	}
	// A new initial value makes the copies that hold it match the
	// evaluations that read it: of this await too, whose evaluation may
	// be no new one (the same value, read from a write).
	redo := fresh
	for _, o := range newInit {
		for _, u := range n.objects[o].awaiters {
			if u == t {
				redo = true
			} else if condAwait(n.conds[u].op) {
				n.condAwaitExts(u, -1, -1)
			}
		}
	}
	if redo {
		n.condAwaitExts(t, -1, -1)
	}
}

// needVar makes stable thread th's copy of variable o if it has none, with
// its condition in the current marking, and returns its place.
func (s *Strategy) needVar(th, o int32) int32 {
	n := s.n
	made := n.need(th, opKey{kind: trace.KindLoad, class: trace.ClassVar, obj: o}, nil)
	for len(s.marking) < len(n.places) {
		s.marking = append(s.marking, -1)
	}
	for _, p := range made {
		s.marking[p] = n.places[p].init
		if ob := n.objects[o]; len(ob.copies) > 1 {
			s.marking[p] = n.sibling(p, s.marking[ob.copies[0]])
		}
	}
	return n.copies[[2]int32{o, th}]
}

// awaitBlocked reports whether the w.Await of thread condition t may be
// blocked where its thread's copies are those at gives: an evaluation
// with their values says its condition does not hold (for the inputs of
// its path: blockedConstraint).
func (n *net) awaitBlocked(t int32, at func(p int32) int32) bool {
	cs, ok := n.awaitCopies(t, at)
	if !ok {
		return false
	}
	return slices.ContainsFunc(n.awaitMatches(t, cs), func(ev *awaitEval) bool { return !ev.ok })
}

// awaitCopies returns the copies, of the variables the evaluations of the
// w.Await of thread condition t loaded, that at gives; ok is false if one
// has none.
func (n *net) awaitCopies(t int32, at func(p int32) int32) (cs []int32, ok bool) {
	kn := n.awaits[t]
	if kn == nil {
		return nil, false
	}
	th := n.threadOf(t)
	cs = make([]int32, 0, len(kn.vars))
	for _, o := range kn.vars {
		c := at(n.copies[[2]int32{o, th}])
		if c < 0 {
			return nil, false
		}
		cs = append(cs, c)
	}
	return cs, true
}
