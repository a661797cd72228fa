// This file implements the strategy: the testing algorithm of Kähkönen et al. 2014
// Fig. 8 on weft's strategy interface.

package unfold

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/weft-go/weft/solver"
	"github.com/weft-go/weft/strategy"
	"github.com/weft-go/weft/trace"
)

// Options configures the strategy.
type Options struct {
	// Seed, if not zero, randomises the free part of each test (after the
	// target's local configuration): which enabled thread runs, among
	// those the greedy rule leaves. The unfolding is the same whatever the
	// seed (Kähkönen et al. 2014, §4.6); the number of tests may differ.
	Seed int64
	// Naive computes the possible extensions the naive way (Fig. 10)
	// instead of the efficient one (§5): same unfolding, much slower.
	Naive bool
	// NoDeadlocks turns off the search of the unfolding for deadlocks
	// (§4.4) and the executions that reach those it finds.
	NoDeadlocks bool
	// Plain turns off the greedy rule of the free part of a test. By
	// default an enabled thread whose next event is a possible extension
	// runs first, so that one test covers several targets (§4.6); with
	// Plain the first enabled thread runs (a random one, with Seed).
	// Either way, a step known to fail runs only when no other can.
	Plain bool
	// NewSolver makes the solver of the path constraints (Kähkönen et al. 2014
	// §4.3), when the first target or deadlock with one is met: a
	// program whose branches on inputs never matter needs none. If it is
	// nil, such a program is refused (Err wraps ErrNoSolver). Package
	// github.com/weft-go/weft/concolic gives weft.WithStrategy("unfold")
	// a Z3 solver.
	NewSolver func() (solver.Solver, error)
}

// Stats counts what the strategy built and did.
type Stats struct {
	// Events is the number of events of the unfolding; Conditions its
	// conditions, Places the places of the program's net they are copies
	// of (Copies of them the copies of variables).
	Events, Conditions, Places, Copies int
	// Tests is the number of executions: the first, Targets tests with a
	// target event, and DeadlockTests, AdvanceTests and Probes (below).
	Tests, Targets int
	// Extensions is the number of events found as possible extensions or
	// met by an execution before being found (every event of the
	// unfolding is one of these).
	Extensions int
	// Pending is the number of possible extensions not in the unfolding.
	Pending int
	// Infeasible is the number of targets and deadlocks dropped because
	// their path constraints are unsatisfiable (Kähkönen et al. 2014, §4.3, §4.4).
	Infeasible int
	// CoChecks counts the concurrency checks, Visited the memory access
	// sets the efficient search visited.
	CoChecks, Visited int
	// Deadlocks is the number of deadlocks the search of the unfolding
	// found (§4.4), DeadlockTests the executions run to reach those no
	// test had reached, DeadlockTime the time the search took (the
	// paper's DL column).
	Deadlocks, DeadlockTests int
	DeadlockTime             time.Duration
	// DeadlockSearchCut is 1 if the search for markings where threads are
	// blocked on RWMutexes, Onces or channels stopped at its budget (the
	// deadlocks it did not reach are found only if a test runs into
	// them), 0 otherwise.
	DeadlockSearchCut int
	// Retried counts the targets taken again because their test failed
	// before reaching them, in a branch on inputs that their path
	// constraints now avoid (a thread fails in the local code of a step
	// of their local configuration).
	Retried int
	// AdvanceTests counts the tests run to reach a marking where every
	// live thread is blocked and a deadline lies ahead (a sleeper's, an
	// armed timer's), which the search of the
	// unfolding found and no test had reached: time moves there (its
	// local configuration, then a free run).
	AdvanceTests int
	// Probes counts the tests run to reach a marking where the condition
	// of a w.Await was never evaluated: its local configuration, then a
	// free run.
	Probes int
	// Unexpected counts the enabled events the free part of a test met,
	// and the events executions ran, that were neither in the unfolding
	// nor possible extensions: 0 when the possible extensions are
	// complete.
	Unexpected int
}

// Strategy is the unfolding strategy. Its zero value is not usable; use
// New.
type Strategy struct {
	opts Options
	n    *net
	tn   threadNames
	on   objectNames
	rnd  *rand.Rand
	pcg  *rand.PCG // rnd's source
	u    unitState // units of work (unit.go)

	started bool
	begun   bool    // the current execution's initial marking is set
	initial []int32 // the initial thread conditions, by ThreadID
	marking []int32 // per place: its condition in the current marking, -1 if none
	seen    int     // events of the current execution modelled
	target  int32   // the current test's target, -1 for the first
	sched   []int32 // the events to run: the target's local configuration in insertion order
	next    int     // the first extension not yet tried as a target
	// dls are the deadlocks found, to run, once every extension is in
	// the unfolding; searched reports the search was made. stuck lists,
	// per execution that ended with threads blocked, the thread
	// conditions where they were.
	dls      [][]int32
	searched bool
	// searchedAt is the size of the unfolding at the last search; advs
	// are the markings of the advances of time it found, to run
	// (sleep.go), advModels their inputs; advRun those run, each once.
	searchedAt int32
	advs       [][]int32
	advModels  []solver.Model
	advRun     map[string]bool
	stuck      [][]int32
	dlModels   []solver.Model // the inputs of each deadlock of dls
	// tried maps the targets tried to the size of the path constraint of
	// their last test (retry).
	tried  map[int32]int
	sym    execSym
	reads  readLocks // the read locks of the current execution's threads
	err    error     // why the exploration stopped: a refusal, a divergence, no solver
	failed bool      // err is no divergence: Err, not Diverged, returns it
	// evalSeen counts the evaluations of w.Await conditions of the
	// current execution taken in; lastEval holds each stable thread's
	// last one's loads (condawait.go). nextProbe is the first probe not
	// yet run.
	evalSeen  int
	lastEval  map[int32]awaitEval
	nextProbe int
	pre       []int32 // scratch
	buf       []int32 // scratch
	tbuf      []int32 // scratch: liveThreads's places
	// objs are the objects of the execution being modelled: a timer's
	// first deadline (trace.ObjectInfo.When).
	objs []trace.ObjectInfo
	// cut holds the threads whose last local code the failure of the
	// execution being finished cut short (interrupt.go).
	cut map[trace.ThreadID]bool
}

// New returns an unfolding strategy.
func New(o Options) *Strategy {
	s := &Strategy{opts: o, n: newNet(), target: -1, lastEval: map[int32]awaitEval{}}
	s.n.naive = o.Naive
	s.n.sym.newSolver = o.NewSolver
	if o.Seed != 0 {
		s.pcg = newPCG(o.Seed)
		s.rnd = rand.New(s.pcg)
	}
	return s
}

// Stats returns what the strategy built and did so far.
func (s *Strategy) Stats() Stats {
	st := s.n.stats
	st.Events = int(s.n.size)
	st.Conditions = len(s.n.conds)
	st.Places = len(s.n.places)
	st.Pending = 0
	for _, e := range s.n.exts[s.next:] {
		if !s.n.events[e].in() {
			st.Pending++
		}
	}
	return st
}

// Counters implements strategy.Counting: the size of the unfolding, the
// net (the paper's Table 2 column of events), and the deadlocks its search
// found, for the Result; and, if there are any, the targets and deadlocks
// dropped as unsatisfiable and whether the search for stuck markings
// stopped at its budget.
func (s *Strategy) Counters() []strategy.Counter {
	st := s.Stats()
	cs := []strategy.Counter{
		{Name: "net events", Value: int64(st.Events)},
		{Name: "net conditions", Value: int64(st.Conditions)},
		{Name: "net deadlocks", Value: int64(st.Deadlocks)},
	}
	if st.Infeasible > 0 {
		cs = append(cs, strategy.Counter{Name: "net infeasible", Value: int64(st.Infeasible)})
	}
	if st.DeadlockSearchCut > 0 {
		cs = append(cs, strategy.Counter{Name: "net deadlock search cut", Value: int64(st.DeadlockSearchCut)})
	}
	return cs
}

// Err implements strategy.Failer: it returns why the strategy cannot
// explore the program, a primitive it does not model (wrapping
// ErrUnmodelled), a path constraint it has no solver for (wrapping
// ErrNoSolver) or its solver's error, or nil. The driver ends the exploration with it as the
// error of Explore (and Check fails the test with it).
func (s *Strategy) Err() error {
	if s.failed || errors.Is(s.err, ErrUnmodelled) {
		return s.err
	}
	return nil
}

// Diverged implements strategy.Diverger: how the program did not follow
// the unfolding (it is not deterministic), or nil. The driver reports it
// as a failure and ends the exploration.
func (s *Strategy) Diverged() error {
	if s.failed || errors.Is(s.err, ErrUnmodelled) {
		return nil
	}
	return s.err
}

// fail records err, which is no divergence (no solver, a solver's error),
// as the reason to stop, if there is none yet.
func (s *Strategy) fail(err error) {
	if s.err == nil {
		s.err, s.failed = err, true
	}
}

// diverge records err as the reason to stop, if there is none yet.
func (s *Strategy) diverge(err error) {
	if s.err == nil {
		s.err = err
	}
}

// Next implements strategy.Strategy: it picks the next target among the
// possible extensions (Fig. 8, lines 3-5) and the schedule that reaches
// it, its local configuration in insertion order (§4.3).
func (s *Strategy) Next() bool {
	if s.u.resumed {
		// A unit's strategy runs the unit's test alone.
		if s.u.took {
			return false
		}
		s.u.took = true
	}
	ok := s.nextTest()
	s.logNext(ok)
	return ok
}

// nextTest is Next without the log of units.
func (s *Strategy) nextTest() bool {
	if s.err != nil {
		return false
	}
	if !s.started {
		s.started = true
		s.reset(-1, nil)
		return true
	}
	n := s.n
	for s.next < len(n.exts) {
		if n.stop.Poll() {
			return false // a bound of the exploration passed: it ends here
		}
		e := n.exts[s.next]
		s.next++
		if n.events[e].in() {
			continue
		}
		cs := n.constraint(n.events[e].pre, []int32{e})
		model, ok, err := s.solve(cs)
		if err != nil {
			s.fail(err)
			return false
		}
		if s.tried != nil || len(cs) > 0 {
			if s.tried == nil {
				s.tried = map[int32]int{}
			}
			s.tried[e] = len(cs)
		}
		if !ok {
			n.stats.Infeasible++ // the paper's cut event
			continue
		}
		s.reset(e, model)
		n.stats.Targets++
		return true
	}
	for s.nextProbe < len(n.probes) {
		p := n.probes[s.nextProbe]
		s.nextProbe++
		if n.probeDone(p) {
			continue
		}
		pre := p.pre
		model, ok, err := s.solve(n.constraintWith(pre, nil, n.paths.constraints(p.prefix)))
		if err != nil {
			s.fail(err)
			return false
		}
		if !ok {
			n.stats.Infeasible++
			continue
		}
		s.reset(-1, model)
		s.sched = n.schedule(s.sched, n.past(pre))
		n.stats.Probes++
		return true
	}
	if s.opts.NoDeadlocks {
		return false
	}
	if !s.searched || (n.sleeps && !n.clk.on && len(s.dls) == 0 && len(s.advs) == 0 && s.searchedAt != n.size) {
		// With sleeps, the advances a search finds add events, and the
		// unfolding is searched again once they are in and extended.
		s.searched, s.searchedAt = true, n.size
		n.stats.Deadlocks = 0 // a Join may make it search again
		start := time.Now()
		for _, d := range n.deadlocks() {
			if n.stop.Poll() {
				return false
			}
			// FilterUnsat (Fig. 11): a deadlock whose path constraint
			// is unsatisfiable is not one.
			model, ok, err := s.solve(n.constraintWith(d, nil, n.blockedConstraint(d)))
			if err != nil {
				s.fail(err)
				return false
			}
			if !ok {
				n.stats.Infeasible++
				continue
			}
			n.stats.Deadlocks++
			if !s.reached(d) {
				s.dls = append(s.dls, d)
				s.dlModels = append(s.dlModels, model)
			}
		}
		for _, m := range n.advances {
			if e := n.find(m, 0); (e >= 0 && n.events[e].in()) || s.advRun[fmt.Sprint(m)] {
				continue // a test ran it, or was run to it
			}
			model, ok, err := s.solve(n.constraint(m, nil))
			if err != nil {
				s.fail(err)
				return false
			}
			if !ok {
				n.stats.Infeasible++
				continue
			}
			s.advs = append(s.advs, m)
			s.advModels = append(s.advModels, model)
		}
		n.stats.DeadlockTime += time.Since(start)
	}
	for len(s.advs) > 0 {
		m, model := s.advs[0], s.advModels[0]
		s.advs, s.advModels = s.advs[1:], s.advModels[1:]
		if e := n.find(m, 0); e >= 0 && n.events[e].in() {
			continue // an earlier test ran it
		}
		if s.advRun == nil {
			s.advRun = map[string]bool{}
		}
		s.advRun[fmt.Sprint(m)] = true
		s.reset(-1, model)
		s.sched = n.schedule(s.sched, n.past(m))
		n.stats.AdvanceTests++
		return true
	}
	if len(s.dls) > 0 {
		d, model := s.dls[0], s.dlModels[0]
		s.dls, s.dlModels = s.dls[1:], s.dlModels[1:]
		s.reset(-1, model)
		s.sched = n.schedule(s.sched, n.past(d))
		n.stats.DeadlockTests++
		return true
	}
	return false
}

// recordStuck records, if the execution that ended so ended with threads
// blocked (a deadlock, a leak, or a loop that yields assumed away where
// no thread could move), the thread conditions of its final marking,
// after the advances of time the runtime made there (timePasses).
func (s *Strategy) recordStuck(end trace.End) {
	s.timePasses(end)
	stuck := end.Status == trace.Failed && (end.Kind == trace.Deadlock || end.Kind == trace.Leak) ||
		end.Status == trace.Assumed && !end.InStep()
	if !stuck || s.err != nil {
		return
	}
	var st []int32
	for _, tp := range s.n.threads {
		if int(tp) < len(s.marking) && s.marking[tp] >= 0 {
			st = append(st, s.marking[tp])
		}
	}
	s.stuck = append(s.stuck, st)
}

// reached reports whether an execution ended with its threads blocked at
// every condition of d where a thread is blocked.
func (s *Strategy) reached(d []int32) bool {
	for _, st := range s.stuck {
		all := true
		for _, c := range s.n.blockedOf(d) {
			all = all && slices.Contains(st, c)
		}
		if all {
			return true
		}
	}
	return false
}

// reset prepares an execution whose target is e (-1: none), with the
// inputs of model (nil: the defaults).
func (s *Strategy) reset(e int32, model solver.Model) {
	s.target, s.seen, s.begun = e, 0, false
	s.evalSeen = 0
	clear(s.lastEval)
	s.tn.Reset()
	s.on.reset()
	s.resetSym(model)
	s.sched = s.sched[:0]
	if e >= 0 {
		s.sched = s.n.schedule(s.sched, append(s.n.past(s.n.events[e].pre), e))
	}
}

// schedule appends to sched the events of es that are steps, not
// branches: the steps to run, in order.
func (n *net) schedule(sched, es []int32) []int32 {
	for _, e := range es {
		if n.events[e].side == noSide && !isAdvance(n.events[e].op) {
			sched = append(sched, e)
		}
	}
	return sched
}

// sync names the threads and objects of tr, refuses the operations the
// strategy does not model, and models the events of tr up to upto.
func (s *Strategy) sync(tr *trace.Trace, upto int, now nowFunc, fatal bool) {
	s.objs = tr.Objects
	s.tn.Sync(tr.Threads, tr.Events)
	s.on.sync(tr.Objects)
	if !s.on.merge(tr.Merged) {
		s.diverge(fmt.Errorf("%w: two names found to be one object (trace.Trace.Merged), which unfold does not join", ErrUnmodelled))
		return
	}
	if len(tr.Branches) > 0 {
		s.refuseOfStep(tr)
		if s.err != nil {
			return
		}
	}
	if !s.begun {
		s.begin(tr, now, fatal && upto == 0)
	}
	for ; s.seen < upto && s.err == nil; s.seen++ {
		if s.n.stop.Poll() {
			return // a bound of the exploration passed: it ends here
		}
		i := s.seen
		s.branches(tr, i, now)
		if s.err != nil {
			return
		}
		if len(tr.Evals) > s.evalSeen {
			s.learnEvals(tr, i)
			if s.err != nil {
				return
			}
		}
		if i == upto-1 {
			s.step(tr, i, now, fatal)
			continue
		}
		s.step(tr, i, func(id trace.ThreadID) (trace.Op, bool) { return pendingAfter(tr, i, id, now) }, false)
	}
	if s.err == nil {
		s.branches(tr, upto, now)
	}
	if s.err == nil && len(tr.Evals) > s.evalSeen {
		s.learnEvals(tr, upto)
	}
}

// pendingAfter returns the pending operation of thread id after event i
// of tr (that of its next event, as the thread or as the partner of a
// receive, or now's), and whether it has finished.
func pendingAfter(tr *trace.Trace, i int, id trace.ThreadID, now nowFunc) (trace.Op, bool) {
	for j := i + 1; j < len(tr.Events); j++ {
		switch {
		case tr.Events[j].Thread == id:
			return tr.Events[j].Op, false
		case tr.Events[j].Partner == id:
			return tr.Events[j].PartnerOp, false // a sender a receive met
		}
	}
	return now(id)
}

// Choose implements strategy.Strategy: it models the last step, then runs
// the target's schedule and, past it, a thread whose next event is a
// possible extension if there is one.
func (s *Strategy) Choose(st *strategy.State) strategy.Choice {
	for i := range st.Threads {
		if err := s.refusal(st.Threads[i].Op, st.Trace.Objects); err != nil {
			s.diverge(err)
			return strategy.Cut
		}
	}
	now := func(id trace.ThreadID) (trace.Op, bool) {
		return st.Threads[id].Op, st.Threads[id].Done
	}
	s.sync(st.Trace, st.Step, now, false)
	if s.err != nil || s.n.stop.Fired() {
		return strategy.Cut
	}
	if d := st.Step; d < len(s.sched) {
		e := &s.n.events[s.sched[d]]
		id := s.tn.Current(trace.ThreadID(e.thread))
		if !st.Enabled(id) && e.op.kind == trace.KindAdvance {
			s.diverge(clockHidden(d, id))
			return strategy.Cut
		}
		if !st.Enabled(id) {
			s.diverge(fmt.Errorf("step %d: the schedule to the target runs thread %v, which is not enabled", d+1, id))
			return strategy.Cut
		}
		alt, ok := s.altOf(st, id, e)
		if !ok {
			s.diverge(fmt.Errorf("step %d: the schedule to the target runs thread %v with an alternative it does not have", d+1, id))
			return strategy.Cut
		}
		return strategy.Choice{Thread: id, Alt: alt}
	}
	return s.free(st)
}

// free chooses a step of the free part of a test: a new event (a possible
// extension) if there is one, else an event of the unfolding; the steps
// known to fail, or whose presets show a misuse (net.misuse), only when
// nothing else is enabled, new ones first. A failure ends the execution:
// run early, it would keep the test from completing where it can (a
// select that receives instead of sending on a closed channel), and from
// the deadlock a deadlock test runs to.
func (s *Strategy) free(st *strategy.State) strategy.Choice {
	var cands, all, newFatal, fatal []strategy.Choice
	for i := range st.Threads {
		id := trace.ThreadID(i)
		if !st.Enabled(id) {
			continue
		}
		op := st.Threads[i].Op
		for a := range st.Threads[i].Alts {
			alt := strategy.Alternative{Case: -1, Partner: trace.NoThread, PartnerCase: -1}
			if (op.Kind == trace.KindRecv || op.Kind == trace.KindSelect) && st.Alternatives != nil {
				alt = st.Alternatives.Alternative(id, a)
			} else if a > 0 {
				break // one event, whatever the alternative
			}
			c := strategy.Choice{Thread: id, Alt: a}
			e := s.nextEvent(id, op, alt)
			if e >= 0 && (s.n.events[e].fatal || s.n.misuse(e)) {
				if !s.n.events[e].in() {
					newFatal = append(newFatal, c)
				} else {
					fatal = append(fatal, c)
				}
				continue
			}
			all = append(all, c)
			if e < 0 {
				s.n.stats.Unexpected++
			} else if !s.opts.Plain && !s.n.events[e].in() {
				cands = append(cands, c)
			}
		}
	}
	if len(cands) == 0 {
		cands = all
	}
	if len(cands) == 0 {
		cands = newFatal
	}
	if len(cands) == 0 {
		cands = fatal
	}
	if s.rnd != nil {
		return cands[s.rnd.IntN(len(cands))]
	}
	return cands[0]
}

// altOf returns the alternative of thread id's pending operation in st
// that is event e: the select case e took, the sender e meets and its
// case.
func (s *Strategy) altOf(st *strategy.State, id trace.ThreadID, e *event) (int32, bool) {
	n := s.n
	cas, pcas := cases(e.alt)
	partner := trace.NoThread
	if n.rendezvous(e) {
		partner = s.tn.Current(trace.ThreadID(n.threadOf(e.pre[len(e.pre)-1])))
	}
	if st.Alternatives == nil || (e.op.kind != trace.KindSelect && partner == trace.NoThread) {
		return 0, true
	}
	for a := range st.Threads[id].Alts {
		alt := st.Alternatives.Alternative(id, a)
		if (e.op.kind != trace.KindSelect || alt.Case == cas) && alt.Partner == partner && alt.PartnerCase == pcas {
			return a, true
		}
	}
	return 0, false
}

// Finish implements strategy.Strategy: it models the rest of the
// execution and checks that the test reached its target.
func (s *Strategy) Finish(tr *trace.Trace, end trace.End) { s.finish(tr, end, 'f') }

// finish is Finish, which a Join (kind 'j') makes too: it logs the
// execution for units as that kind.
func (s *Strategy) finish(tr *trace.Trace, end trace.End, kind byte) {
	if s.err != nil {
		return
	}
	for _, op := range tr.Final {
		if err := s.refusal(op, tr.Objects); err != nil {
			s.diverge(err)
			return
		}
	}
	if end.Status == trace.Cut {
		s.diverge(fmt.Errorf("an execution was cut (%d steps)", len(tr.Events)))
		return
	}
	now := func(id trace.ThreadID) (trace.Op, bool) {
		op := tr.Final[id]
		return op, op.Kind == trace.KindNone
	}
	fatal := s.endFatal(tr, end)
	s.cutShort(tr)
	s.sync(tr, len(tr.Events), now, fatal)
	clear(s.cut)
	if s.n.stop.Fired() {
		return // the model is partial: the exploration ends here
	}
	s.n.stats.Tests++
	s.recordStuck(end)
	s.logExec(kind, tr, end)
	if s.err == nil && s.target >= 0 && !s.n.events[s.target].in() {
		if end.Status == trace.Failed && s.retry(s.target) {
			return
		}
		s.diverge(fmt.Errorf("the test did not reach its target, an event of thread %d (%v)", s.n.events[s.target].thread, s.n.events[s.target].op))
	}
}

// retry takes target e again, later, if its test failed before reaching
// it and the failure taught its path constraint something: another
// thread failed in the local code of a step of e's local configuration,
// after a branch on inputs whose side the constraint now avoids. It
// reports whether it did.
func (s *Strategy) retry(e int32) bool {
	n := s.n
	k := len(n.constraint(n.events[e].pre, []int32{e}))
	if k <= s.tried[e] {
		return false
	}
	s.tried[e] = k
	n.exts = append(n.exts, e)
	n.stats.Retried++
	return true
}

// endFatal reports whether the last step of tr, which ended so, failed in
// its local code; if the failure follows a branch of its thread after the
// step, that branch is the one that failed (s.sym.fatalBr) and not the
// step.
func (s *Strategy) endFatal(tr *trace.Trace, end trace.End) bool {
	if !stepFailed(end) {
		return false
	}
	for i := len(tr.Branches) - 1; i >= 0 && int(tr.Branches[i].Step) == len(tr.Events); i-- {
		if tr.Branches[i].InAwait {
			continue // an evaluation of a w.Await's condition (awaitpath.go)
		}
		if tr.Branches[i].Thread == end.Thread || end.Thread == trace.NoThread {
			s.sym.fatalBr = i
			return false
		}
	}
	return true
}

// stepFailed reports whether an execution that ended so failed in its
// last step (in the local code after its operation): an assertion, a
// panic, a misuse, rather than a deadlock, a leak or the step bound.
func stepFailed(end trace.End) bool {
	if end.Status == trace.Assumed {
		// An assumption that did not hold ends it alike; a loop that
		// yields, assumed away where no thread could move, does not.
		return end.InStep()
	}
	if end.Status != trace.Failed {
		return false
	}
	switch end.Kind {
	case trace.Deadlock, trace.Leak, trace.Livelock, trace.Nondeterminism, trace.Blocked, trace.Internal:
		return false
	}
	return true
}

var (
	_ strategy.Strategy = (*Strategy)(nil)
	_ strategy.Diverger = (*Strategy)(nil)
)
