// This file models the branches on inputs of a w.Await's condition: an
// evaluation's path (the branches it took), the path constraint of the
// await event whose evaluation held, the probes of the paths not taken
// yet, and the constraint under which an await is blocked in a deadlock.

package unfold

import (
	"slices"

	"github.com/weft-go/weft/solver"
	"github.com/weft-go/weft/trace"
)

// pathStep is a branch of a path of a w.Await's condition: its
// condition, over the stable inputs, and the side taken.
type pathStep struct {
	cond  solver.Expr
	taken bool
}

// constraint returns the constraint of the side the step took.
func (p pathStep) constraint() solver.Expr {
	if p.taken {
		return p.cond
	}
	return solver.Not(p.cond)
}

// awaitPaths interns the paths of the conditions of w.Awaits: path 0 is
// the empty one (an evaluation that branched on no input).
type awaitPaths struct {
	list  [][]pathStep
	byKey map[uint64][]int32
}

// intern returns the number of path p (copied if new).
func (ps *awaitPaths) intern(p []pathStep) int32 {
	if len(p) == 0 {
		return 0
	}
	if ps.byKey == nil {
		ps.list, ps.byKey = [][]pathStep{nil}, map[uint64][]int32{}
	}
	h := uint64(len(p))
	for _, s := range p {
		h = (h ^ s.cond.Hash()) * 0xff51afd7ed558ccd
		if s.taken {
			h ^= 1
		}
	}
	for _, id := range ps.byKey[h] {
		if slices.Equal(ps.list[id], p) {
			return id
		}
	}
	id := int32(len(ps.list))
	ps.list = append(ps.list, slices.Clone(p))
	ps.byKey[h] = append(ps.byKey[h], id)
	return id
}

// get returns path id.
func (ps *awaitPaths) get(id int32) []pathStep {
	if id == 0 {
		return nil
	}
	return ps.list[id]
}

// constraints returns the constraints of the sides of path id.
func (ps *awaitPaths) constraints(id int32) []solver.Expr {
	var out []solver.Expr
	for _, s := range ps.get(id) {
		out = append(out, s.constraint())
	}
	return out
}

// conjunction returns the constraint of path id, its sides' conjunction.
func (ps *awaitPaths) conjunction(id int32) solver.Expr {
	c := solver.True
	for i, e := range ps.constraints(id) {
		if i == 0 {
			c = e
			continue
		}
		c = solver.And(c, e)
	}
	return c
}

// hasPrefix reports whether path id starts with path pre.
func (ps *awaitPaths) hasPrefix(id, pre int32) bool {
	p, q := ps.get(id), ps.get(pre)
	return len(p) >= len(q) && slices.Equal(p[:len(q)], q)
}

// awaitAlt returns the cases (event.alt) of the await event whose
// evaluation took path id: the events of one preset, the thread condition
// and the copies loaded, are told apart by their paths. An await has no
// case and meets no thread: its alt is the path's number, 0 (altCode's
// for no case) for the empty path.
func awaitAlt(id int32) int32 { return id }

// awaitPathOf returns the path of an await event of cases alt.
func awaitPathOf(alt int32) int32 { return alt }

// evalPath returns the path of evaluation ev of tr: its branches on
// inputs, renamed to the stable inputs.
func (s *Strategy) evalPath(tr *trace.Trace, ev *trace.AwaitEval) int32 {
	if ev.BranchHi <= ev.BranchLo || int(ev.BranchHi) > len(tr.Branches) {
		return 0
	}
	s.syncInputs(tr)
	p := make([]pathStep, 0, ev.BranchHi-ev.BranchLo)
	for _, b := range tr.Branches[ev.BranchLo:ev.BranchHi] {
		p = append(p, pathStep{cond: s.rename(b.Cond), taken: b.Taken})
	}
	return s.n.paths.intern(p)
}

// probe is a test that runs the local configuration of pre, a thread
// condition of a w.Await and a choice of its thread's copies, where the
// runtime evaluates the condition: on the inputs of the path constraint
// of pre's configuration, with the sides of path prefix (0: none), a
// path of the condition no evaluation there took yet.
type probe struct {
	pre    []int32
	prefix int32
}

// probePaths adds the probes of the paths of the w.Await's condition at
// pre not taken yet, as concolic testing takes the other side of each
// branch of a path (the evaluations ms there took): for each evaluation
// and each of its branches, the path that follows it to the branch and
// takes the other side there, unless an evaluation took it.
func (n *net) probePaths(pre []int32, ms []*awaitEval) {
	for _, ev := range ms {
		p := n.paths.get(ev.path)
		for i := range p {
			flip := append(slices.Clone(p[:i]), pathStep{cond: p[i].cond, taken: !p[i].taken})
			id := n.paths.intern(flip)
			if !slices.ContainsFunc(ms, func(m *awaitEval) bool { return n.paths.hasPrefix(m.path, id) }) {
				n.addProbe(pre, id)
			}
		}
	}
}

// probeDone reports whether an evaluation answers probe p: one at its
// choice of copies, and, with a prefix, one whose path starts with it.
func (n *net) probeDone(p probe) bool {
	ms := n.awaitMatches(p.pre[0], p.pre[1:])
	if p.prefix == 0 {
		return len(ms) > 0
	}
	return slices.ContainsFunc(ms, func(m *awaitEval) bool { return n.paths.hasPrefix(m.path, p.prefix) })
}

// blockedConstraint returns the constraints under which the w.Awaits
// blocked in deadlock d (thread conditions, as the search of stuck
// markings returns them) are blocked: for each, the disjunction of the
// constraints of the paths of the evaluations there that do not hold;
// none for an await one of whose evaluations there that does not hold
// took no branch on inputs.
func (n *net) blockedConstraint(d []int32) []solver.Expr {
	var out []solver.Expr
	var at func(p int32) int32
	for _, t := range d {
		if n.conds[t].state != pending || !condAwait(n.conds[t].op) || n.awaits[t] == nil {
			continue
		}
		if at == nil {
			at = n.cutOf(d)
		}
		cs, ok := n.awaitCopies(t, at)
		if !ok {
			continue
		}
		or, always := solver.Expr{}, false
		for _, ev := range n.awaitMatches(t, cs) {
			switch {
			case ev.ok:
			case ev.path == 0:
				always = true
			case !or.IsValid():
				or = n.paths.conjunction(ev.path)
			default:
				or = solver.Or(or, n.paths.conjunction(ev.path))
			}
		}
		if !always && or.IsValid() {
			out = append(out, or)
		}
	}
	return out
}
