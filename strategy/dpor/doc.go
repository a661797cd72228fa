// Package dpor implements dynamic partial order reduction (DPOR) as Saarikivi et al. 2012
// presents it: the algorithm of Flanagan and Godefroid (POPL 2005) with
// vector clocks (Fig. 1), its variant with per-object clocks and no
// traversal of the execution (Fig. 2), and DPOR-CR, where reads commute
// (Fig. 3); each optionally with sleep sets (§IV-D, Fig. 7), and, with sleep
// sets, the two ways Kähkönen et al. 2014, §6.1 handles a backtracking point whose thread
// is asleep (DPOR-1 and DPOR-2). It explores at least one execution of every
// Mazurkiewicz trace (every maximal one: completed, deadlocked or leaking),
// so it finds every deadlock, assertion failure and final state that an
// exhaustive search finds, usually with far fewer executions.
//
// # Stateless exploration
//
// weft re-executes the program from the start for every execution, so the
// recursive Explore of the figures is split as in Saarikivi et al. 2012, §IV-C (Fig. 5):
// the strategy keeps the current path as a stack of nodes (Tree), one per
// state, with the choice taken there, the backtracking set, the done set and
// the sleep set. An execution replays the path up to the deepest state with
// something left to explore (Next), takes the new choice there, and then
// chooses afresh: the first enabled thread not asleep, in thread order or at
// random (Options.Seed). When every enabled thread is asleep the execution
// is cut (Fig. 7, line 9). The finished trace comes back in Finish, which
// runs lines 3-12 of Fig. 1 (or 2, or 3) for each state the execution reached
// for the first time, with next(s, p) and enabled(pre(E, i)) read from the
// trace (Sweep, trace.Trace.EnabledAt) and happens-before from trace.HB.
// What does not depend on how races are found (the choices along the
// Tree, the detection of a program that does not replay, the start of Next
// and units of work) is Walk's, which package flip shares.
//
// # Races and backtracking points
//
// In state s, for the pending operation v of each thread p (enabled or not):
//
//   - VectorClocks (Fig. 1, name "dpor"): the last event i before s that is
//     dependent with v (trace.Relation.DependentOp), may be co-enabled with
//     it (trace.MayBeCoEnabled: an acquire and a successful release of one
//     lock never are) and does not happen before p.
//   - ObjectClocks (Fig. 2, "dpor-clock"): the last access to v's object,
//     every two operations on one object being dependent.
//   - CommutingReads (Fig. 3, "dpor-cr"): for a write, the last read since the
//     last write that does not happen before p, else the last write; for a
//     read, the last write. What reads and writes are is stated per primitive
//     in package trace (Lens, WaitGroup Waits and failed try-operations are
//     reads too). weft adds a third mode, shared updates (RLock, a
//     successful TryRLock, a balanced RUnlock), which commute with each
//     other and conflict with reads: a read races with the last shared
//     update since the last write, a shared update with the last read.
//
// Figs. 2 and 3 leave out Flanagan and Godefroid's optimisation for locks;
// the strategy applies it (the last access that may be co-enabled with an
// acquire is the one before the release), since without it every acquire
// races with the last release of its lock and the search degenerates
// (Options.IgnoreCoEnabled restores the figures as printed). For a select,
// the latest race over its channels counts. Each state's analysis uses what
// the execution shows of it; a thread's race is searched afresh (Fig. 1's
// traversal) only when its pending operation changes.
//
// Fig. 5 analyses a state once, when an execution first reaches it (lines
// 6-21; a replayed choice, line 4, is not analysed again): enough when
// next(s, p) is known in s. Here a thread's step is known whole only once
// the thread has run it (see Steps and footprints): in the execution that
// first reached s, p may not have run its step at all. So the states of
// the replayed prefix are analysed again for each thread whose step there
// runs in this execution for the first time on the path (at the new choice
// or after it) and has more accesses than its operation alone. Without it,
// a lock whose critical section starts with a send on an unbuffered
// channel never raced with an earlier close of the channel (gen program
// 7977: a final state missed).
//
// The backtracking point is pre(E, i). Options.Rule says what it gets:
//
//   - Process (Flanagan and Godefroid's rule, which Kähkönen et al. 2014, §6.1 calls its
//     heuristic: "a transition belonging to the thread the transition
//     causing the race belongs to"): p if p is enabled there, else every
//     enabled thread. The strategies without sleep sets use it.
//   - Operation (Fig. 1, lines 6-10, as printed): p if v itself is enabled
//     there (p took no step since, and v is not a select or a receive on an
//     unbuffered channel, whose transition depends on the partners and cases
//     ready), else every enabled thread. It backtracks more.
//   - Initials (source-DPOR: Abdulla, Aronis, Jonsson and Sagonas, POPL
//     2014): once v runs (or the execution ends), for every event i v races
//     with, a thread that can start the reversal notdep(i).v (Reversal), not
//     asleep, unless one is in the backtracking or done set already or all
//     are asleep (the reversal is then covered). The strategies with sleep
//     sets and Skip use it. Whether p itself is an initial is judged by
//     its whole step, as the exploration knows it in pre(E, i) (its
//     sleeper's footprint, or what it announced when it ran from there):
//     the execution may show another step of p, one that read another
//     value, or failed before announcing its next operation
//     (Reversal.StepDepends); a Join is no initial where the thread it
//     joins has events in the reversal (gen v2 seeds 169, 557, 6109).
//     Its races are found when each operation runs, every race and not
//     only the last, so Figs. 1-3 differ only by their relation under it.
//
// # Cost of an analysis
//
// A finished execution is indexed once (Reversal.Reset): each thread's
// events, and each object's accesses by thread and mode. The races of an
// operation are the events of its index's lists that its thread's clock
// does not know (a suffix of each list, found by binary search), and a
// race's reversal is found per thread by binary searches too: the events
// of notdep(i) a thread takes part in are consecutive among its events.
// So the analysis of an execution of n steps costs O(n) for the index and
// O(threads × log n) per race, not O(n) per race: one that hits a step
// bound of 100,000 steps is analysed in a fraction of a second. A race
// whose reversal has fewer events than the trace has threads is found by
// a scan of those events instead. A Join's races, which are with the
// joined thread's events whatever they access, come from that thread's
// list, its suffix that the joining thread does not know.
//
// Why Initials with sleep sets: under the other two rules, the thread added
// may be asleep there while the reversal needs another thread to run first
// (an event the racing operation depends on); skipping it loses traces.
// Differential testing against exhaustive search on random programs found
// such programs for both (the tests keep them); DPOR-1 and DPOR-2 are
// Kähkönen et al. 2014's answers to the same problem.
//
// # Steps and footprints
//
// A step is an operation and the local code after it. When the local code
// reaches a send on an unbuffered channel (plain or a select case), the step
// offers a partner to the channel's receivers and changes what a select
// with default does: trace.Steps counts this announcement as a write of the
// channel, and HB orders by it. A pending operation's footprint is its own
// accesses plus, as seen where its thread runs it later in the execution,
// what it announces and the other side of its rendezvous; races are found
// between steps and footprints.
//
// # Alternatives
//
// A choice is a thread and an alternative of its pending operation (a select
// case, the sender a receive meets). The unit of DPOR here is the thread:
// whenever a thread is explored from a state, all its alternatives there
// are, one execution each, before another thread is; a thread is in a
// state's done set once all are. The alternatives of one thread are
// dependent with each other, and no race between other threads would ever
// reveal them, so this is needed for completeness, not only convenient. For
// the same reason, when a receive meets a select's send case, the select's
// thread, if it could also take a case on its own there, joins the
// backtracking set.
//
// # Sleep sets, DPOR-1 and DPOR-2
//
// With Options.Sleep, the sleep set of a state passed to its child is the
// state's own plus its done threads, minus those dependent with the step
// taken (Fig. 7). A sleeper carries its footprint as seen when it ran (what
// it announced, the partners it met); objects first used in that local code
// have no stable number across executions (weft numbers objects by first
// use), so they stand for any object first used after the state. A sleeper
// also wakes when its number of alternatives changes. If a thread a race
// wants to run at pre(E, i) is asleep there, Options.Asleep decides: Skip
// leaves it (under the Initials rule, which New then uses), DPOR1 runs it
// anyway, DPOR2 adds every enabled thread that is not asleep (Kähkönen et al. 2014
// §6.1; both with the Process rule in "dpor-1" and "dpor-2").
//
// # Failures
//
// An execution that fails (other than by a deadlock or a leak, which are
// maximal) stops early, and the operations the other threads would have run
// after the failure are never seen, nor their races. Every thread enabled
// before the last step then joins that state's backtracking set; if the
// failure recurs, the search moves back one step at a time.
//
// # Names
//
// Package weft registers: "dpor" (Fig. 1, trace.Plain, Process rule),
// "dpor+sleep" (Initials rule, Skip), "dpor-clock" (Fig. 2),
// "dpor-clock+sleep", "dpor-cr" (Fig. 3), "dpor-cr+sleep", "dpor-1" and
// "dpor-2" (DPOR-CR with sleep sets, the Process rule and DPOR-1 or DPOR-2:
// Kähkönen et al. 2014's Table 2 columns). weft.WithSeed(n) with n != 0
// randomises the order of exploration; Saarikivi et al. 2012, Fig. 8 averages over 5 random
// orders. Package flip holds race detection and flipping, on the same Tree.
//
// # Usage
//
//	r, err := weft.Explore(body, weft.WithStrategy("dpor-cr+sleep"))
//	// r.Complete: executions that completed; r.Cut: cut by sleep sets.
//
// or directly, with options:
//
//	s := dpor.New(dpor.Options{Algorithm: dpor.CommutingReads, Sleep: true, Seed: 3})
//	r, err := weft.Explore(body, weft.WithCustomStrategy(s))
//
// The strategy reads inputs as their defaults; it does not explore their
// values.
//
// # Slide 36
//
// On the CS294-32 DPOR slides' slide 36 (T1: x=1; x=2. T2: y=1; x=3) "dpor" explores all 6
// interleavings, as the slides say: x=3 races with x=1 and with x=2, and each
// race adds T2 where its next step is y=1 (the process rule), so y=1 moves
// before x=1 and before x=2 too, in executions equivalent to others. With
// sleep sets it runs 3 executions, one per trace: in the second and third,
// T1's step explored earlier sleeps after y=1 until x=3 wakes it.
package dpor
