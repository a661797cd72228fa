// This file implements the negation of a branch: the query for the other
// side of its node, de-duplicated, solved, pruned or retried.

package concolic

import (
	"errors"

	"github.com/weft-go/weft/solver"
	"github.com/weft-go/weft/trace"
)

// negate decides the side of node nd that branch j of tr did not take: it
// returns the input vector that takes it, if the side is to be opened now. A side
// is skipped when an execution that covers it was seen, or when it was
// opened or pruned before. The query (the declared ranges of the inputs,
// the constraints of the branches before it, and the negated branch) is answered from an earlier identical query when there is one;
// otherwise the solver decides it, with base (the execution's inputs)
// for the variables outside the slice of the negated branch. A timeout is
// counted and not recorded: a later execution that reaches the node asks
// again, up to MaxTries times.
func (s *Strategy) negate(nd node, tr *trace.Trace, j int, ranges []solver.Expr, base solver.Model) (solver.Model, bool) {
	b := &tr.Branches[j]
	other := side(nd.key, !b.Taken)
	if s.covered[other] {
		s.stats.Covered++
		return nil, false
	}
	if s.decided[other] {
		return nil, false
	}
	query := make([]solver.Expr, 0, len(ranges)+j+1)
	query = append(query, ranges...)
	for i := range j {
		query = append(query, tr.Branches[i].Constraint())
	}
	query = append(query, solver.Not(b.Constraint()))
	qk := solver.Key(query)
	if a, ok := s.answers[qk]; ok {
		s.stats.Reused++
		s.decided[other] = true
		if !a.Sat {
			s.stats.Pruned++
		}
		return a.Model, a.Sat
	}
	if s.tries[qk] >= MaxTries {
		return nil, false
	}
	s.stats.Negations++
	r, err := s.solver.CheckWithBase(s.stop.Context(), base, query)
	switch {
	case errors.Is(err, solver.ErrTimeout):
		s.stats.TimedOut++
		s.tries[qk]++
		return nil, false
	case err != nil:
		s.stats.Errors++
		s.lastErr = err
	case r.Status == solver.Unsat:
		s.stats.Pruned++
		s.answers[qk] = answer{}
	case r.Status == solver.Sat:
		s.answers[qk] = answer{Sat: true, Model: r.Model}
		s.decided[other] = true
		return r.Model, true
	}
	s.decided[other] = true
	return nil, false
}
