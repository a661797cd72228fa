// Package concolic combines dynamic symbolic execution (concolic testing)
// with a schedule-exploring strategy: weft then searches input values and
// schedules together, in one execution tree.
//
// # Background
//
// Saarikivi et al. 2012, §III-A describes concolic testing: an execution with concrete
// inputs also computes, for every branch on an input-dependent condition,
// the condition over the symbolic inputs; negating one branch of the path,
// with the path before it, and solving gives inputs that drive the next
// execution down the other side. Kähkönen et al. 2014, §2.2-2.3 calls the tree of such
// paths, with scheduling points among the branching points, the symbolic
// execution tree (its Fig. 1). Saarikivi et al. 2012, §III-B combines concolic testing
// with DPOR in that one tree: "nodes for symbolic operations and nodes for
// scheduling decisions are interleaved in the order they are encountered
// during execution", explored by re-execution; a backtracking step either
// takes another scheduling alternative or flips a branch (the path's
// scheduling nodes "do not affect the input constraints").
//
// # The combined tree, as weft explores it
//
// The tree is explored depth first, by re-execution, in subtrees. A
// subtree is the part of the tree below one side of one branch node: the
// root subtree is the whole tree with the default inputs; every branch
// side the exploration opens is a subtree of its own, with
//
//   - a prefix: the schedule that leads to the branch. It is the branch's
//     causal past (the events that happen before it, in the order they ran),
//     as Kähkönen et al. 2014, §4.3 (EXECUTE, Example 3) reaches an event of its
//     unfolding, not the whole schedule before it: events concurrent with
//     the branch are left to the subtree, which may order them either way
//     (see Deviations);
//   - an input vector: a solution of the path constraint of the node (the
//     declared input ranges, the constraints of every branch the execution
//     took before it, and the negated branch);
//   - its own instance of the inner strategy (exhaustive, a DPOR variant,
//     optimal: the user's choice), made when the side is opened. It
//     explores the schedules below the prefix, and only those: the
//     scheduling alternatives of the subtree are the inner strategy's, so a
//     schedule subtree below a branch node is explored once, by the
//     strategy chosen, and the inputs change only at branch nodes.
//
// Every execution of a subtree replays its prefix with its vector, then
// lets its inner strategy schedule. When it ends, each symbolic branch it
// took is a branch node; the side it did not take is opened as a new
// subtree unless that side is covered (an execution that explores
// everything below it took it: one of the root, or of a subtree whose
// prefix the node's prefix holds and whose own branch is on the node's
// path), decided (opened or found infeasible before), or infeasible (the
// query is unsat: pruned). The new subtrees are explored before the
// current one continues, the last branch's first (the deepest node, as in
// a depth-first search of the tree). Scheduling nodes are backtracked by
// the inner strategy of the subtree they are in.
//
// A node is named by a digest (128 bits; a collision, improbable, would
// merge two nodes) of its path constraint (the constraints of the branches
// before it, in the order the execution took them, and its condition) and
// of its prefix in Foata normal form (Kähkönen et al. 2014, §2.3: executions that differ
// only in the order of independent events are one Mazurkiewicz trace), so
// executions that reach it through different interleavings of the same
// causal past ask its query once. The path constraint holds every earlier
// branch, not only those of the causal past: two independent branches have
// independent nodes in Kähkönen et al. 2014's unfolding, whose possible extensions
// then combine their sides; a tree has no such step, and a node that
// forgot an earlier independent branch would stand for executions its
// subtree does not explore (the random programs of the tests find such
// combinations).
//
// The inner strategy must not explore or backtrack in the prefix. It sees
// each prefix state restricted: only the prefix's thread is enabled, with
// one alternative, so that to it the prefix is a part of the program with
// no choice. Before each execution after a subtree's first, it also
// rehearses the prefix on the states of the previous execution (the
// prefix makes them identical): a strategy that backtracks into the
// prefix, which a depth-first strategy does only once it has nothing left
// below it (optimal can: its races reach the prefix's events), ends the
// subtree there, without an execution.
//
// The prefix holds, besides the causal past, every event up to the last
// one of it that may have had several alternatives (a rendezvous, a
// select: their numbering depends on what else is ready) and up to the
// start of the last thread it names (threads are numbered in the order
// they start). If a prefix still cannot be replayed (the prefix's thread is
// not enabled or runs another kind of operation: a part of the program
// that no constraint holds changed), the subtree's first execution lets the
// inner strategy choose from there (Stats.Diverged).
//
// # Solving
//
// Queries go to a solver.Cached in front of the backend: constraint
// independence (solver.Slice: only the slice of the negated branch is
// solved, the other inputs keep the values of the execution, Kähkönen et al. 2014
// §4.3) and an answer cache. A query asked before (the same constraints
// from another node) is answered from the strategy's own record without a
// solver call (Stats.Reused). An unsatisfiable query prunes its node
// (Stats.Pruned, the solver's Unsat). A query that times out is counted
// (Stats.TimedOut, the solver's Timeouts) and never taken for unsat: its
// node is not decided, and a later execution that reaches it asks again,
// up to MaxTries times. The inputs of every execution are in its replay
// token (package replay), so a failure found under solved inputs replays.
//
// # Deviations from the papers
//
//   - The prefix is the causal past, not the whole schedule before the
//     branch (Kähkönen et al. 2014's choice, not Saarikivi et al. 2012's): the nodes of executions
//     that differ only in where independent events ran are one node.
//   - Saarikivi et al. 2012 runs one DPOR over the whole tree: a race found below a
//     branch node adds a backtracking point to a scheduling node above it.
//     Here each subtree's inner strategy knows its own executions only, and
//     its races with the prefix are dropped (the restricted states have no
//     other thread to run there). The argument that nothing is lost, which
//     is informal: an event j of the subtree that races with an event i of
//     the prefix does not come after the flipped branch (i does, being in
//     its causal past), so j's thread got to j without it. If that thread
//     got there the same way in the parent's executions, the parent's inner
//     strategy reverses the race; if it got there through branches of its
//     own that took other sides, those branches are flipped from the
//     parent's executions, with causal pasts that do not fix i. The
//     differential tests check this against brute force (every input
//     vector of small ranges under every schedule) on hand-written and
//     random programs: the same branch sides and failures.
//   - A subtree's inner strategy starts afresh: no sleep set crosses from
//     one subtree to another.
//
// # Limits
//
// A prefix step with several alternatives is shown to the inner strategy
// with one; optimal, whose races are found by its own model of the
// program, may then backtrack into the prefix without the rehearsal
// noticing, and re-explore the subtree: a schedule a subtree runs twice
// ends it (Stats.Repeated; an exploration by depth-first search never
// repeats one otherwise). An inner strategy that could be told never to
// backtrack above a depth would need neither check.
//
// Inputs are named by the order of their reads (Label, Label#2, ...). A
// label read by several threads is named by the order the threads read
// it, which a prefix that leaves out a concurrent read changes: give each
// thread's inputs labels of their own.
//
// # Units of work
//
// A Strategy is a strategy.Splitter (unit.go). Split, between executions,
// hands out the subtree Next would take next if it has not started (the
// one on top of the stack, below the finished ones Next would drop),
// whole: its prefix, input vector and branch (thread, ordinal, side, root
// flag), with a copy of the knowledge that decides what an exploration
// negates: the sides covered and decided, the queries answered (with
// their models) and the tries of those that timed out. The splitter drops
// the subtree and goes on. A subtree that has started is not split: its
// inner strategy is running, and the inner strategies are not Splitters.
//
// Resume, on a strategy with the same options, returns a strategy that
// explores the unit's subtree and every subtree it opens, with the unit's
// knowledge, a fresh inner strategy and the solver of the strategy it was
// resumed on, shared: explore them from one goroutine at a time, or call
// Resume on a strategy built for the goroutine that explores the unit. A
// resumed strategy never closes that solver (its Close does nothing for
// it); the strategy that built it closes it when its exploration is over
// and every unit handed out by it, or by a strategy resumed from one, has
// been joined (or when Close is called). Handback returns the knowledge
// the resumed strategy added and its Stats; Join adds both to the
// splitter's (so that its Stats count the whole exploration once every
// unit is joined; the solver's counters count the queries of every
// strategy sharing it) and returns no units: the knowledge is not tied to
// the splitter's path.
//
// A unit explored and joined before the splitter's next Next gives the
// undivided exploration: the same executions, in the same order, with the
// same queries and answers. Units explored while the splitter goes on
// miss what the other has learnt since the split, and may repeat
// negations and executions, not miss them.
//
// Limits. A unit's tag names the inner strategy by its type, and by its
// options if it has an Options method (package dpor's strategies):
// optimal's seed is not in it. The keys of nodes name the program's
// objects by the runtime's object keys, which each exploration numbers
// its own way: the covered and decided sides of a unit match only in the
// exploration that made it (strategytest.Divide explores units in one).
// In another exploration (another weft.Explore, another process) they
// match nothing: the unit's exploration is still complete but may repeat
// the splitter's negations and open sides the splitter covers, and its
// handback's sides do not match the splitter's. The answers, keyed by
// their queries, carry over. A unit copies the whole knowledge, which
// grows with the exploration: splitting often costs time and memory.
//
// # Tests and numbers
//
// Package weft's TestCombinedTreeVsBruteForce (concolic_tree_test.go) and
// TestConcolicRandomPrograms (concolic_random_test.go) compare every
// concolic strategy (one per strategy with a tree: exhaustive, the DPOR
// variants with and without commuting reads and sleep sets, race flipping,
// optimal) with brute force over small input ranges: the same
// branch sides (as the programs mark them, and as symbolic conditions with
// the side taken) and failures. Against the product construction this
// package replaced (one inner exploration of all schedules per input
// vector), the executions to the first failure under concolic,
// concolic-dpor and concolic-optimal went from 5/5/5 to 3/3/3 on jcute,
// 6/6/4 to 4/4/3 on unfold-fig9, 193/31/10 to 83/8/6 on addall and 7/3/3 to
// 2/2/2 on lincomb (programs/concolic_test.go); explored to the end, from
// 236/43/13 to 156/28/12 on addall.
//
// # Use
//
//	z, err := z3.New(z3.WithTimeout(10 * time.Second))
//	if err != nil { ... } // solver.ErrUnavailable: no libz3
//	s := concolic.New(func() strategy.Strategy { return exhaustive.New() }, z)
//	defer s.Close()
//	r, err := weft.Explore(body, weft.WithCustomStrategy(s))
//	// r.Solver, s.SolverStats(): the solver's counters; s.Stats(): subtrees,
//	// negations, pruned, timeouts.
//
// In package weft, the strategies "concolic" (inner exhaustive),
// "concolic-dpor" and "concolic-optimal" build it.
package concolic
