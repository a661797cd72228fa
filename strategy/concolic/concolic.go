// This file implements the concolic strategy: the depth-first exploration
// of the combined tree, one subtree (and inner strategy) per branch node.

package concolic

import (
	"github.com/weft-go/weft/solver"
	"github.com/weft-go/weft/strategy"
	"github.com/weft-go/weft/trace"
)

// MaxTries is how often a query that timed out is asked again when a later
// execution produces it.
const MaxTries = 2

// Strategy explores the combined tree of schedules and symbolic branches.
// Build it with New.
type Strategy struct {
	newInner func() strategy.Strategy
	solver   *solver.Cached
	err      error
	closed   bool

	stack []*subtree // the subtrees being explored; the last one runs
	cur   *subtree
	an    analysis

	covered map[string]bool   // node keys and sides some subtree covers
	decided map[string]bool   // node keys and sides opened or pruned
	answers map[string]answer // query keys answered (sat or unsat)
	tries   map[string]int    // query keys that timed out, with their tries
	stats   Stats
	lastErr error

	// Units of work (unit.go). home is the strategy that built the solver
	// and closes it: s itself, or the one s was resumed from; units, in
	// home, counts the units it and the strategies resumed from it handed
	// out and have not joined back; over says that Next has returned
	// false. A strategy resumed from a unit keeps the knowledge the unit
	// brought in base, to hand back only what it adds; tag is made on
	// first use.
	home    *Strategy
	units   int
	over    bool
	resumed bool
	base    knowledge
	tag     string
	stop    *strategy.Stop // ends the analysis and the solver calls (SetStop)
}

// SetStop implements strategy.Stoppable: the analysis of an execution's
// branches, the solver calls and the analysis of the inner strategies stop
// once stop reports a bound passed.
func (s *Strategy) SetStop(stop *strategy.Stop) {
	s.stop = stop
	for _, t := range s.stack {
		setStop(t.inner, stop)
	}
}

// setStop hands stop to inner if it can stop.
func setStop(inner strategy.Strategy, stop *strategy.Stop) {
	if st, ok := strategy.As[strategy.Stoppable](inner); ok {
		st.SetStop(stop)
	}
}

var _ strategy.Stoppable = (*Strategy)(nil)

// answer is a query's outcome: a model, or none for unsat. Its fields are
// exported for encoding/gob (units of work carry answers).
type answer struct {
	Sat   bool
	Model solver.Model
}

// Stats counts the strategy's own work; the solver's counters are in
// SolverStats.
type Stats struct {
	// Subtrees is the number of subtrees explored, the root included: one
	// per branch side opened, each with its own inner strategy; Executions
	// the executions run.
	Subtrees, Executions int
	// Branches is the number of symbolic branches seen; Negations the
	// queries asked, TimedOut those that timed out, Errors those that
	// failed otherwise; Pruned the sides found infeasible (by a query, or
	// by the answer to an identical one).
	Branches, Negations, Pruned, TimedOut, Errors int
	// Covered counts sides not negated because an execution of a subtree
	// that holds the node took them; Reused the negations answered by an
	// earlier identical query.
	Covered, Reused int
	// Deviated counts the subtrees whose inner strategy, with nothing
	// left below the prefix, chose to backtrack into it (the subtree ends
	// there, and, but for the first execution, without running one);
	// Diverged the executions whose prefix could not be replayed (see
	// doc.go).
	Deviated, Diverged int
	// Repeated counts the executions that repeated a schedule of their
	// subtree, which ends it (see subtree.repeated).
	Repeated int
}

// New returns a concolic strategy exploring schedules with strategies made
// by inner, one per subtree, and solving with backend, which it wraps in a
// solver.Cached unless it is one. Close releases the backend.
func New(inner func() strategy.Strategy, backend solver.Solver) *Strategy {
	c, ok := backend.(*solver.Cached)
	if !ok {
		c = solver.NewCached(backend, solver.CacheOptions{})
	}
	s := &Strategy{
		newInner: inner, solver: c,
		covered: map[string]bool{}, decided: map[string]bool{},
		answers: map[string]answer{}, tries: map[string]int{},
	}
	s.home = s
	return s
}

// The capabilities the driver looks for.
var (
	_ strategy.Failer   = (*Strategy)(nil)
	_ strategy.Diverger = (*Strategy)(nil)
	_ strategy.Solving  = (*Strategy)(nil)
	_ strategy.Closer   = (*Strategy)(nil)
	_ strategy.Splitter = (*Strategy)(nil)
)

// Failed returns a strategy that explores nothing and whose Err is err: a
// concolic strategy that could not be set up (no solver).
func Failed(err error) *Strategy { return &Strategy{err: err, closed: true} }

// Err returns the error that kept the strategy from being set up, or nil.
func (s *Strategy) Err() error { return s.err }

// LastError returns the last solver error other than a timeout, or nil.
func (s *Strategy) LastError() error { return s.lastErr }

// Stats returns the strategy's counters. They count the handbacks it
// joined too (units of work): once every unit it handed out is joined,
// the whole exploration.
func (s *Strategy) Stats() Stats { return s.stats }

// SolverStats returns the solver's counters: queries, outcomes, timeouts,
// cache hits and solver time. A strategy resumed from a unit shares its
// solver with the strategy it was resumed on: both return the counters of
// that solver, which count the queries of every strategy sharing it.
func (s *Strategy) SolverStats() solver.Stats {
	if s.solver == nil {
		return solver.Stats{}
	}
	return s.solver.Stats()
}

// Close releases the solver. It is safe to call more than once. The
// Close of a strategy resumed from a unit does nothing: the solver it
// shares is closed by the strategy that built it.
func (s *Strategy) Close() error {
	if s.closed || s.home != s {
		return nil
	}
	s.closed = true
	return s.solver.Close()
}

// Next implements strategy.Strategy: the deepest subtree with an execution
// left runs it; a subtree with none is dropped. When none is left, the
// exploration is over: Next closes the solver (unless units handed out
// are still to be joined, see Join) and returns false from then on.
func (s *Strategy) Next() bool {
	if s.err != nil || s.over || s.Diverged() != nil {
		return false
	}
	if s.cur == nil && len(s.stack) == 0 {
		s.push(&subtree{root: true, vector: solver.Model{}})
	}
	for len(s.stack) > 0 {
		if s.stop.Poll() {
			return false // a bound of the exploration passed: it ends here
		}
		t := s.stack[len(s.stack)-1]
		if !t.started {
			s.stats.Subtrees++
		}
		if t.next() {
			s.cur = t
			return true
		}
		s.stack[len(s.stack)-1] = nil
		s.stack = s.stack[:len(s.stack)-1]
	}
	s.cur, s.over = nil, true
	s.release()
	return false
}

// Diverged reports how the current subtree's inner strategy failed to
// replay its path (the program is not deterministic under fixed inputs),
// or nil. A prefix of the subtree that cannot be replayed is not a
// divergence: the inputs changed (Stats.Diverged).
func (s *Strategy) Diverged() error {
	if s.cur == nil {
		return nil
	}
	if d, ok := strategy.As[strategy.Diverger](s.cur.inner); ok {
		return d.Diverged()
	}
	return nil
}

// push adds a subtree to explore next, with a fresh inner strategy.
func (s *Strategy) push(t *subtree) {
	t.inner = s.newInner()
	setStop(t.inner, s.stop)
	s.stack = append(s.stack, t)
}

// Choose implements strategy.Strategy: the subtree's prefix, then its
// inner strategy.
func (s *Strategy) Choose(st *strategy.State) strategy.Choice {
	c, diverged, deviated := s.cur.choose(st)
	if diverged {
		s.stats.Diverged++
	}
	if deviated {
		s.stats.Deviated++
	}
	return c
}

// Input implements strategy.Strategy: the subtree's input vector, or the
// default for an input it does not mention.
func (s *Strategy) Input(_ *strategy.State, in strategy.InputRequest) uint64 {
	return s.cur.input(in)
}

// Finish implements strategy.Strategy: it passes the execution on to the
// subtree's inner strategy and opens, for each symbolic branch, the other
// side of its node unless it is covered, decided or infeasible. The new
// subtrees are explored next, the one of the last branch first.
func (s *Strategy) Finish(tr *trace.Trace, end trace.End) {
	t := s.cur
	t.inner.Finish(tr, end)
	s.stats.Executions++
	if s.stop.Fired() {
		return // a bound of the exploration passed: it ends here
	}
	if s.Diverged() != nil {
		return // the program is not deterministic: nothing to learn
	}
	if !t.root && !t.deviated && t.repeated(tr) {
		s.stats.Repeated++
		return
	}
	if !t.deviated && len(tr.Branches) > 0 {
		s.analyse(tr, t)
	}
	if t.prepare(tr) {
		s.stats.Deviated++
	}
}

// analyse opens, for each symbolic branch of tr, an execution of subtree
// t, the other side of its node unless it is covered, decided or
// infeasible.
func (s *Strategy) analyse(tr *trace.Trace, t *subtree) {
	s.stats.Branches += len(tr.Branches)
	own, pl := t.own(tr), len(t.prefix)
	var ranges []solver.Expr
	for i := range tr.Inputs {
		if r := tr.Inputs[i].Range(); r != solver.True {
			ranges = append(ranges, r)
		}
	}
	var base solver.Model
	var opened []*subtree
	a := &s.an
	a.reset(tr)
	j := 0
	for k := 0; ; k++ {
		if s.stop.Poll() {
			return // a bound of the exploration passed: it ends here
		}
		for ; j < len(tr.Branches) && int(tr.Branches[j].Step) == k; j++ {
			nd := a.branch(j, k, t.root, own, pl)
			b := &tr.Branches[j]
			if nd.claim {
				s.covered[side(nd.key, b.Taken)] = true
			}
			if base == nil {
				base = tr.InputModel()
			}
			if m, ok := s.negate(nd, tr, j, ranges, base); ok {
				opened = append(opened, &subtree{
					prefix: a.prefix(), vector: m,
					thread: b.Thread, ord: ordinal(tr, j), side: !b.Taken,
				})
			}
		}
		if k == len(tr.Events) {
			break
		}
		a.step(k)
	}
	for _, c := range opened {
		s.push(c)
	}
}

// ordinal returns the number of branches of branch j's thread taken at its
// step before it.
func ordinal(tr *trace.Trace, j int) int {
	b := &tr.Branches[j]
	n := 0
	for i := j - 1; i >= 0 && tr.Branches[i].Step == b.Step; i-- {
		if tr.Branches[i].Thread == b.Thread {
			n++
		}
	}
	return n
}

// side returns the key of one side of a node.
func side(key string, taken bool) string {
	if taken {
		return key + "+"
	}
	return key + "-"
}
