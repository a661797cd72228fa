// This file implements the concolic strategy: one inner schedule
// exploration per input vector, with new vectors from negated branches.

package concolic

import (
	"context"
	"errors"

	"github.com/weft-go/weft/solver"
	"github.com/weft-go/weft/strategy"
	"github.com/weft-go/weft/trace"
)

// MaxTries is how often a query that timed out is asked again when a later
// execution produces it.
const MaxTries = 2

// Strategy explores input vectors and, for each, the schedules its inner
// strategy explores. Build it with New.
type Strategy struct {
	newInner func() strategy.Strategy
	solver   *solver.Cached
	err      error
	closed   bool

	inner   strategy.Strategy
	model   solver.Model   // the input vector being explored
	queue   []solver.Model // input vectors waiting for their exploration
	started bool

	decided map[string]bool // query keys answered (sat or unsat) or failed
	covered map[string]bool // keys of path prefixes some execution took
	tries   map[string]int  // query keys that timed out, with their tries
	vectors map[string]bool // input vectors queued or explored
	stats   Stats
	lastErr error
}

// Stats counts the strategy's own work; the solver's counters are in
// SolverStats.
type Stats struct {
	// Vectors is the number of input vectors explored (the first, of
	// default values, included); Executions the executions run.
	Vectors, Executions int
	// Branches is the number of symbolic branches seen; Negations the
	// queries asked (after de-duplication), Pruned the unsatisfiable ones,
	// TimedOut those that timed out, Errors those that failed otherwise.
	Branches, Negations, Pruned, TimedOut, Errors int
	// Covered counts negations skipped because an execution already took
	// the negated side after the same prefix.
	Covered int
}

// New returns a concolic strategy exploring schedules with strategies made
// by inner, and solving with backend, which it wraps in a solver.Cached
// unless it is one. Close releases the backend.
func New(inner func() strategy.Strategy, backend solver.Solver) *Strategy {
	c, ok := backend.(*solver.Cached)
	if !ok {
		c = solver.NewCached(backend, solver.CacheOptions{})
	}
	return &Strategy{
		newInner: inner, solver: c,
		decided: map[string]bool{}, tries: map[string]int{}, vectors: map[string]bool{},
		covered: map[string]bool{},
	}
}

// Failed returns a strategy that explores nothing and whose Err is err: a
// concolic strategy that could not be set up (no solver).
func Failed(err error) *Strategy { return &Strategy{err: err, closed: true} }

// Err returns the error that kept the strategy from being set up, or nil.
func (s *Strategy) Err() error { return s.err }

// LastError returns the last solver error other than a timeout, or nil.
func (s *Strategy) LastError() error { return s.lastErr }

// Stats returns the strategy's counters.
func (s *Strategy) Stats() Stats { return s.stats }

// SolverStats returns the solver's counters: queries, outcomes, timeouts,
// cache hits and solver time.
func (s *Strategy) SolverStats() solver.Stats {
	if s.solver == nil {
		return solver.Stats{}
	}
	return s.solver.Stats()
}

// Close releases the solver. It is safe to call more than once.
func (s *Strategy) Close() error {
	if s.closed {
		return nil
	}
	s.closed = true
	return s.solver.Close()
}

// Next implements strategy.Strategy.
func (s *Strategy) Next() bool {
	if s.err != nil {
		return false
	}
	if !s.started {
		s.started = true
		s.model = solver.Model{}
		if s.begin() {
			return true
		}
	} else if s.inner.Next() {
		return true
	}
	for len(s.queue) > 0 {
		s.model = s.queue[0]
		s.queue = s.queue[1:]
		if s.begin() {
			return true
		}
	}
	s.Close()
	return false
}

// begin starts the schedule exploration of the current input vector.
func (s *Strategy) begin() bool {
	s.inner = s.newInner()
	s.stats.Vectors++
	return s.inner.Next()
}

// Choose implements strategy.Strategy: the inner strategy schedules.
func (s *Strategy) Choose(st *strategy.State) strategy.Choice { return s.inner.Choose(st) }

// Input implements strategy.Strategy: the current vector's value, or the
// default for an input the vector does not mention.
func (s *Strategy) Input(_ *strategy.State, in strategy.InputRequest) uint64 {
	if v, ok := s.model[in.Name]; ok {
		return v
	}
	return in.Default
}

// Finish implements strategy.Strategy: it passes the execution on to the
// inner strategy and negates each of its symbolic branches.
func (s *Strategy) Finish(tr *trace.Trace, end trace.End) {
	s.inner.Finish(tr, end)
	s.stats.Executions++
	if len(tr.Branches) == 0 {
		return
	}
	base := tr.InputModel()
	s.vectors[base.String()] = true // the vector this execution ran with
	var path []solver.Expr
	for i := range tr.Inputs {
		if r := tr.Inputs[i].Range(); r != solver.True {
			path = append(path, r)
		}
	}
	// First the prefixes this execution covered, so that no negation
	// below asks for a path some execution (this one included) took.
	prefix := path
	for i := range tr.Branches {
		prefix = append(prefix, tr.Branches[i].Constraint())
		s.covered[solver.Key(prefix)] = true
	}
	for i := range tr.Branches {
		s.stats.Branches++
		b := &tr.Branches[i]
		query := append(path[:len(path):len(path)], solver.Not(b.Constraint()))
		path = append(path, b.Constraint())
		s.negate(base, query)
	}
}

// negate solves one query unless it was decided before, and queues the
// input vector it gives.
func (s *Strategy) negate(base solver.Model, query []solver.Expr) {
	key := solver.Key(query)
	if s.covered[key] {
		s.stats.Covered++
		return
	}
	if s.decided[key] || s.tries[key] >= MaxTries {
		return
	}
	s.stats.Negations++
	r, err := s.solver.CheckWithBase(context.Background(), base, query)
	switch {
	case errors.Is(err, solver.ErrTimeout):
		s.stats.TimedOut++
		s.tries[key]++
		return
	case err != nil:
		s.stats.Errors++
		s.lastErr = err
	case r.Status == solver.Unsat:
		s.stats.Pruned++
	case r.Status == solver.Sat:
		if k := r.Model.String(); !s.vectors[k] {
			s.vectors[k] = true
			s.queue = append(s.queue, r.Model)
		}
	}
	s.decided[key] = true
}
