// Package concolic combines dynamic symbolic execution (concolic testing)
// with any schedule-exploring strategy: weft then searches input values and
// schedules together.
//
// # Algorithm
//
// Seed 000 §III-A describes concolic testing: an execution with concrete
// inputs also computes, for every branch on an input-dependent condition,
// the condition over the symbolic inputs (the path constraint); negating
// one branch of the path, with the path prefix before it, and solving gives
// inputs that drive the next execution down the other side. Seed 002 §2.2-
// 2.3 calls the tree of such paths the symbolic execution tree, and §4.3
// builds the path constraints from the events of the execution and caches
// solutions. Seed 000 §III-B combines it with DPOR in one execution tree
// whose nodes interleave scheduling decisions and symbolic branches,
// explored by re-execution.
//
// This package implements the simple product of the two trees, the
// construction seed 000 §III-B starts from: for each input vector, a fresh
// inner strategy (exhaustive, a DPOR variant, optimal) explores the
// schedules; every finished execution contributes, for each of its
// symbolic branches, the query "input ranges ∧ branches before it ∧ not
// it". Queries are de-duplicated by their canonical key (solver.Key), so a
// branch negated under one schedule is not solved again under another, and
// a query is skipped when some execution already took that prefix and
// that side (the symbolic execution tree's node is covered);
// they are solved with a solver.Cached in front of the backend (constraint
// independence: only the slice of the negated branch is solved, the rest
// of the inputs keep the current values, seed 002 §4.3), and each new
// input vector (de-duplicated) is queued for its own schedule exploration.
//
// Branches are recorded per thread, in the order they were taken across
// the execution, so a path prefix mixes threads; their constraints do not
// depend on the schedule except through the values read from shared
// variables, which carry their expressions (seed 003 §4: a write stores
// its expression, a read returns it). For a given input vector every
// schedule is explored, so the product finds every (input class,
// schedule) combination the branches distinguish: it is complete for the
// branches it sees, at the cost of re-exploring schedules for input
// vectors that differ only in branches that no schedule decision depends
// on. A combined tree that shares schedule subtrees between input vectors
// is left for later.
//
// Unsatisfiable queries are pruned (counted in the solver's Unsat). A query
// that times out is counted (Timeouts) and never taken for unsat: it is
// not marked as decided, so it is asked again, up to MaxTries times, when
// a later execution produces it.
//
// # Use
//
//	z, err := z3.New(z3.WithTimeout(10 * time.Second))
//	if err != nil { ... } // solver.ErrUnavailable: no libz3
//	s := concolic.New(func() strategy.Strategy { return exhaustive.New() }, z)
//	defer s.Close()
//	// run executions under s; s.SolverStats() has the solver's counters.
//
// In package weft, the strategies "concolic" (inner exhaustive),
// "concolic-dpor" and "concolic-optimal" build it.
package concolic
