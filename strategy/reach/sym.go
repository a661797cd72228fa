// This file models symbolic inputs (w.Input, w.If) as Kähkönen et al.
// 2014 do in unfoldings: a branch on a symbolic condition is an event of
// its thread, one outcome per side, each carrying its side's constraint;
// here it is a receiving event of an object of its own (doc.go), whose
// race set is the other side when the path constraint of its control
// structure allows it, and a race variant whose path constraint is
// unsatisfiable is not run.

package reach

import (
	"errors"
	"fmt"
	"slices"
	"strconv"

	"github.com/weft-go/weft/solver"
	"github.com/weft-go/weft/strategy"
	"github.com/weft-go/weft/trace"
)

// ErrNoSolver is wrapped by the error of a program that branches on
// symbolic inputs, explored without a solver (Options.NewSolver is nil).
var ErrNoSolver = errors.New("reach has no solver for symbolic inputs")

// branchHalf marks the ref of a branch: its key is the branch's thread
// (stable) and call index (branchRef), not an object's key.
const branchHalf uint8 = 3

// branchRef returns the ref of the object of the branch that is call k of
// thread t (stable): each branch is the only event of its object.
func branchRef(t, k int32) ref {
	return ref{key: uint64(uint32(t))<<32 | uint64(uint32(k)), half: branchHalf}
}

// branchCall returns the call index of the branch whose ref is r.
func branchCall(r ref) uint32 { return uint32(r.key) }

// Sides of a branch, as the select case of its event (trace.Event.Case).
const (
	falseSide int32 = 0
	trueSide  int32 = 1
)

// symbolic is the strategy's side of symbolic inputs: the solver, the
// declared ranges of the inputs (by stable name), and the current run's
// renaming of its inputs to stable names (inputName), with its branches
// as events (augment).
type symbolic struct {
	newSolver func() (solver.Solver, error)
	slv       solver.Solver
	ranges    map[string]solver.Expr
	// The current run: the stable variable of each input by the name the
	// runtime gave it, how many inputs each thread read, the memo of the
	// renaming, the inputs renamed so far, and the branches the replay
	// counted (countBranches).
	vars   map[string]solver.Expr
	perTh  map[trace.ThreadID]int
	memo   map[solver.Expr]solver.Expr
	inputs int
	seen   int
	// mismatch reports that a branch of the run took the other side than
	// the variant's event there; missed lists those branches (stable
	// thread, call).
	mismatch bool
	missed   [][2]int32
	// aug is the run's trace with its branches as events; cond the
	// renamed condition of each of its branch events.
	aug  trace.Trace
	cond map[int32]solver.Expr
	// ofStep maps each branch event of aug that is the outcome of its
	// thread's step before it (a CompareAndSwap whose comparison depends
	// on inputs: trace.BranchEvent.OfStep) to that step.
	ofStep map[int32]int32
}

// inputName returns the stable name of the k-th input (from 0) of the
// thread of stable number t.
func inputName(t int32, k int) string {
	return "t" + strconv.Itoa(int(t)) + "." + strconv.Itoa(k)
}

// resetRun starts the symbolic side of a new run.
func (y *symbolic) resetRun() {
	if y.vars == nil {
		y.vars, y.perTh, y.memo = map[string]solver.Expr{}, map[trace.ThreadID]int{}, map[solver.Expr]solver.Expr{}
		y.ranges = map[string]solver.Expr{}
	}
	clear(y.vars)
	clear(y.perTh)
	clear(y.memo)
	y.inputs, y.seen, y.mismatch = 0, 0, false
	y.missed = y.missed[:0]
}

// syncInputs gives the inputs of tr not seen yet their stable variables.
func (s *Strategy) syncInputs(tr *trace.Trace) {
	y := &s.sym
	for ; y.inputs < len(tr.Inputs); y.inputs++ {
		in := &tr.Inputs[y.inputs]
		name := inputName(int32(s.names.Stable(in.Thread)), y.perTh[in.Thread])
		y.perTh[in.Thread]++
		y.vars[in.Name] = solver.Var(name, in.Bits)
		if _, ok := y.ranges[name]; !ok {
			y.ranges[name] = s.rename(in.Range())
		}
	}
}

// rename returns e with the current run's inputs renamed to their stable
// variables.
func (s *Strategy) rename(e solver.Expr) solver.Expr {
	return solver.Rename(e, s.sym.memo, s.sym.vars)
}

// Input implements strategy.Strategy: the value the solver gave the input
// for the path constraint of the run's variant, or its default (Lei and
// Carver 2006 explore one input; the first run takes the defaults).
func (s *Strategy) Input(st *strategy.State, in strategy.InputRequest) uint64 {
	if s.v == nil || s.v.Inputs == nil || st == nil || st.Trace == nil {
		return in.Default
	}
	s.names.Sync(st.Trace.Threads)
	k := 0
	for i := range st.Trace.Inputs {
		if st.Trace.Inputs[i].Thread == in.Thread {
			k++
		}
	}
	if v, ok := s.v.Inputs[inputName(int32(s.names.Stable(in.Thread)), k)]; ok {
		return v
	}
	return in.Default
}

// countBranches counts, as calls of their threads and events of their
// objects, the branches of tr that the run took since the last count, and
// notes one that took the other side than the variant's event there.
func (s *Strategy) countBranches(tr *trace.Trace) {
	y := &s.sym
	for ; y.seen < len(tr.Branches); y.seen++ {
		b := &tr.Branches[y.seen]
		p := b.Thread
		for len(s.k) <= int(p) {
			s.k = append(s.k, 0)
		}
		g := s.gs.of(branchRef(int32(s.names.Stable(p)), s.k[p]))
		if specs := s.v.Pos[g]; int(s.count[g]) < len(specs) && specs[s.count[g]].Exec.Case != sideOf(b.Taken) {
			y.mismatch = true
			y.missed = append(y.missed, [2]int32{int32(s.names.Stable(p)), s.k[p]})
		}
		s.count[g]++
		s.k[p]++
	}
}

// sideOf returns the side of a branch taken or not.
func sideOf(taken bool) int32 {
	if taken {
		return trueSide
	}
	return falseSide
}

// augment returns tr with its branches as events (s.sym.aug): each branch
// of thread t right after t's step before it (or t's start), as the local
// code that runs there; its Op is a KindBranch on no object whose Arg
// names its ref (branchRef), its Case its side. The indices of the trace
// (Event.Src, ThreadInfo.Step) are renumbered; a thread started in its
// parent's local code after some of the parent's branches there starts
// after them. The renamed condition of each branch event is in
// s.sym.cond.
func (s *Strategy) augment(tr *trace.Trace) *trace.Trace {
	if len(tr.Branches) == 0 {
		return tr
	}
	y := &s.sym
	s.syncInputs(tr)
	n := len(tr.Threads)
	// anchor[b] is the real step after which branch b goes (-1: before
	// the first): its thread's last step before it, or its start.
	last := make([]int32, n)
	for t := range last {
		last[t] = tr.Threads[t].Step
	}
	anchor := make([]int32, len(tr.Branches))
	bi := 0
	for i := 0; i <= len(tr.Events); i++ {
		for ; bi < len(tr.Branches) && int(tr.Branches[bi].Step) <= i; bi++ {
			anchor[bi] = last[tr.Branches[bi].Thread]
		}
		if i < len(tr.Events) {
			e := &tr.Events[i]
			last[e.Thread] = int32(i)
			if e.Partner != trace.NoThread {
				last[e.Partner] = int32(i)
			}
		}
	}
	// The branches after each slot (-1: before the first step), in the
	// order they ran.
	bySlot := make(map[int32][]int, len(tr.Branches))
	for b, a := range anchor {
		bySlot[a] = append(bySlot[a], b)
	}
	a := &y.aug
	a.Events = a.Events[:0]
	a.Threads = append(a.Threads[:0], tr.Threads...)
	a.Objects, a.Final, a.Inputs, a.Merged, a.Evals = tr.Objects, tr.Final, tr.Inputs, tr.Merged, tr.Evals
	a.Branches = nil
	if y.cond == nil {
		y.cond, y.ofStep = map[int32]solver.Expr{}, map[int32]int32{}
	}
	clear(y.cond)
	clear(y.ofStep)
	calls := make([]int32, n)
	newIndex := make([]int32, len(tr.Events))
	// lastBranch[b] is the index in a of branch b's event.
	lastBranch := make([]int32, len(tr.Branches))
	emit := func(slot int32) {
		for _, b := range bySlot[slot] {
			br := &tr.Branches[b]
			t := br.Thread
			lastBranch[b] = int32(len(a.Events))
			r := branchRef(int32(s.names.Stable(t)), calls[t])
			calls[t]++
			y.cond[int32(len(a.Events))] = s.rename(br.Cond)
			if br.OfStep && slot >= 0 {
				y.ofStep[int32(len(a.Events))] = newIndex[slot]
			}
			a.Events = append(a.Events, trace.Event{Thread: t, Op: trace.Op{Kind: trace.KindBranch, Obj: trace.NoObject, Arg: int64(r.key)},
				Case: sideOf(br.Taken), Partner: trace.NoThread, PartnerCase: -1, OK: true})
		}
	}
	emit(-1)
	for i := range tr.Events {
		newIndex[i] = int32(len(a.Events))
		e := tr.Events[i]
		calls[e.Thread]++
		if e.Partner != trace.NoThread {
			calls[e.Partner]++
		}
		a.Events = append(a.Events, e)
		emit(int32(i))
	}
	for i := range a.Events {
		e := &a.Events[i]
		if src := e.Source(); src >= 0 && e.Op.Kind != trace.KindBranch {
			e.SetSource(int(newIndex[src]))
		}
	}
	for t := range a.Threads {
		info := &a.Threads[t]
		step := info.Step
		start := int32(-1)
		if step >= 0 {
			start = newIndex[step]
		}
		// The branches of the parent's local code before the spawn: its
		// own, and those of the threads it started there before, which ran
		// in their spawns.
		for _, b := range bySlot[step] {
			if int32(b) < info.Branch && spawnedIn(tr, tr.Branches[b].Thread, info.Parent, step) {
				start = max(start, lastBranch[b])
			}
		}
		info.Step = start
	}
	return a
}

// spawnedIn reports whether thread u is p or a thread that p started, or
// that one of those started, in the local code after step (the threads'
// Step).
func spawnedIn(tr *trace.Trace, u, p trace.ThreadID, step int32) bool {
	for u != p {
		if u == trace.NoThread || tr.Threads[u].Step != step {
			return false
		}
		u = tr.Threads[u].Parent
	}
	return true
}

// diverted returns, for a run that could not replay a black event of its
// variant, the branch event of aug (the run's trace with its branches)
// after which the run's failing thread failed, if that branch is not the
// variant's, or -1. The solver's inputs satisfy the variant's path
// constraint, not the sides of the branches after it, and a thread that
// fails on one of those ends the run before the variant is replayed;
// the other side of the branch may let it be. The run is analysed (its
// sequence is not counted: it does not extend the variant), and its node
// explores the rows that flip or remove that branch, keeping the
// variant's events it did not reach (unfilled).
func (s *Strategy) diverted(aug *trace.Trace, end trace.End) int32 {
	if !stops(end) || aug != &s.sym.aug {
		return -1
	}
	_, b := failedAfterBranch(aug, end.Thread, int32(len(aug.Events)-1))
	if b < 0 {
		return -1
	}
	r, ok := callRef(aug.Events[b].Op, aug.Objects)
	if !ok {
		return -1
	}
	e := &aug.Events[b]
	c := [2]int32{int32(s.names.Stable(e.Thread)), int32(branchCall(r))}
	if len(s.v.Pos[s.gs.of(r)]) > 0 && !slices.Contains(s.v.Divert, c) {
		return -1
	}
	return b
}

// branchRaces appends to dst the race set of branch event i of analysis a:
// the other side, if the path constraint of the event's control structure
// (the branch events that happened before it) allows it.
func (s *Strategy) branchRaces(i int, dst []outcome) ([]outcome, error) {
	a := &s.an
	x := a.exec[i]
	cs := a.csOf(i)
	cons := []solver.Expr{sideExpr(s.sym.cond[int32(i)], x.cas != trueSide)}
	for j := range i {
		if c, ok := s.sym.cond[int32(j)]; ok && a.before(int32(j), cs) {
			cons = append(cons, sideExpr(c, a.exec[j].cas == trueSide))
		}
	}
	_, ok, err := s.solve(cons)
	if err != nil {
		return dst, err
	}
	if !ok {
		s.stats.UnsatSides++
		return dst, nil
	}
	return append(dst, outcome{exec: side{x.t, x.k, 1 - x.cas}, par: noSide}), nil
}

// sideExpr returns the constraint of side taken of a branch on cond.
func sideExpr(cond solver.Expr, taken bool) solver.Expr {
	if taken {
		return cond
	}
	return solver.Not(cond)
}

// solve decides the conjunction of cs with the declared ranges of the
// inputs it names: a model (nil for no constraint), or ok false if it is
// unsatisfiable.
func (s *Strategy) solve(cs []solver.Expr) (model solver.Model, ok bool, err error) {
	if len(cs) == 0 {
		return nil, true, nil
	}
	y := &s.sym
	for _, v := range solver.Vars(cs...) {
		if r, ok := y.ranges[v]; ok && r != solver.True {
			cs = append(cs, r)
		}
	}
	if y.slv == nil {
		if y.newSolver == nil {
			return nil, false, fmt.Errorf("%w: a branch on an input needs one; import _ \"github.com/weft-go/weft/concolic\" (cgo and Z3) to get it", ErrNoSolver)
		}
		slv, err := y.newSolver()
		if err != nil {
			return nil, false, fmt.Errorf("%w: %w", ErrNoSolver, err)
		}
		y.slv = solver.NewCached(slv, solver.CacheOptions{})
	}
	r, err := y.slv.Check(s.stop.Context(), cs)
	if err != nil {
		return nil, false, fmt.Errorf("reach: solving a path constraint of %d constraints: %w", len(cs), err)
	}
	switch r.Status {
	case solver.Sat:
		return r.Model, true, nil
	case solver.Unsat:
		return nil, false, nil
	}
	return nil, false, fmt.Errorf("reach: solving a path constraint of %d constraints: %v", len(cs), r.Status)
}

// feasible solves the path constraint of variant v (the constraints of
// its branch events, with their sides) and gives v the inputs of the
// model; it reports false if the constraint is unsatisfiable: no run
// extends v.
//
// If it is unsatisfiable but that of its black branch events (which no
// run of its subtree changes) is not, its subtree holds the runs that
// remove one of its white branches (by changing an event of its control
// structure), and v is relaxed: its run takes the inputs of that
// constraint, and a white branch then takes its other side (doc.go).
func (s *Strategy) feasible(v *variant) (bool, error) {
	if len(v.pc) == 0 {
		return true, nil
	}
	m, ok, err := s.solve(slices.Clone(v.pc))
	if err != nil {
		return false, err
	}
	if !ok {
		if m, ok, err = s.solve(slices.Clone(v.black)); err != nil || !ok {
			return false, err
		}
		v.Relaxed = true
	}
	v.Inputs = m
	return true, nil
}

// SolverStats implements strategy.Solving: the counters of the solver of
// the path constraints (zero if no run branched on an input).
func (s *Strategy) SolverStats() solver.Stats {
	if s.sym.slv == nil {
		return solver.Stats{}
	}
	return s.sym.slv.Stats()
}

// Close implements strategy.Closer: it releases the solver, if the
// strategy made one.
func (s *Strategy) Close() error {
	y := &s.sym
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
