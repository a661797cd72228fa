// This file implements the con2 strategy: Alg. 1 of Farzan et al. 2013 over weft's
// executions.

package con2

import (
	"fmt"

	"github.com/weft-go/weft/solver"
	"github.com/weft-go/weft/strategy"
	"github.com/weft-go/weft/trace"
)

// Options configure the strategy.
type Options struct {
	// K bounds the interferences of the scenarios explored (k_max of Alg.
	// 1): con2 covers every branch side an execution reaches with at most
	// K interferences in its causal past.
	K int
	// NoUnsatCore, NoCache and NoPriority turn off the optimisations of
	// §7.5: unsat-core guidance, the duplicate cache and prioritised
	// exploration. They change the work, not what is covered.
	NoUnsatCore, NoCache, NoPriority bool
}

// Strategy is the con2colic strategy. Build it with New.
type Strategy struct {
	opts   Options
	solver solver.Solver
	err    error
	closed bool

	f     *forest
	names trace.ThreadNames
	b     builder
	// ranges holds the declared range of every input seen, by name.
	ranges map[string]solver.Expr

	work worklists
	un   []*isc          // processed and unrealizable, for re-exploration (UN^0..UN^k)
	seen map[string]bool // the duplicate cache (§7.5)
	// waiting holds the ISCs with a lock holder whose release is not
	// observed yet, by its last node; resumed the nodes from which a
	// thread was asked to run alone.
	waiting map[int32][]*isc
	resumed map[int32]bool
	// blockedAt holds the sinks of the scenarios found blocked at a busy
	// wait or a Sleep (busy.go).
	blockedAt map[int32]bool
	// clockRuns holds the advances of the clock a scenario that runs the
	// clock alone was queued for (busy.go, clockAlone).
	clockRuns map[key]bool

	started bool
	run     run
	cover   coverage
	stats   Stats
	lastErr error
	stop    *strategy.Stop // ends a long search and a solver call (SetStop)
	u       unitState      // units of work (unit.go)
}

// Stats counts the strategy's work.
type Stats struct {
	// ISCs counts the ISCs processed (the paper's #ISC), Realizable and
	// Unrealizable their outcomes, Pruned the unrealizable ones unsat-core
	// guidance dropped, Duplicates the ISCs the cache kept from being
	// queued again, Beyond those over the bound.
	ISCs, Realizable, Unrealizable, Pruned, Duplicates, Beyond int
	// MaxDegree is the highest degree of an ISC processed (the paper's
	// "Max k reached").
	MaxDegree int
	// Executions counts the executions; Diverged those that did not
	// follow their scenario (a part of the program con2 does not see
	// decided otherwise); Unforeseen those stopped at an interference the
	// scenario did not predict (§7.3).
	Executions, Diverged, Unforeseen int
	// TimedOut and Errors count the solver queries that timed out or
	// failed; OrderBound the scenarios with steps of other primitives
	// whose search for an order ran out of steps (order.go).
	TimedOut, Errors, OrderBound int
	// Blocked counts the scenarios an execution left blocked at a busy
	// wait or a Sleep, which are extended by interferences as
	// unrealizable ones are (busy.go).
	Blocked int
}

// The capabilities the driver and the runtime look for.
var (
	_ strategy.Failer         = (*Strategy)(nil)
	_ strategy.Solving        = (*Strategy)(nil)
	_ strategy.Closer         = (*Strategy)(nil)
	_ strategy.Counting       = (*Strategy)(nil)
	_ strategy.SymbolicTracer = (*Strategy)(nil)
	_ strategy.Covering       = (*Strategy)(nil)
)

// New returns a con2 strategy solving with backend, which it wraps in a
// solver.Cached unless it is one. Close releases the backend.
func New(opts Options, backend solver.Solver) *Strategy {
	c, ok := backend.(*solver.Cached)
	if !ok {
		c = solver.NewCached(backend, solver.CacheOptions{})
	}
	return &Strategy{
		opts: opts, solver: c, f: newForest(), ranges: map[string]solver.Expr{},
		seen: map[string]bool{}, waiting: map[int32][]*isc{}, resumed: map[int32]bool{}, blockedAt: map[int32]bool{}, clockRuns: map[key]bool{},
		cover: coverage{k: opts.K, sides: map[side]int{}},
	}
}

// Failed returns a strategy that explores nothing and whose Err is err: a
// con2 strategy that could not be set up (no solver).
func Failed(err error) *Strategy { return &Strategy{err: err, closed: true} }

// Err returns the error that kept the strategy from being set up, or that
// of an operation it does not model (wrapping ErrUnsupported), or nil.
func (s *Strategy) Err() error { return s.err }

// LastError returns the last solver error other than a timeout, or nil.
func (s *Strategy) LastError() error { return s.lastErr }

// Stats returns the strategy's counters.
func (s *Strategy) Stats() Stats { return s.stats }

// SymbolicTrace implements strategy.SymbolicTracer: con2 needs a fresh
// symbol for every read (Farzan et al. 2013, §4).
func (s *Strategy) SymbolicTrace() bool { return true }

// Covers implements strategy.Covering: con2 aims at branch coverage, it
// does not search for deadlocks.
func (s *Strategy) Covers() string {
	return fmt.Sprintf("every branch side reachable with at most %d interferences", s.opts.K)
}

// SolverStats implements strategy.Solving.
func (s *Strategy) SolverStats() solver.Stats {
	if s.solver == nil {
		return solver.Stats{}
	}
	return s.solver.Stats()
}

// Close releases the solver. It is safe to call more than once. A
// strategy resumed from a unit shares its splitter's solver, and leaves
// it open.
func (s *Strategy) Close() error {
	if s.closed {
		return nil
	}
	s.closed = true
	if s.u.resumed {
		return nil
	}
	return s.solver.Close()
}

// Next implements strategy.Strategy: the first execution runs the test
// body's thread alone (Alg. 1 lines 6-9; the threads it starts get their
// own runs, iscStart); every later one realizes an ISC (lines 10-19),
// taken from the worklists by degree, and those found unrealizable on the
// way are extended (lines 15-17).
func (s *Strategy) Next() bool {
	if s.err != nil || s.closed {
		return false
	}
	if s.u.resumed {
		if s.u.done {
			return false
		}
		s.u.done = true
		return s.realizeUnit()
	}
	if !s.started {
		s.started = true
		s.run = run{target: 0}
		return true
	}
	for {
		if s.stop.Now() {
			return false // a bound of the exploration passed (each realization is long enough to look at the clock)
		}
		c := s.work.pop(s.priority())
		if c == nil {
			if s.u.out == 0 {
				s.Close() // a unit handed out may still bring work (Join)
			}
			return false
		}
		s.stats.ISCs++
		s.stats.MaxDegree = max(s.stats.MaxDegree, c.degree)
		if s.realize(c) {
			return true
		}
	}
}

// priority returns the test of prioritised exploration (§7.5): an ISC
// that would cover a branch side not covered yet, or start or resume a
// thread, goes first; nil when it is off.
func (s *Strategy) priority() func(*isc) bool {
	if s.opts.NoPriority {
		return nil
	}
	return func(c *isc) bool {
		if c.kind != iscBranch {
			return true
		}
		return !s.cover.has(s.f.side(c.sink))
	}
}

// queue adds the ISC c to its worklist, unless its degree is over the
// bound or the duplicate cache has it.
func (s *Strategy) queue(c *isc) {
	if c.degree > s.opts.K {
		s.stats.Beyond++
		return
	}
	if s.seen[c.key] {
		s.stats.Duplicates++
		if !s.opts.NoCache {
			return
		}
	}
	s.seen[c.key] = true
	s.work.push(c)
}

// add queues the completed forms of a new ISC (complete).
func (s *Strategy) add(c *isc) {
	for _, d := range s.complete(c) {
		s.queue(d)
	}
}

// Choose implements strategy.Strategy: the scenario's prefix in the
// solved order, then its target thread alone (run.go).
func (s *Strategy) Choose(st *strategy.State) strategy.Choice {
	return s.choose(st)
}

// Input implements strategy.Strategy: the solved value of the input, or
// its default.
func (s *Strategy) Input(st *strategy.State, in strategy.InputRequest) uint64 {
	s.begin(st.Trace)
	if v, ok := s.run.inputs[in.Name]; ok {
		return v
	}
	return in.Default
}

// Finish implements strategy.Strategy: it merges the execution into the
// forest and derives new ISCs from it (Alg. 2 and lines 20-23).
func (s *Strategy) Finish(tr *trace.Trace, end trace.End) {
	if !s.finishBuild(tr) {
		return
	}
	if s.u.resumed {
		s.finishUnit(tr, end)
		return
	}
	s.learn(tr, end)
}

// finishBuild builds the nodes of execution tr and checks them against
// the scenario; false if the execution has an operation con2 does not
// model.
func (s *Strategy) finishBuild(tr *trace.Trace) bool {
	s.begin(tr)
	s.b.advance()
	s.stats.Executions++
	if s.b.err != nil {
		s.err = s.b.err
		return false
	}
	s.check()
	if r := &s.run; !r.diverged && r.pos < len(r.plan) && s.f.nodes[r.plan[r.pos]].lab.op == trace.KindAwait {
		// The execution ended at the scenario's await, no thread
		// enabled: it blocked there.
		r.blocked, r.awaitAt = true, r.plan[r.pos]
		s.diverge()
	}
	return true
}

// learn merges what execution tr, built, adds to the forest and derives
// the ISCs it leads to.
func (s *Strategy) learn(tr *trace.Trace, end trace.End) {
	// A failure, or an assumption that did not hold (w.Assume), stopped
	// the thread in its last step.
	if (end.Status == trace.Failed || end.Status == trace.Assumed) && end.Thread != trace.NoThread && int(end.Thread) < len(s.b.last) {
		if n := s.b.last[end.Thread]; n != none {
			s.f.fails[n] = true
		}
	}
	for i := range tr.Inputs {
		in := &tr.Inputs[i]
		if r := in.Range(); r != solver.True {
			s.ranges[in.Name] = r
		}
	}
	s.pending(tr)
	s.clockAlone(tr)
	if s.run.blocked {
		s.learnAwait(tr)
	}
	s.extract()
	s.alternatives()
	s.retry()
}

// extract derives the ISCs of the execution just built (Alg. 2, §7.3,
// §7.4, and the threads it started) and extends the unrealizable ISCs by
// the writes it observed first (Alg. 1 lines 21-23).
func (s *Strategy) extract() {
	f, b := s.f, &s.b
	for _, n := range b.made {
		if f.nodes[n].lab.kind == kBranch {
			s.cover.add(f.side(n), f.degree(n))
		}
	}
	// The other sides of the new branches first: completing an ISC
	// (complete) takes them as alternatives of the threads it extends.
	var duals []int32
	for _, n := range b.observed {
		if f.nodes[n].lab.kind == kBranch {
			if d, fresh := f.intern(f.dual(n)); fresh {
				duals = append(duals, d)
			}
		}
	}
	for _, d := range duals {
		if s.stop.Poll() {
			return
		}
		s.add(&isc{kind: iscBranch, sink: d, target: f.nodes[d].thread, tips: []int32{d}})
	}
	var writes []int32
	for _, n := range b.observed {
		if s.stop.Poll() {
			return // a bound of the exploration passed: it ends here
		}
		nd := f.nodes[n]
		switch {
		case nd.lab.kind == kFork:
			s.add(&isc{kind: iscStart, sink: n, target: trace.ThreadID(nd.lab.obj), tips: []int32{n}})
		case nd.lab.rdv:
			// The sender of a rendezvous goes on from its send, which
			// ran in its receiver's step: it runs alone from there, as
			// a thread from its fork.
			s.add(&isc{kind: iscRead, sink: n, target: nd.thread, tips: []int32{n}})
		case nd.lab.kind.writes():
			writes = append(writes, n)
		}
	}
	if u := s.run.unforeseen; u.ok {
		if d, fresh := f.intern(u.key); fresh {
			s.add(&isc{kind: iscRead, sink: d, target: u.key.thread, tips: []int32{d}})
		}
	}
	if len(writes) == 0 {
		return
	}
	for _, c := range s.un {
		if s.stop.Poll() {
			return // a bound of the exploration passed: it ends here
		}
		for _, d := range s.explore(c, writes, c.guide) {
			s.queue(d)
		}
	}
}

// SetStop implements strategy.Stoppable: the search for the next scenario,
// the extension of unrealizable ones and the solver calls stop once stop
// reports a bound passed.
func (s *Strategy) SetStop(stop *strategy.Stop) { s.stop = stop }

var _ strategy.Stoppable = (*Strategy)(nil)

// String describes the strategy's options.
func (s *Strategy) String() string {
	return fmt.Sprintf("con2(k=%d)", s.opts.K)
}
