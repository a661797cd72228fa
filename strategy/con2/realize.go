// This file implements RealizabilityCheck (Farzan et al. 2013, §7.2, Thm. 7.2): an
// ISC is realizable iff DC and TC are satisfiable; their models give the
// inputs and the schedule of its execution.

package con2

import (
	"errors"
	"slices"

	"github.com/weft-go/weft/solver"
)

// realize checks c's realizability. If c is realizable it prepares the
// execution that realizes it and returns true; otherwise it records c as
// unrealizable and queues its extensions (Alg. 1 lines 15-17).
func (s *Strategy) realize(c *isc) bool {
	f := s.f
	nodes := f.closure(c.tips...)
	chains, ok := f.chains(nodes)
	if !ok {
		return false // cannot happen: ISCs are checked when made
	}
	dc := f.data(nodes, s.ranges)
	inputs, core, err := s.solve(dc)
	if inputs == nil {
		s.unrealizable(c, dc, core, err)
		return false
	}
	if f.hasSync(nodes) {
		plan, ok, bound := f.schedule(nodes, chains)
		if !ok {
			if bound {
				s.stats.OrderBound++
			}
			s.unrealizable(c, nil, nil, nil)
			return false
		}
		s.stats.Realizable++
		s.run = run{c: c, plan: plan, target: c.target, expect: chains, inputs: inputs}
		return true
	}
	tc := f.time(nodes, chains)
	stamps, core, err := s.solve(tc)
	if stamps == nil {
		s.unrealizable(c, tc, core, err)
		return false
	}
	s.stats.Realizable++
	s.run = run{c: c, plan: f.plan(nodes, stamps), target: c.target, expect: chains, inputs: inputs}
	return true
}

// plan returns the schedule of a scenario's nodes whose timestamps are
// stamps: the nodes in the order of their timestamps; the steps among
// them run in that order (branches and forks happen in the local code of
// the steps before them).
func (f *forest) plan(nodes []int32, stamps solver.Model) []int32 {
	order := slices.Clone(nodes)
	w := stampBits(len(nodes))
	slices.SortStableFunc(order, func(a, b int32) int {
		ta, tb := stamps[f.stamp(a, w).Name()], stamps[f.stamp(b, w).Name()]
		switch {
		case ta < tb:
			return -1
		case ta > tb:
			return 1
		}
		return 0
	})
	plan := order[:0]
	for _, n := range order {
		if f.step(n) {
			plan = append(plan, n)
		}
	}
	return plan
}

// solve decides sys: its model if satisfiable, else nil, with an unsat
// core when unsat-core guidance is on, and the error of a query that
// failed (a timeout: the ISC is neither realizable nor prunable).
func (s *Strategy) solve(sys *system) (solver.Model, []int, error) {
	ctx := s.stop.Context()
	var r solver.Result
	var core []int
	var err error
	if s.opts.NoUnsatCore {
		r, err = s.solver.Check(ctx, sys.cs)
	} else {
		r, core, err = s.solver.CheckCore(ctx, sys.cs)
	}
	switch {
	case errors.Is(err, solver.ErrTimeout):
		s.stats.TimedOut++
	case err != nil:
		s.stats.Errors++
		s.lastErr = err
	case r.Status == solver.Sat:
		if r.Model == nil {
			r.Model = solver.Model{}
		}
		return r.Model, nil, nil
	}
	return nil, core, err
}

// unrealizable records c as unrealizable (UN^k) and queues the ISCs that
// add an interference to it (Alg. 1 lines 15-17). With unsat-core
// guidance (§7.5) an ISC whose core holds no local coupling is dropped
// (no extension can remove the core), and the extensions interfere with
// the reads whose local coupling is in the core only. sys is nil for an
// ISC whose steps have no order (order.go): it has no core, and every
// read is extended, and so is every read of an ISC whose core has the
// side of a branch on a constant (dcConstant): what decides it is not in
// the constraints, and any interference before it may change it.
func (s *Strategy) unrealizable(c *isc, sys *system, core []int, err error) {
	guide, pruned := s.guide(sys, core, err)
	s.reject(c, guide, pruned)
}

// guide returns the reads of the unrealizable system sys whose local
// coupling is in its unsat core (nil: every read), and whether the ISC is
// pruned: its core holds none (unrealizable above).
func (s *Strategy) guide(sys *system, core []int, err error) (map[int32]bool, bool) {
	if s.opts.NoUnsatCore || err != nil || sys == nil || slices.ContainsFunc(core, func(i int) bool { return sys.part[i] == dcConstant || sys.part[i] == dcAwait }) {
		return nil, false
	}
	guide := map[int32]bool{}
	for _, i := range core {
		if sys.part[i].local() {
			guide[sys.read[i]] = true
		}
	}
	return guide, len(guide) == 0
}

// reject records c as unrealizable (UN^k) and queues the ISCs that add
// an interference to a read of guide (nil: any read) to it, unless c is
// pruned.
func (s *Strategy) reject(c *isc, guide map[int32]bool, pruned bool) {
	s.stats.Unrealizable++
	if pruned {
		s.stats.Pruned++
		return
	}
	c.guide = guide
	s.un = append(s.un, c)
	for _, d := range s.explore(c, s.f.writes, c.guide) {
		s.queue(d)
	}
}
