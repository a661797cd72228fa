// This file models symbolic inputs (Kähkönen et al. 2014, §3, §4.3, case 1 of §5): a
// branch on a symbolic condition is an event whose preset is its thread's
// condition alone, one event per side, carrying the side's constraint; a
// target's path constraint, the constraints of its local configuration,
// is solved for the inputs of its test, and a target whose path
// constraint is unsatisfiable is dropped.

package unfold

import (
	"errors"
	"fmt"
	"slices"
	"strconv"

	"github.com/weft-go/weft/solver"
	"github.com/weft-go/weft/strategy"
	"github.com/weft-go/weft/trace"
)

// kindBranch is the kind of the next action of a thread condition whose
// thread branches on a symbolic condition: no operation of the runtime,
// and above every trace.Kind.
const kindBranch = trace.Kind(255)

// The sides of an event (event.side): an event that is no branch, the
// false side of a branch, the true side.
const (
	noSide uint8 = iota
	falseSide
	trueSide
)

// sideOf returns the side of a branch taken or not.
func sideOf(taken bool) uint8 {
	if taken {
		return trueSide
	}
	return falseSide
}

// ErrNoSolver is wrapped by the error of a program with symbolic branches
// explored without a solver (Options.NewSolver is nil).
var ErrNoSolver = errors.New("unfold has no solver for symbolic inputs")

// symbolic is what the unfolding keeps of the symbolic side of the
// executions: the conditions of the branches, the constraints of the
// branch events, the declared ranges of the inputs, and the solver.
// Inputs are named stably: by their thread's stable number and their rank
// among the thread's inputs (inputName).
type symbolic struct {
	newSolver func() (solver.Solver, error)
	slv       solver.Solver
	// cond is the condition of each thread condition whose next action
	// is a branch; cons the constraint of each branch event (its side of
	// the condition); ranges the declared range of each input.
	cond   map[int32]solver.Expr
	cons   map[int32]solver.Expr
	ranges map[string]solver.Expr
}

// execSym is the symbolic side of the current execution: its inputs (nil
// for the defaults), the stable variables of the inputs it read, by the
// names the runtime gave them, how many inputs each thread read, the memo
// of the renaming, the inputs and branches modelled, and the branch the
// failure of the execution follows (-1 if none).
type execSym struct {
	model   solver.Model
	vars    map[string]solver.Expr
	perTh   map[trace.ThreadID]int
	memo    map[solver.Expr]solver.Expr
	inputs  int
	bseen   int
	fatalBr int
}

// inputName returns the stable name of the k-th input (from 0) of the
// thread of stable number th.
func inputName(th trace.ThreadID, k int) string {
	return "t" + strconv.Itoa(int(th)) + "." + strconv.Itoa(k)
}

// resetSym starts the symbolic side of a new execution, with model as its
// inputs.
func (s *Strategy) resetSym(model solver.Model) {
	y := &s.sym
	if y.vars == nil {
		y.vars, y.perTh, y.memo = map[string]solver.Expr{}, map[trace.ThreadID]int{}, map[solver.Expr]solver.Expr{}
	}
	y.model = model
	clear(y.vars)
	clear(y.perTh)
	clear(y.memo)
	y.inputs, y.bseen, y.fatalBr = 0, 0, -1
}

// syncInputs gives the inputs of tr not seen yet their stable variables.
func (s *Strategy) syncInputs(tr *trace.Trace) {
	y := &s.sym
	for ; y.inputs < len(tr.Inputs); y.inputs++ {
		in := &tr.Inputs[y.inputs]
		name := inputName(s.tn.Stable(in.Thread), y.perTh[in.Thread])
		y.perTh[in.Thread]++
		y.vars[in.Name] = solver.Var(name, in.Bits)
		if _, ok := s.n.sym.ranges[name]; !ok {
			s.n.sym.ranges[name] = s.rename(in.Range())
		}
	}
}

// rename returns e with the inputs of the current execution renamed to
// their stable variables.
func (s *Strategy) rename(e solver.Expr) solver.Expr {
	return solver.Rename(e, s.sym.memo, s.sym.vars)
}

// Input implements strategy.Strategy: the value the solver gave the input
// for the current test's path constraint, or its default if the path
// constraint does not hold it.
func (s *Strategy) Input(st *strategy.State, in strategy.InputRequest) uint64 {
	if s.sym.model == nil || st == nil || st.Trace == nil {
		return in.Default
	}
	s.tn.Sync(st.Trace.Threads, st.Trace.Events)
	k := 0
	for i := range st.Trace.Inputs {
		if st.Trace.Inputs[i].Thread == in.Thread {
			k++
		}
	}
	if v, ok := s.sym.model[inputName(s.tn.Stable(in.Thread), k)]; ok {
		return v
	}
	return in.Default
}

// branchKey returns the next action of a thread condition before branch b.
func branchKey(b *trace.BranchEvent) opKey {
	return opKey{kind: kindBranch, obj: -1, arg: int64(b.PC)}
}

// branchAt returns the index in tr.Branches of the first branch of thread
// id in the local code that ran after step-1 steps (Step == step), from
// index from on; -1 if none.
func branchAt(tr *trace.Trace, id trace.ThreadID, step, from int) int {
	bs := tr.Branches
	i, _ := slices.BinarySearchFunc(bs, int32(step), func(b trace.BranchEvent, s int32) int { return int(b.Step - s) })
	for i = max(i, from); i < len(bs) && int(bs[i].Step) == step; i++ {
		if bs[i].Thread == id && !bs[i].InAwait {
			return i
		}
	}
	return -1
}

// withBranch returns st, a thread's state at a new thread condition, with
// the branch at index b of tr as its next action if b >= 0.
func (s *Strategy) withBranch(st threadStart, tr *trace.Trace, b int) threadStart {
	if b < 0 {
		return st
	}
	br := &tr.Branches[b]
	return threadStart{thread: st.thread, op: branchKey(br), state: pending, cond: s.rename(br.Cond)}
}

// branches models the branches of tr before step upto (those of the local
// code that ran after the steps before it).
func (s *Strategy) branches(tr *trace.Trace, upto int, now nowFunc) {
	if len(tr.Branches) == 0 {
		return
	}
	s.syncInputs(tr)
	y := &s.sym
	for ; y.bseen < len(tr.Branches) && int(tr.Branches[y.bseen].Step) <= upto && s.err == nil; y.bseen++ {
		if tr.Branches[y.bseen].InAwait {
			continue // a path of an evaluation (awaitpath.go)
		}
		s.branch(tr, y.bseen, now)
	}
}

// refuseOfStep refuses tr if it has a branch that is a step's outcome
// (trace.BranchEvent.OfStep, a CompareAndSwap that compares values of
// inputs): the step's event would have to be one of two, written or not,
// with the comparison's constraint, which the net does not model; a branch
// event after it would come too late (the write is done). The branches of
// the condition of a w.Await (trace.BranchEvent.InAwait) are the paths of
// its evaluations (awaitpath.go).
func (s *Strategy) refuseOfStep(tr *trace.Trace) {
	for _, b := range tr.Branches[s.sym.bseen:] {
		if b.OfStep {
			s.diverge(fmt.Errorf("unfold does not model a CompareAndSwap whose outcome depends on inputs (thread %v, step %d, its comparison %v); use concolic-optimal or concolic (%w)", b.Thread, b.Step, b.Cond, ErrUnmodelled))
			return
		}
	}
}

// branch models branch bi of tr: the event of its side at its thread's
// condition in the current marking.
func (s *Strategy) branch(tr *trace.Trace, bi int, now nowFunc) {
	n := s.n
	b := &tr.Branches[bi]
	th := int32(s.tn.Stable(b.Thread))
	tp, ok := n.threads[th]
	if !ok || s.marking[tp] < 0 {
		s.diverge(fmt.Errorf("branch %d: thread %v has no condition in the unfolding", bi+1, b.Thread))
		return
	}
	t := s.marking[tp]
	k := branchKey(b)
	if n.conds[t].op != k {
		s.diverge(fmt.Errorf("thread %v branched on %v where the unfolding has %v", b.Thread, b.Cond, n.conds[t].op))
		return
	}
	side := sideOf(b.Taken)
	fatal := bi == s.sym.fatalBr
	next := s.withBranch(s.startOf(b.Thread, func(id trace.ThreadID) (trace.Op, bool) {
		return pendingAfter(tr, int(b.Step)-1, id, now)
	}, fatal), tr, branchAt(tr, b.Thread, int(b.Step), bi+1))
	e := n.findSide(t, side)
	if e >= 0 && n.events[e].in() {
		d := n.events[e].post[0]
		completed, same := n.settle(d, next)
		if !same {
			s.diverge(fmt.Errorf("after a branch on %v, thread %v has %v next, where an earlier execution of the same event left it %v", b.Cond, b.Thread, next.op, n.conds[d].op))
			return
		}
		s.fire(e)
		if completed && !fatal {
			s.extendCompleted([]int32{d})
		}
		return
	}
	if e < 0 {
		if !n.observe {
			n.stats.Unexpected++
		}
		e = n.branchSide(t, side)
	}
	n.events[e].fatal = fatal
	n.add(e, next, threadStart{}, nil, 0)
	s.fire(e)
	d := n.events[e].post[0]
	s.newConds([]int32{d})
	if fatal || n.observe {
		return
	}
	if n.naive {
		n.naiveExtensions([]int32{d})
		return
	}
	n.fromThread(d, s.marking)
	n.fromResources(e)
}

// findSide returns the event of side side at thread condition t, whose
// next action is a branch, or -1.
func (n *net) findSide(t int32, side uint8) int32 {
	for _, e := range n.conds[t].consumers {
		if n.events[e].side == side {
			return e
		}
	}
	return -1
}

// branchSide returns the event of side side at thread condition t, whose
// next action is a branch, making it a possible extension with its
// constraint if there is none.
func (n *net) branchSide(t int32, side uint8) int32 {
	if e := n.findSide(t, side); e >= 0 {
		return e
	}
	e := n.newExtension([]int32{t}, 0)
	n.events[e].side = side
	if c, ok := n.sym.cond[t]; ok {
		if side == falseSide {
			c = solver.Not(c)
		}
		n.sym.cons[e] = c
	}
	return e
}

// branchExtensions adds both sides of the branch of thread condition t
// (case 1), unless a failed step precedes t.
func (n *net) branchExtensions(t int32) {
	if _, fatal := n.co(t); fatal {
		return
	}
	n.branchSide(t, falseSide)
	n.branchSide(t, trueSide)
}

// constraint returns the path constraint of the local configuration of
// the conditions xs and of the events es: the constraints of its branch
// events, with the declared ranges of the inputs they name.
//
// A thread whose condition in the cut of that configuration has a branch
// next takes it in the local code of its last step, before any other
// thread runs: if a side of the branch is known to fail (its event
// failed), the execution would end there, so the constraint takes the
// other side's too.
func (n *net) constraint(xs, es []int32) []solver.Expr {
	return n.constraintWith(xs, es, nil)
}

// constraintWith is constraint with the constraints extra too.
func (n *net) constraintWith(xs, es []int32, extra []solver.Expr) []solver.Expr {
	if len(n.sym.cons) == 0 && len(extra) == 0 {
		return nil
	}
	out := slices.Clone(extra)
	evs := append(n.past(xs), es...)
	for _, e := range evs {
		if c, ok := n.sym.cons[e]; ok {
			out = append(out, c)
		}
	}
	out = append(out, n.avoidFatal(evs)...)
	if len(out) == 0 {
		return nil
	}
	for _, v := range solver.Vars(out...) {
		if r, ok := n.sym.ranges[v]; ok && r != solver.True {
			out = append(out, r)
		}
	}
	return out
}

// avoidFatal returns the constraints that avoid the branches known to
// fail that the threads can reach in the local code they have next in the
// cut of the configuration evs: the other side of a branch they have next
// whose side failed, and of the branches after it (fatalPaths).
func (n *net) avoidFatal(evs []int32) []solver.Expr {
	taken := map[int32]bool{}
	var cut []int32
	for _, e := range evs {
		ev := &n.events[e]
		for _, c := range ev.pre {
			taken[c] = true
		}
		cut = append(cut, ev.post...)
		cut = append(cut, ev.spawned...)
	}
	for _, p := range n.threads {
		if c := n.places[p].init; c >= 0 {
			cut = append(cut, c)
		}
	}
	var out []solver.Expr
	for _, c := range cut {
		if taken[c] || n.conds[c].op.kind != kindBranch || n.places[n.conds[c].place].kind != threadPlace {
			continue
		}
		out = n.fatalPaths(c, solver.Expr{}, out)
	}
	return out
}

// fatalPaths appends to out the negation of the path constraint of each
// branch event known to fail that the thread of condition c, whose next
// action is a branch, can reach from c in the same local code: through
// the branches after c's (the sides of a branch that does not fail, whose
// thread branches again), each path taken with path (none if invalid)
// before it.
func (n *net) fatalPaths(c int32, path solver.Expr, out []solver.Expr) []solver.Expr {
	for _, side := range []uint8{falseSide, trueSide} {
		f := n.findSide(c, side)
		if f < 0 || !n.events[f].in() {
			continue
		}
		k, ok := n.sym.cons[f]
		if !ok {
			continue
		}
		if path.IsValid() {
			k = solver.And(path, k)
		}
		if n.events[f].fatal {
			out = append(out, solver.Not(k))
			continue
		}
		if d := n.events[f].post[0]; n.conds[d].op.kind == kindBranch {
			out = n.fatalPaths(d, k, out)
		}
	}
	return out
}

// solve decides the path constraint cs: the inputs of a test that
// satisfies it (nil, with ok, for an empty one), or ok false if it is
// unsatisfiable.
func (s *Strategy) solve(cs []solver.Expr) (model solver.Model, ok bool, err error) {
	if len(cs) == 0 {
		return nil, true, nil
	}
	y := &s.n.sym
	if y.slv == nil {
		if y.newSolver == nil {
			return nil, false, fmt.Errorf("%w: a target's path constraint needs one; import _ \"github.com/weft-go/weft/concolic\" (cgo and Z3) to get it, or run a strategy without inputs' constraints", ErrNoSolver)
		}
		slv, err := y.newSolver()
		if err != nil {
			return nil, false, fmt.Errorf("%w: %w", ErrNoSolver, err)
		}
		y.slv = slv
	}
	r, err := y.slv.Check(s.n.stop.Context(), cs)
	if err != nil {
		return nil, false, fmt.Errorf("solving a path constraint of %d constraints: %w", len(cs), err)
	}
	switch r.Status {
	case solver.Sat:
		return r.Model, true, nil
	case solver.Unsat:
		return nil, false, nil
	}
	return nil, false, fmt.Errorf("solving a path constraint of %d constraints: %v", len(cs), r.Status)
}

// SolverStats implements strategy.Solving: the counters of the solver of
// the path constraints (zero if no target needed one).
func (s *Strategy) SolverStats() solver.Stats {
	if s.n.sym.slv == nil {
		return solver.Stats{}
	}
	return s.n.sym.slv.Stats()
}

// Close implements strategy.Closer: it releases the solver, if the
// strategy made one.
func (s *Strategy) Close() error {
	y := &s.n.sym
	if y.slv == nil {
		return nil
	}
	err := y.slv.Close()
	y.slv = nil
	return err
}

var (
	_ strategy.Solving = (*Strategy)(nil)
	_ strategy.Closer  = (*Strategy)(nil)
)
