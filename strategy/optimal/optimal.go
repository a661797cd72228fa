// This file implements the exploration loop of Optimal-DPOR for a runtime
// that re-executes the program from the start for each execution: the stack
// of states of the current execution with their sleep sets and wakeup
// trees, the replay of its prefix in Choose, and the backtracking in Next.

package optimal

import (
	"fmt"
	"math/rand/v2"
	"slices"

	"github.com/weft-go/weft/model"
	"github.com/weft-go/weft/strategy"
	"github.com/weft-go/weft/trace"
)

// node is a state of the current execution: the step taken from it, the
// sleep set (events explored from it or from an earlier state without a
// dependent step since), and the wakeup tree of branches still to explore
// (the branch being explored has left it: its subtree moves to the next
// node).
type node struct {
	// alt is the step's alternative index in this state, for replay;
	// it comes first, so that the replay's check of a node (Choose)
	// reads one cache line: alt and ev's thread and operation.
	alt int32
	ev  event // the step taken, once known
	// out counts the units of its branches handed out (SplitLarge) not
	// joined yet: the state waits for them before it explores the
	// branches it has left, or is left (Next); retired says its branch
	// joined its sleep set while it waited.
	out     int32
	retired bool
	// gstate marks a state of the tree of branches handed out to a unit
	// that takes letters (mail.go), down which the unit has come, and
	// takenGiven a step that took a branch of that tree.
	gstate, takenGiven bool

	sleep []event
	wut   []*wnode // branches still to explore, in order
	sub   []*wnode // the subtree of the branch being explored
	// inherited counts the sleepers at the start of sleep that came from
	// the state before; those after them are the branches explored from
	// this state, in order (Join, lateInsert).
	inherited int
	// epoch is the strategy's epoch when the node's step was taken anew.
	epoch uint64
	// racesAt is the epoch at which the races of the step were recorded
	// (recs.races; 0: none; replay.go).
	racesAt uint64
	// recs holds the records of the step, made when it first has one:
	// most steps have none, and a long execution has a node per step.
	recs *nodeRecs
}

// nodeRecs are the records of a state (node.recs), and the branches it
// handed out.
type nodeRecs struct {
	// given are the branches handed out in a unit (SplitLarge), kept to
	// drop the reversals they cover and to place the others where they
	// go in them (placeGiven). When the step taken is the first event of
	// one of them (a branch placeGiven made), before are the ones before
	// it, which the next state has asleep as if explored already, and
	// subGiven the children of the one taken, the next state's given.
	given, before, subGiven []*wnode
	// mailTo is 1 + the number of the unit the state's branches were
	// handed out to, if it takes letters (mail.go), and closed says it
	// was told that no more come.
	mailTo int
	closed bool
	// covered are the reversals of races of the step, or of an
	// alternative pending after the step before it, that an execution
	// found covered (cover.go).
	covered []coverRec
	// races are the races of the step that the analysis of the execution
	// that ran it anew reversed, recorded at epoch node.racesAt
	// (replay.go).
	races []raceRec
}

// clear empties n, keeping its memory. Its node and sleep set, and the
// lists of wakeup-tree nodes, are n's own: wakeup-tree nodes are shared by
// no one (names.free).
func (n *node) clear() {
	*n = node{sleep: n.sleep[:0], wut: n.wut[:0], sub: n.sub[:0], recs: n.recs}
	if r := n.recs; r != nil {
		*r = nodeRecs{covered: r.covered[:0], races: r.races[:0]}
	}
}

// given returns the branches n handed out (nodeRecs.given).
func (n *node) given() []*wnode {
	if n.recs == nil {
		return nil
	}
	return n.recs.given
}

// before returns the branches handed out before the one n's step takes
// (nodeRecs.before).
func (n *node) before() []*wnode {
	if n.recs == nil {
		return nil
	}
	return n.recs.before
}

// subGiven returns the children of the branch handed out that n's step
// takes (nodeRecs.subGiven).
func (n *node) subGiven() []*wnode {
	if n.recs == nil {
		return nil
	}
	return n.recs.subGiven
}

// covered returns the records of the reversals that an execution found
// covered (nodeRecs.covered).
func (n *node) covered() []coverRec {
	if n.recs == nil {
		return nil
	}
	return n.recs.covered
}

// races returns the races recorded for the step (nodeRecs.races).
func (n *node) races() []raceRec {
	if n.recs == nil {
		return nil
	}
	return n.recs.races
}

// records returns n's records, made on first use.
func (n *node) records() *nodeRecs {
	if n.recs == nil {
		n.recs = new(nodeRecs)
	}
	return n.recs
}

// Stats counts what the strategy did; tests check that the anomalies stay
// at zero. A strategy resumed from a unit counts its own work; Join adds
// the counts of the units joined (the longest of MaxDepth), so that the
// strategy that divided its exploration counts all of it.
type Stats struct {
	// Races is the number of reversible races found; Inserted the number of
	// wakeup sequences that added a branch.
	Races, Inserted int
	// SleepBlocked counts executions cut because every enabled event was in
	// the sleep set (none, for Optimal-DPOR).
	SleepBlocked int
	// Infeasible counts wakeup-tree events that were not enabled when their
	// turn came (none, when the enabledness model covers the program's
	// primitives).
	Infeasible int
	// Unmodelled counts decisions taken without an enabledness model of the
	// primitive (Cond, monitors, timers): they are taken optimistically.
	Unmodelled int
	// MaxDepth is the longest execution; WakeupNodes the number of
	// wakeup-tree nodes created.
	MaxDepth, WakeupNodes int
	// Merges counts the objects found to have had two names (merge.go).
	Merges int
	// Candidates counts the candidates of races the analysis considered:
	// earlier events checked for a race with a later step (about the
	// number of threads per step, frontier.go).
	Candidates int
}

// Strategy is the Optimal-DPOR strategy. Its zero value is not usable; use
// New.
type Strategy struct {
	// awaits says whether an execution evaluated a w.Await (Incomplete).
	awaits  bool
	nodes   nodeList
	branch  int  // the depth at which the current execution leaves the last one
	pick    bool // the node at branch must take its next wakeup branch
	started bool
	stats   Stats
	// diverged says how a replayed step differed from the recorded one.
	diverged error
	// failedBefore records that an execution failed: from then on the
	// races of replayed prefixes are analysed again (see analysis.run).
	failedBefore bool
	// epoch counts the executions and the operations that make the
	// records of covered reversals stale (coverStale: the least epoch of
	// a record still valid; cover.go).
	epoch, coverStale uint64
	// settled counts the reversals found covered from those records (not
	// in Stats: a divided exploration, whose units make records stale,
	// settles fewer).
	settled int
	// resumed counts the walks of wakeup trees resumed below the levels
	// an earlier check took (resumeAt), likewise.
	resumed int

	// cur is the state of the current execution after its first applied
	// events, for the labels of receives and selects when the runtime
	// does not give them (traceLabelOf); steps counts each thread's steps
	// after its first seen events.
	cur     world
	applied int
	steps   []int32
	tn      trace.ThreadNames
	seen    int
	// lastSleep is the position of the last of the first seen events
	// that ends a sleep with time that moves only when every thread is
	// blocked (analysis.lastSleep), or -1.
	lastSleep int
	// syncThreads and syncObjects are the numbers of threads and objects
	// steps, tn and nm have room for and name (sync), -1 before the
	// first.
	syncThreads, syncObjects int
	// opsAt is the step whose pending operations cur holds, or -1.
	opsAt int
	nm    names

	an analysis

	// rand, if set, orders the free choices at random (Options.Seed);
	// pcg is its source, whose state units carry (unit.go).
	rand *rand.Rand
	pcg  *rand.PCG
	seed int64

	// floor is the depth of the root of the unit s was resumed from (0 if
	// none): the states above it are frozen copies, which Next never
	// backtracks into and whose new wakeup sequences go into the
	// handback (unit.go).
	floor int
	units unitLog
	mail  mailState

	logf func(format string, args ...any)
	stop *strategy.Stop
}

// SetStop implements strategy.Stoppable: Finish abandons the race
// analysis of an execution once stop reports a bound passed.
func (s *Strategy) SetStop(stop *strategy.Stop) { s.stop = stop }

var _ strategy.Stoppable = (*Strategy)(nil)

// Options configures the strategy.
type Options struct {
	// Seed, if not zero, randomises the order of exploration: a state
	// whose wakeup tree is empty takes a random enabled event not in its
	// sleep set instead of the first in thread order (the first from a
	// random thread on). The traces explored are the same, one execution
	// each, in another order.
	Seed int64
}

// SetLog makes the strategy describe its decisions to logf (for debugging).
func (s *Strategy) SetLog(logf func(format string, args ...any)) { s.logf = logf }

// SetVerify makes the strategy check the work it keeps from one execution
// to the next (the happens-before of the replayed prefix) against a
// computation from scratch, and panic if they differ: slow, for tests.
func (s *Strategy) SetVerify(on bool) { s.an.hb.verify = on }

// New returns an Optimal-DPOR strategy that explores in thread order.
func New() *Strategy { return &Strategy{} }

// NewWith returns an Optimal-DPOR strategy with options o.
func NewWith(o Options) *Strategy {
	s := &Strategy{seed: o.Seed}
	if o.Seed != 0 {
		s.pcg = rand.NewPCG(uint64(o.Seed), 0x9e3779b97f4a7c15)
		s.rand = rand.New(s.pcg)
	}
	return s
}

// Stats returns what the strategy did so far.
func (s *Strategy) Stats() Stats {
	st := s.stats
	st.WakeupNodes += s.nm.nodes
	return st
}

// Next implements strategy.Strategy.
func (s *Strategy) Next() bool {
	if s.diverged != nil {
		return false // the program is not deterministic: nothing to explore
	}
	if !s.started {
		// A strategy resumed from a unit starts at the unit's root, whose
		// branch explored last is in its sleep set already (Split).
		s.started = true
		s.epoch++
		s.branch, s.pick = s.floor, true
		s.resetCur()
		return true
	}
	s.mail.awaiting = false
	for d := s.nodes.Len() - 1; d >= s.floor; d-- {
		n := s.nodes.At(d)
		if n.out > 0 {
			s.closeMail(n)
			s.wait(d)
			return false
		}
		if s.frozen(n) {
			s.mail.awaiting = true // a letter may still end here (mail.go)
			return false
		}
		if len(n.wut) == 0 {
			continue
		}
		// The branch explored from d is done: it joins the sleep set,
		// unless it is a branch handed out, which its unit explores.
		if !n.retired && (len(n.given()) == 0 || !s.isGiven(n)) {
			n.sleep = append(n.sleep, n.ev)
		}
		n.retired = false
		n.sub = n.sub[:0]
		s.epoch++
		n.epoch = s.epoch
		if n.recs != nil {
			n.recs.covered = n.recs.covered[:0]
		}
		// The states below d leave the stack as they are: newNode
		// empties a state when it is pushed again.
		s.nodes.SetLen(d + 1)
		s.branch, s.pick = d, true
		s.resetCur()
		return true
	}
	return false
}

// resetCur prepares the view of the current execution.
func (s *Strategy) resetCur() {
	s.seen, s.applied, s.lastSleep = 0, 0, -1
	s.syncThreads, s.syncObjects = -1, -1
	s.steps = s.steps[:0]
	s.nm.reset()
	s.tn.Reset()
	s.cur.Reset(nil, 0)
}

// sync applies to the view of the current execution the events of tr up to
// upto, and records in its node a step not replayed whose next state needs
// it.
//
// st is the state after event upto-1, or nil at the end of the execution.
// The work is split so that replaying a step, the common case, takes little
// stack: Choose runs on the goroutines of the program under test, which
// start small.
func (s *Strategy) sync(tr *trace.Trace, upto int, st *strategy.State) {
	if len(tr.Threads) != s.syncThreads || len(tr.Objects) != s.syncObjects {
		// Threads and objects start at a few steps only.
		for len(s.steps) < len(tr.Threads) {
			s.steps = append(s.steps, 0)
		}
		s.nm.sync(tr.Objects)
		s.tn.Sync(tr.Threads)
		s.syncThreads, s.syncObjects = len(tr.Threads), len(tr.Objects)
	}
	for ; s.seen < upto; s.seen++ {
		i := s.seen
		e := &tr.Events[i]
		if i < s.nodes.Len() && i >= s.branch && len(s.nodes.At(i).sleep) > 0 {
			// The next state's sleep set needs the step (Choose); the
			// others are recorded by Finish.
			s.record(tr, i, upto, st)
		}
		if sleepOpWhenBlocked(&e.Op) {
			s.lastSleep = i
		}
		s.steps[e.Thread]++
		if e.Partner != trace.NoThread {
			s.steps[e.Partner]++
		}
	}
}

// curWorld returns the state of the current execution after the events
// before st, with the threads' pending operations if ops.
//
//go:noinline
func (s *Strategy) curWorld(st *strategy.State, ops bool) *world {
	w, tr := &s.cur, st.Trace
	w.Grow(tr.Objects, len(tr.Threads))
	for ; s.applied < st.Step; s.applied++ {
		w.Apply(&tr.Events[s.applied])
	}
	if ops && s.opsAt != st.Step {
		for i := range st.Threads {
			w.Threads[i].Op, w.Threads[i].Done = st.Threads[i].Op, st.Threads[i].Done
		}
		s.opsAt = st.Step
	}
	return w
}

// record records event i of tr, which the execution did not replay, in its
// node.
//
//go:noinline
func (s *Strategy) record(tr *trace.Trace, i, upto int, st *strategy.State) {
	// Field by field, in place: this runs on the program's goroutines, whose
	// stacks start small, and an event is large.
	e := &tr.Events[i]
	ev := &s.nodes.At(i).ev
	*ev = event{}
	ev.Event = *e
	s.nm.own(&ev.Event)
	ev.step, ev.pstep, ev.spawnLo = s.steps[e.Thread], -1, trace.NoThread
	if e.Partner != trace.NoThread {
		ev.pstep = s.steps[e.Partner]
	}
	if e.Spawned > 0 {
		ev.spawnLo = spawnLo(tr, i)
	}
	nameThreads(&s.tn, ev)
	if i == upto-1 && st != nil {
		ev.setAnn(s.nm.announced(e, ev.spawnLo, tr.Objects, func(t trace.ThreadID) trace.Op { return st.Threads[t].Op }))
	} else {
		ev.setAnn(s.nm.announced(e, ev.spawnLo, tr.Objects, func(t trace.ThreadID) trace.Op { return nextOp(tr, i, t) }))
	}
	ev.cache()
}

// nextOp returns the operation thread t has pending after event i of tr:
// that of its next event, or its final one.
func nextOp(tr *trace.Trace, i int, t trace.ThreadID) trace.Op {
	for j := i + 1; j < len(tr.Events); j++ {
		if e := &tr.Events[j]; e.Thread == t {
			return e.Op
		} else if e.Partner == t {
			return e.PartnerOp
		}
	}
	if int(t) < len(tr.Final) {
		return tr.Final[t]
	}
	return trace.Op{}
}

// spawnLo returns the first thread started in the local code of event i.
func spawnLo(tr *trace.Trace, i int) trace.ThreadID {
	for t, th := range tr.Threads {
		if int(th.Step) == i {
			return trace.ThreadID(t)
		}
	}
	return trace.NoThread
}

// Choose implements strategy.Strategy.
func (s *Strategy) Choose(st *strategy.State) strategy.Choice {
	d := st.Step
	s.sync(st.Trace, d, st)
	if d < s.branch || (d == s.branch && !s.pick) {
		n := s.nodes.At(d)
		// Objects are compared by class only: the node holds them by the
		// strategy's own names (names.go).
		if p := n.ev.Thread; !st.Enabled(p) || st.Threads[p].Op.Kind != n.ev.Op.Kind || st.Threads[p].Op.Class != n.ev.Op.Class || n.alt >= st.Threads[p].Alts {
			s.diverged = replayDiverged(d, p, n.ev.Op, n.alt, st)
			return strategy.Cut
		}
		return strategy.Choice{Thread: n.ev.Thread, Alt: n.alt}
	}
	return s.choose(st, d)
}

// replayDiverged says how state st of step d differs from the recorded
// one, where p ran op, alternative alt.
func replayDiverged(d int, p trace.ThreadID, op trace.Op, alt int32, st *strategy.State) error {
	op = trace.Op{Kind: op.Kind, Class: op.Class, Obj: trace.NoObject} // its object is in the strategy's names
	switch {
	case int(p) >= len(st.Threads):
		return fmt.Errorf("step %d: recorded %v with %v, but the execution has no thread %v", d+1, p, op, p)
	case st.Threads[p].Alts == 0:
		return fmt.Errorf("step %d: recorded %v with %v, but it is blocked or finished (%v)", d+1, p, op, st.Threads[p].Op)
	case alt >= st.Threads[p].Alts:
		return fmt.Errorf("step %d: recorded %v with %v, alternative %d, but it has %d alternatives", d+1, p, op, alt, st.Threads[p].Alts)
	}
	return fmt.Errorf("step %d: recorded %v with %v, but it has %v pending", d+1, p, op, st.Threads[p].Op)
}

// Diverged reports how the last execution failed to replay the recorded
// prefix (the program is not deterministic), or nil.
func (s *Strategy) Diverged() error { return s.diverged }

var _ strategy.Diverger = (*Strategy)(nil)

// choose decides step d, which the execution does not replay.
//
//go:noinline
func (s *Strategy) choose(st *strategy.State, d int) strategy.Choice {
	// The pending operations are copied only if a receive or select asks
	// for its partners (labelOf): with many threads, copying them at every
	// step cost more than the rest of choose.
	s.opsAt = -1
	if d >= s.nodes.Len() {
		s.newNode(st, d)
	}
	s.pick = false
	n := s.nodes.At(d)
	for len(n.wut) > 0 {
		c := n.wut[0]
		// Shifted, not resliced: the list keeps its memory.
		n.wut = n.wut[:copy(n.wut, n.wut[1:])]
		l := c.k
		alt, ok := s.altOf(st, l)
		if !ok {
			s.nm.freeTree(c)
			s.stats.Infeasible++
			continue
		}
		if s.logf != nil {
			s.log("node %d: wakeup branch %v (sleep %v)", d, c.ev, n.sleep)
		}
		// The node takes the subtree; the wakeup-tree node is free.
		n.sub = append(n.sub[:0], c.children...)
		n.takenGiven = c.given
		if len(n.given()) > 0 {
			s.takeGiven(n, l)
		}
		s.nm.free(c)
		return s.take(n, st, l, alt)
	}
	// A leaf (or no wakeup tree): any enabled event not in the sleep set.
	// The enabled threads from start on, then those before it.
	start := trace.ThreadID(s.freeStart(len(st.Threads)))
	t, wrapped := st.NextEnabled(start), false
	if t == trace.NoThread {
		t, wrapped = st.NextEnabled(0), true
	}
	for ; t != trace.NoThread && !(wrapped && t >= start); t, wrapped = nextFree(st, t, wrapped) {
		for a := range st.Threads[t].Alts {
			l, ok := s.labelOf(st, t, a)
			if !ok || !asleep(n.sleep, l) {
				if s.logf != nil && len(n.sleep) > 0 {
					s.log("node %d: free %v (sleep %v)", d, t, n.sleep)
				}
				return s.take(n, st, l, a)
			}
		}
	}
	s.stats.SleepBlocked++
	if s.logf != nil {
		s.log("node %d: sleep-set blocked (sleep %v)", d, nil, n.sleep)
	}
	return strategy.Cut
}

// nextFree returns the enabled thread after t in the order of free
// choices (the enabled threads from a start on, then those before it) and
// whether the order wrapped around past the last thread.
func nextFree(st *strategy.State, t trace.ThreadID, wrapped bool) (trace.ThreadID, bool) {
	if next := st.NextEnabled(t + 1); next != trace.NoThread || wrapped {
		return next, wrapped
	}
	return st.NextEnabled(0), true
}

// freeStart returns the thread a free choice tries first, the others
// following in thread order, wrapping around: 0, or a random thread
// (Options.Seed).
func (s *Strategy) freeStart(n int) int {
	if s.rand == nil || n == 0 {
		return 0
	}
	return s.rand.IntN(n)
}

// refresh gives event e, the first of a wakeup branch from state st, the
// operations its threads have pending there, with this execution's object
// numbers (see names.go).
func (s *Strategy) refresh(e *event, st *strategy.State) {
	if t := s.tn.Current(e.sth); t != trace.NoThread && int(t) < len(st.Threads) && s.steps[t] == e.step {
		e.Op = s.nm.op(t, st.Threads[t].Op)
	}
	if t := s.tn.Current(e.spart); t != trace.NoThread && int(t) < len(st.Threads) && s.steps[t] == e.pstep {
		e.PartnerOp = s.nm.op(t, st.Threads[t].Op)
	}
	e.cache()
}

// newNode adds state d: its sleep set is the parent's, minus the events
// dependent with the step taken; its wakeup tree is the subtree of the
// branch followed.
//
//go:noinline
func (s *Strategy) newNode(st *strategy.State, d int) {
	s.nodes.SetLen(d + 1)
	n := s.nodes.At(d)
	// It holds what it held when it was last on the stack, if it was.
	n.clear()
	n.epoch = s.epoch
	if d > 0 {
		p := s.nodes.At(d - 1)
		for i := range p.sleep {
			if !s.nm.dependent(&p.sleep[i], &p.ev) {
				n.sleep = append(n.sleep, p.sleep[i])
			} else if s.logf != nil {
				s.log("node %d: %v wakes %v", d, &p.ev, &p.sleep[i])
			}
		}
		if len(p.subGiven()) > 0 || len(p.before()) > 0 {
			s.inheritGiven(n, p)
		}
		n.gstate = p.gstate && p.takenGiven && len(p.sub) > 0
		n.inherited = len(n.sleep)
		n.wut, p.sub = append(n.wut, p.sub...), p.sub[:0]
		for _, c := range n.wut {
			s.refresh(c.ev, st)
		}
	}
	if d+1 > s.stats.MaxDepth {
		s.stats.MaxDepth = d + 1
	}
}

// take records that node n takes the event labelled l (stable thread
// names; alternative alt of its thread), with a provisional event that the
// trace's will replace.
func (s *Strategy) take(n *node, st *strategy.State, l label, alt int32) strategy.Choice {
	p, q := s.tn.Current(l.thread), s.tn.Current(l.partner)
	n.alt = alt
	ev := &n.ev
	*ev = event{}
	ev.Thread, ev.Alt, ev.Op, ev.Case, ev.Partner, ev.PartnerCase, ev.OK = p, alt, s.nm.op(p, st.Threads[p].Op), l.cas, q, l.pcas, true
	ev.step, ev.pstep, ev.spawnLo = l.step, l.pstep, trace.NoThread
	ev.sth, ev.spart, ev.sjoin = l.thread, l.partner, trace.NoThread
	if ev.Op.Kind == trace.KindJoin {
		ev.sjoin = s.tn.Stable(trace.ThreadID(ev.Op.Arg))
	}
	if q != trace.NoThread {
		ev.PartnerOp = s.nm.op(q, st.Threads[q].Op)
	}
	ev.cache()
	if l.cas <= -2 && st.Threads[p].Alts > 1 {
		s.siblings(n, st, alt)
	}
	return strategy.Choice{Thread: p, Alt: alt}
}

// siblings makes the other alternatives of the step node n takes, alt of a
// receive or select the enabledness model cannot name (a timer's channel
// among its cases), branches of n's wakeup tree: the races that would
// reverse them are not found without the model, so each is explored, as
// exhaustive search would.
//
//go:noinline
func (s *Strategy) siblings(n *node, st *strategy.State, alt int32) {
	p, k := n.ev.Thread, n.ev.step
	sp := n.ev.sth
	// Alternatives are told apart by their index: once explored, the
	// event in the sleep set is the trace's, with the case it took.
	same := func(e *event, a int32) bool { return e.sth == sp && e.step == k && e.Alt == a }
	for a := range st.Threads[p].Alts {
		if a == alt {
			continue
		}
		if slices.ContainsFunc(n.sleep, func(e event) bool { return same(&e, a) }) ||
			slices.ContainsFunc(n.wut, func(c *wnode) bool { return same(c.ev, a) }) {
			continue
		}
		c := s.nm.alloc()
		ev := n.ev
		ev.Alt, ev.Case = a, -2-a
		ev.cache()
		c.set(&ev)
		n.wut = append(n.wut, c)
		s.nm.nodes++
	}
}

// asleep reports whether the event labelled l (stable thread names) is in
// sleep set z.
func asleep(z []event, l label) bool {
	for i := range z {
		if z[i].key() == l {
			return true
		}
	}
	return false
}

// labelOf returns the label of alternative a of thread p in state st, with
// stable thread names. ok is false if the enabledness model disagrees with
// the runtime there.
func (s *Strategy) labelOf(st *strategy.State, p trace.ThreadID, a int32) (label, bool) {
	l, ok := s.traceLabelOf(st, p, a)
	l.thread, l.partner = s.tn.Stable(l.thread), s.tn.Stable(l.partner)
	return l, ok
}

// traceLabelOf is labelOf with the trace's thread numbers.
func (s *Strategy) traceLabelOf(st *strategy.State, p trace.ThreadID, a int32) (label, bool) {
	op := st.Threads[p].Op
	if !multi(op) {
		return label{thread: p, step: s.steps[p], cas: -1, partner: trace.NoThread, pcas: -1}, true
	}
	if st.Alternatives != nil {
		// The runtime tells: the model need not (it cannot, for a timer's
		// channel, whose sender is offered from its deadline on).
		d := st.Alternatives.Alternative(p, a)
		l := label{thread: p, step: s.steps[p], cas: d.Case, partner: d.Partner, pcas: d.PartnerCase}
		if d.Partner != trace.NoThread {
			l.pstep = s.steps[d.Partner]
		}
		return l, true
	}
	w := s.curWorld(st, true)
	var got label
	k := int32(0)
	v := labels(w, p, op, func(l label) bool {
		if k == a {
			got = l
		}
		k++
		return true
	})
	if v == model.Unknown || k != st.Threads[p].Alts {
		s.stats.Unmodelled++
		return label{thread: p, step: s.steps[p], cas: -2 - a, partner: trace.NoThread, pcas: -1}, false
	}
	return got, true
}

// altOf returns the alternative of the event labelled l (stable thread
// names) in state st.
func (s *Strategy) altOf(st *strategy.State, l label) (int32, bool) {
	p := s.tn.Current(l.thread)
	if p == trace.NoThread || int(p) >= len(st.Threads) || st.Threads[p].Alts == 0 || s.steps[p] != l.step {
		return 0, false
	}
	for a := range st.Threads[p].Alts {
		// An alternative the model cannot name matches by its index
		// (siblings).
		if m, _ := s.labelOf(st, p, a); m == l {
			return a, true
		}
	}
	return 0, false
}

// Input implements strategy.Strategy: inputs take their default values.
func (s *Strategy) Input(_ *strategy.State, in strategy.InputRequest) uint64 { return in.Default }

// Finish implements strategy.Strategy: it records the execution's events
// in their nodes and inserts into the wakeup trees the reversals of its
// races.
func (s *Strategy) Finish(tr *trace.Trace, end trace.End) {
	if s.diverged != nil {
		return
	}
	if len(tr.Evals) > 0 {
		s.awaits = true
	}
	if s.nodes.Len() > len(tr.Events)+1 {
		for i := len(tr.Events) + 1; i < s.nodes.Len(); i++ {
			s.nodes.At(i).clear()
		}
		s.nodes.SetLen(len(tr.Events) + 1)
	}
	// Objects and threads registered after the last Choose (announced by
	// the last step, or started by it) are named here.
	s.nm.sync(tr.Objects)
	s.tn.Sync(tr.Threads)
	if len(tr.Merged) > 0 {
		s.merge(tr)
	}
	s.an.run(s, tr, end)
}

// Incomplete implements strategy.Incomplete: on a body with w.Await,
// optimal can miss a trace (a waiter that reaches its await late reads
// fewer variables than it would have earlier, and no pending step of it
// is analysed in the states before; package doc, Awaits).
func (s *Strategy) Incomplete() string {
	if !s.awaits {
		return ""
	}
	return "the body waits in w.Await, where optimal can miss a trace (a waiter that reaches its await late reads fewer variables than earlier); explore it with dpor+sleep, which covers every trace of such bodies"
}

// staleCovers makes every record of a covered reversal stale (cover.go):
// the wakeup trees or the names changed otherwise than by insertion.
func (s *Strategy) staleCovers() {
	s.epoch++
	s.coverStale = s.epoch
}
