// This file implements units of work (strategy.Splitter): a unit is an
// interference scenario candidate to realize, with its nodes and its
// constraint systems; the worker solves them with its own solver, runs the
// scenario, and hands back the outcome or the execution.

package con2

import (
	"errors"
	"fmt"
	"slices"

	"github.com/weft-go/weft/solver"
	"github.com/weft-go/weft/strategy"
	"github.com/weft-go/weft/trace"
)

var _ strategy.Splitter = (*Strategy)(nil)

// unitState is a strategy's part in units: for a splitter, how many of
// the units it handed out are not joined yet; for a strategy resumed
// from a unit, the unit and what its exploration found.
type unitState struct {
	out     int
	resumed bool
	unit    *unitPayload
	exprs   []solver.Expr // the unit's terms, decoded
	done    bool          // Next took the unit
	hb      handbackPayload
}

// wireISC is an ISC in the splitter's node numbers.
type wireISC struct {
	Kind   uint8
	Sink   int32
	Target trace.ThreadID
	Tips   []int32
	Degree int
	Free   []int32
	Key    string
}

// wireNode is a node of a unit: its key, with the nodes before it and its
// source as positions in the unit (-1: none), its depth and its number in
// the splitter's forest.
type wireNode struct {
	ID      int32
	Thread  trace.ThreadID
	Up, Src int32
	Depth   int32
	Kind    uint8
	Op      trace.Kind
	Obj     uint64
	Expr    int32 // a position in the unit's terms, -1 for none
	Taken   bool
	PC      uintptr
	Cas     int32
	OK, Rdv bool
	Lock    uint64
	Val     int64
}

// wireSystem is a constraint system: its constraints as positions in the
// unit's terms, their parts and, for the couplings of reads, the read (a
// node of the splitter).
type wireSystem struct {
	Cs   []int32
	Part []uint8
	Read []int32
}

// unitPayload is a unit: the ISC, the splitter's table of threads (the
// path of each stable number, by number: the unit's nodes name threads by
// them), its nodes (its causal past, in topological order), the terms its
// labels and constraints use in their wire form (solver.EncodeExprs), its
// data constraints and either its temporal ones or, for a scenario with
// steps of other primitives, the order of its steps (order.go), which
// needs the whole forest.
type unitPayload struct {
	ISC     wireISC
	Threads []trace.ThreadPath
	Nodes   []wireNode
	Terms   []byte
	DC      wireSystem
	TC      wireSystem
	Sync    bool
	Plan    []int32 // positions; with Sync and PlanOK
	// PlanOK reports that the steps have an order; Bound that the search
	// for one ran out of steps.
	PlanOK, Bound bool
}

// handbackPayload is what the exploration of a unit hands back: whether
// it decided the ISC (Decided), how (Realized, or the guide of an
// unrealizable one, or NoOrder), and the execution that realized it.
type handbackPayload struct {
	ISC      wireISC
	Decided  bool
	Realized bool
	NoOrder  bool
	Bound    bool
	Pruned   bool
	Guided   bool    // Guide holds the reads to extend (else every read)
	Guide    []int32 // splitter nodes
	Ran      bool
	Exec     wireExec
	Diverged bool
	// Unforeseen counts the interferences the execution stopped at;
	// UnforeseenRead says it stopped at a read of thread UThread (the
	// execution's number: the splitter's stable numbers of threads the
	// unit did not know may differ) with operation UOp on variable UObj.
	Unforeseen     int
	UnforeseenRead bool
	UThread        trace.ThreadID
	UOp            trace.Kind
	UObj           uint64
	// AwaitBlocked says the scenario's await, node AwaitAt, blocked
	// (busy.go, learnAwait).
	AwaitBlocked bool
	AwaitAt      int32
	TimedOut     int
	Errors       int
	LastError    string
}

// wireExec is an execution as a handback holds it: the parts of its trace
// con2 builds nodes from, and how it ended.
type wireExec struct {
	Events   []trace.Event
	Threads  []trace.ThreadInfo
	Objects  []trace.ObjectInfo
	Final    []trace.Op
	Inputs   []trace.InputEvent
	Branches []trace.BranchEvent
	Accesses []trace.SymAccess
	Evals    []trace.AwaitEval
	End      trace.End
}

// tag names the strategy and its options for units.
func (s *Strategy) tag() string {
	o := s.opts
	return fmt.Sprintf("con2(k=%d,nocore=%v,nocache=%v,noprio=%v)", o.K, o.NoUnsatCore, o.NoCache, o.NoPriority)
}

// Split implements strategy.Splitter: it hands out the ISC Next would
// take next, unchecked, with its nodes and constraints, and goes on as if
// it had processed it; Join takes in the outcome. A strategy resumed from
// a unit does not split.
func (s *Strategy) Split() (strategy.Unit, bool) {
	if s.err != nil || s.closed || !s.started || s.u.resumed {
		return nil, false
	}
	c := s.work.pop(s.priority())
	if c == nil {
		return nil, false
	}
	s.stats.ISCs++
	s.stats.MaxDegree = max(s.stats.MaxDegree, c.degree)
	u, err := strategy.EncodeUnit(s.tag(), s.unitOf(c))
	if err != nil {
		panic("weft internal error: con2: " + err.Error())
	}
	s.u.out++
	return u, true
}

// unitOf returns the unit of ISC c.
func (s *Strategy) unitOf(c *isc) *unitPayload {
	f := s.f
	nodes := f.closure(c.tips...)
	pos := make(map[int32]int32, len(nodes))
	for i, n := range nodes {
		pos[n] = int32(i)
	}
	at := func(n int32) int32 {
		if n == none {
			return -1
		}
		return pos[n]
	}
	var terms []solver.Expr
	index := map[solver.Expr]int32{}
	term := func(e solver.Expr) int32 {
		if !e.IsValid() {
			return -1
		}
		i, ok := index[e]
		if !ok {
			i = int32(len(terms))
			index[e] = i
			terms = append(terms, e)
		}
		return i
	}
	p := &unitPayload{ISC: wireOf(c), Threads: threadPaths(&s.names)}
	for _, n := range nodes {
		nd := &f.nodes[n]
		l := &nd.lab
		p.Nodes = append(p.Nodes, wireNode{
			ID: n, Thread: nd.thread, Up: at(nd.up), Src: at(nd.src), Depth: nd.depth,
			Kind: uint8(l.kind), Op: l.op, Obj: l.obj, Expr: term(l.expr), Taken: l.taken, PC: l.pc,
			Cas: l.cas, OK: l.ok, Rdv: l.rdv, Lock: l.lock, Val: l.val,
		})
	}
	sys := func(x *system) wireSystem {
		var w wireSystem
		for i, e := range x.cs {
			w.Cs = append(w.Cs, term(e))
			w.Part = append(w.Part, uint8(x.part[i]))
			w.Read = append(w.Read, x.read[i])
		}
		return w
	}
	chains, _ := f.chains(nodes)
	p.DC = sys(f.data(nodes, s.ranges))
	if f.hasSync(nodes) {
		p.Sync = true
		plan, ok, bound := f.schedule(nodes, chains)
		p.PlanOK, p.Bound = ok, bound
		for _, n := range plan {
			p.Plan = append(p.Plan, pos[n])
		}
	} else {
		p.TC = sys(f.time(nodes, chains))
	}
	p.Terms = solver.EncodeExprs(terms)
	return p
}

// threadPaths returns the path of each stable number of names, by number.
func threadPaths(names *trace.ThreadNames) []trace.ThreadPath {
	var out []trace.ThreadPath
	for path, id := range names.Paths() {
		for len(out) <= int(id) {
			out = append(out, trace.ThreadPath{})
		}
		out[id] = path
	}
	return out
}

// wireOf returns c in its wire form.
func wireOf(c *isc) wireISC {
	return wireISC{Kind: uint8(c.kind), Sink: c.sink, Target: c.target, Tips: c.tips, Degree: c.degree, Free: c.free, Key: c.key}
}

// isc returns the ISC of w, whose nodes must be among the n of the forest.
func (w *wireISC) isc(n int) (*isc, error) {
	ok := func(v int32) bool { return v >= 0 && int(v) < n }
	if !ok(w.Sink) || len(w.Tips) == 0 || w.Kind > uint8(iscResume) {
		return nil, fmt.Errorf("an ISC of kind %d with sink %d, tips %v, in a forest of %d nodes", w.Kind, w.Sink, w.Tips, n)
	}
	for _, t := range append(slices.Clone(w.Tips), w.Free...) {
		if !ok(t) {
			return nil, fmt.Errorf("an ISC with node %d, in a forest of %d nodes", t, n)
		}
	}
	return &isc{kind: iscKind(w.Kind), sink: w.Sink, target: w.Target, tips: w.Tips, degree: w.Degree, free: w.Free, key: w.Key}, nil
}

// Resume implements strategy.Splitter: a strategy with s's options and
// solver (shared: explore s and the strategies resumed on it from one
// goroutine at a time, or resume on a strategy built for the goroutine)
// whose forest holds the unit's nodes, and whose one execution realizes
// the unit's ISC, if its constraints are satisfiable.
func (s *Strategy) Resume(u strategy.Unit) (strategy.Splitter, error) {
	if s.err != nil {
		return nil, fmt.Errorf("con2: resuming a unit: %w", s.err)
	}
	if s.solver == nil {
		return nil, errors.New("con2: resuming a unit: the strategy has no solver")
	}
	var p unitPayload
	if err := strategy.DecodeUnit(u, s.tag(), &p); err != nil {
		return nil, err
	}
	terms, err := solver.DecodeExprs(p.Terms)
	if err != nil {
		return nil, fmt.Errorf("%w: a unit of %s: %v", strategy.ErrBadUnit, s.tag(), err)
	}
	r := New(s.opts, s.solver)
	r.started, r.stop = true, s.stop
	paths := make(map[trace.ThreadPath]trace.ThreadID, len(p.Threads))
	for id, path := range p.Threads {
		paths[path] = trace.ThreadID(id)
	}
	if len(paths) != len(p.Threads) || !r.names.SetPaths(paths) {
		return nil, fmt.Errorf("%w: a unit of %s with a bad table of threads", strategy.ErrBadUnit, s.tag())
	}
	r.u = unitState{resumed: true, unit: &p, exprs: terms}
	if err := r.u.load(r.f); err != nil {
		return nil, fmt.Errorf("%w: a unit of %s: %v", strategy.ErrBadUnit, s.tag(), err)
	}
	r.u.hb.ISC = p.ISC
	return r, nil
}

// load interns the unit's nodes in f, an empty forest, at their
// positions, and checks its constraint systems and plan.
func (u *unitState) load(f *forest) error {
	p := u.unit
	term := func(i int32) (solver.Expr, error) {
		if i == -1 {
			return solver.Expr{}, nil
		}
		if i < 0 || int(i) >= len(u.exprs) {
			return solver.Expr{}, fmt.Errorf("term %d of %d", i, len(u.exprs))
		}
		return u.exprs[i], nil
	}
	for i, w := range p.Nodes {
		for _, m := range []int32{w.Up, w.Src} {
			if m < -1 || m >= int32(i) {
				return fmt.Errorf("node %d refers to node %d", i, m)
			}
		}
		if w.Kind == 0 || int(w.Kind) >= len(kindNames) {
			return fmt.Errorf("node %d of kind %d", i, w.Kind)
		}
		e, err := term(w.Expr)
		if err != nil {
			return fmt.Errorf("node %d: %v", i, err)
		}
		k := key{thread: w.Thread, up: w.Up, src: w.Src, lab: label{
			kind: kind(w.Kind), op: w.Op, obj: w.Obj, expr: e, taken: w.Taken, pc: w.PC,
			cas: w.Cas, ok: w.OK, rdv: w.Rdv, lock: w.Lock, val: w.Val,
		}}
		if n, fresh := f.intern(k); !fresh || n != int32(i) || f.nodes[n].depth != w.Depth {
			return fmt.Errorf("node %d is no node of a scenario (a repeated key, or depth %d where its thread gives %d)", i, w.Depth, f.nodes[n].depth)
		}
	}
	for _, x := range []*wireSystem{&p.DC, &p.TC} {
		if len(x.Part) != len(x.Cs) || len(x.Read) != len(x.Cs) {
			return errors.New("a constraint system of unequal parts")
		}
		for _, c := range x.Cs {
			if e, err := term(c); err != nil || !e.IsValid() || !e.IsBool() {
				return fmt.Errorf("a constraint that is no boolean term (%v)", err)
			}
		}
	}
	for _, n := range p.Plan {
		if n < 0 || int(n) >= len(p.Nodes) {
			return fmt.Errorf("a plan with node %d of %d", n, len(p.Nodes))
		}
	}
	return nil
}

// system returns the constraint system of w.
func (u *unitState) system(w *wireSystem) *system {
	s := &system{}
	for i, c := range w.Cs {
		s.add(u.exprs[c], part(w.Part[i]), w.Read[i])
	}
	return s
}

// realizeUnit decides the unit's ISC as realize does, and prepares its
// execution if it is realizable; what it decided goes into the handback.
func (s *Strategy) realizeUnit() bool {
	u := &s.u
	p, f, hb := u.unit, s.f, &u.hb
	hb.Decided = true
	nodes := make([]int32, len(p.Nodes))
	for i := range nodes {
		nodes[i] = int32(i)
	}
	chains, _ := f.chains(nodes)
	dc := u.system(&p.DC)
	inputs, core, err := s.solve(dc)
	if inputs == nil {
		s.unitRejected(dc, core, err)
		return false
	}
	var plan []int32
	if p.Sync {
		if !p.PlanOK {
			hb.NoOrder, hb.Bound = true, p.Bound
			return false
		}
		plan = p.Plan
	} else {
		tc := u.system(&p.TC)
		stamps, core, err := s.solve(tc)
		if stamps == nil {
			s.unitRejected(tc, core, err)
			return false
		}
		plan = f.plan(nodes, stamps)
	}
	hb.Realized = true
	s.run = run{plan: plan, target: p.ISC.Target, expect: chains, inputs: inputs}
	return true
}

// unitRejected records in the handback that the unit's ISC is
// unrealizable by sys, with the reads to extend (guide).
func (s *Strategy) unitRejected(sys *system, core []int, err error) {
	hb := &s.u.hb
	guide, pruned := s.guide(sys, core, err)
	hb.Pruned = pruned
	if guide != nil {
		hb.Guided = true
		for r := range guide {
			hb.Guide = append(hb.Guide, r)
		}
		slices.Sort(hb.Guide)
	}
}

// finishUnit records the execution of a strategy resumed from a unit for
// its handback.
func (s *Strategy) finishUnit(tr *trace.Trace, end trace.End) {
	hb := &s.u.hb
	hb.Ran = true
	hb.Diverged = s.run.diverged
	hb.Exec = wireExec{
		Events: slices.Clone(tr.Events), Threads: slices.Clone(tr.Threads), Objects: slices.Clone(tr.Objects),
		Final: slices.Clone(tr.Final), Inputs: slices.Clone(tr.Inputs), Branches: slices.Clone(tr.Branches),
		Accesses: slices.Clone(tr.Accesses), End: end,
	}
	x := &hb.Exec
	hb.AwaitBlocked, hb.AwaitAt = s.run.blocked, s.run.awaitAt
	for _, ev := range tr.Evals {
		ev.Reads = slices.Clone(ev.Reads)
		x.Evals = append(x.Evals, ev)
	}
	for i := range x.Events {
		x.Events[i].Op.Cases = slices.Clone(x.Events[i].Op.Cases)
		x.Events[i].PartnerOp.Cases = slices.Clone(x.Events[i].PartnerOp.Cases)
	}
	for i := range x.Final {
		x.Final[i].Cases = slices.Clone(x.Final[i].Cases)
	}
	if uf := s.run.unforeseen; uf.ok {
		hb.UnforeseenRead, hb.UThread, hb.UOp, hb.UObj = true, s.names.Current(uf.key.thread), uf.key.lab.op, uf.key.lab.obj
	}
}

// trace returns the trace of x.
func (x *wireExec) trace() *trace.Trace {
	return &trace.Trace{Events: x.Events, Threads: x.Threads, Objects: x.Objects, Final: x.Final,
		Inputs: x.Inputs, Branches: x.Branches, Accesses: x.Accesses, Evals: x.Evals}
}

// Handback implements strategy.Splitter: nil for a strategy not resumed
// from a unit; otherwise what its exploration decided of the unit's ISC,
// and the execution that realized it.
func (s *Strategy) Handback() strategy.Handback {
	if !s.u.resumed {
		return nil
	}
	hb := s.u.hb
	hb.Unforeseen, hb.TimedOut, hb.Errors = s.stats.Unforeseen, s.stats.TimedOut, s.stats.Errors
	if s.lastErr != nil {
		hb.LastError = s.lastErr.Error()
	}
	h, err := strategy.EncodeHandback(s.tag(), &hb)
	if err != nil {
		panic("weft internal error: con2: " + err.Error())
	}
	return h
}

// Join implements strategy.Splitter: it takes in what the exploration of
// a unit decided, as Next and Finish would have: an unrealizable ISC is
// extended (Alg. 3), a realized one's execution is merged into the
// forest, and an ISC the unit left undecided is queued again. A unit adds
// no other units.
func (s *Strategy) Join(h strategy.Handback) ([]strategy.Unit, error) {
	var d handbackPayload
	if err := strategy.DecodeHandback(h, s.tag(), &d); err != nil {
		return nil, err
	}
	c, err := d.ISC.isc(len(s.f.nodes))
	if err != nil {
		return nil, fmt.Errorf("%w: a handback of %s: %v", strategy.ErrBadUnit, s.tag(), err)
	}
	for _, r := range d.Guide {
		if r < 0 || int(r) >= len(s.f.nodes) {
			return nil, fmt.Errorf("%w: a handback of %s guides to node %d of %d", strategy.ErrBadUnit, s.tag(), r, len(s.f.nodes))
		}
	}
	s.u.out--
	s.stats.TimedOut += d.TimedOut
	s.stats.Errors += d.Errors
	if d.LastError != "" {
		s.lastErr = errors.New(d.LastError)
	}
	if s.err != nil {
		return nil, nil
	}
	switch {
	case !d.Decided || d.Realized && !d.Ran:
		s.stats.ISCs--
		s.work.push(c) // not explored: queued again
	case d.NoOrder:
		if d.Bound {
			s.stats.OrderBound++
		}
		s.reject(c, nil, false)
	case !d.Realized:
		var guide map[int32]bool
		if d.Guided {
			guide = map[int32]bool{}
			for _, r := range d.Guide {
				guide[r] = true
			}
		}
		s.reject(c, guide, d.Pruned)
	default:
		s.stats.Realizable++
		s.joinRun(c, &d)
	}
	return nil, nil
}

// joinRun merges the execution that realized ISC c, which d hands back,
// into the forest, as Finish does.
func (s *Strategy) joinRun(c *isc, d *handbackPayload) {
	chains, _ := s.f.chains(s.f.closure(c.tips...))
	s.run = run{c: c, target: c.target, expect: chains}
	if d.Diverged {
		s.diverge()
	}
	tr := d.Exec.trace()
	s.stats.Unforeseen += d.Unforeseen
	if !s.finishBuild(tr) {
		return
	}
	if p := d.UThread; d.UnforeseenRead && p >= 0 && int(p) < len(s.b.last) {
		s.run.unforeseen.ok = true
		s.run.unforeseen.key = key{thread: s.names.Stable(p), up: s.b.last[p], src: none, lab: label{kind: kRead, op: d.UOp, obj: d.UObj}}
		if d.UOp == trace.KindAwait && int(p) < len(tr.Final) {
			// An await's reads, each local: its last.
			op := tr.Final[p]
			chain := s.f.awaitChain(s.names.Stable(p), s.b.last[p], awaitVars(tr, op), s.f.numOp(tr, op, &s.names))
			s.run.unforeseen.key = s.f.nodes[chain[len(chain)-1]].key
		}
	}
	if d.AwaitBlocked && d.AwaitAt >= 0 && int(d.AwaitAt) < len(s.f.nodes) {
		s.run.blocked, s.run.awaitAt = true, d.AwaitAt
	}
	s.learn(tr, d.Exec.End)
}
