// Package con2 implements con2colic testing: Azadeh Farzan, Andreas
// Holzer, Niloofar Razavi and Helmut Veith, "Con2colic Testing", ESEC/FSE
// 2013 (Farzan et al. 2013).
//
// # What it does
//
// Instead of enumerating schedules, con2 enumerates interferences: reads
// of a shared variable that take another thread's write. It covers every
// branch side of the program that an execution reaches with at most k
// interferences behind it (Thm. 7.3), in order of how many a side needs,
// asking Z3 for the inputs and the schedule of each scenario together.
// That is how it reaches bugs that need specific data and a specific
// order: addAll (Fig. 2, the built-in addall) fails only with u.cnt in
// 6..10 and the other thread's append between a read and the assertion,
// one interference.
//
// # Use
//
// The strategy solves with Z3, so it is opt-in like the concolic ones:
//
//	import _ "github.com/weft-go/weft/concolic"
//
//	weft.Check(t, body, weft.WithStrategy("con2"), weft.WithInterferences(1))
//
// or, on the command line, weft run -strategy con2 -k 1 addall, which
// prints the failure and a summary with the branch sides covered at each
// k (Table 1's "#Branches k=0/1/2/..." columns). Directly:
//
//	z, err := z3.New(z3.WithTimeout(10 * time.Second))
//	if err != nil { ... } // solver.ErrUnavailable: no libz3
//	s := con2.New(con2.Options{K: 1}, z)
//	defer s.Close()
//	r, err := weft.Explore(body, weft.WithCustomStrategy(s))
//	// s.Counters(), s.Covered(): sides covered per k; s.Stats(): the ISCs.
//
// The program's data must be concolic for con2 to reason about it: values
// of weft.Var[weft.SInt] (or any Sym, SBool) and inputs, branches through
// w.If and w.AssertSym. A Var[int] is still scheduled and coupled, but its
// values carry no expression, and a plain Go if on a value read is
// invisible (a scenario with another thread's write to such a read ends
// there: its thread runs alone after it; see "The algorithm"). Programs
// may use every primitive of weft (see "Other primitives"), busy waits
// (w.Await, loops of w.Yield: see "Busy waits") and virtual time in both
// modes, when every thread is blocked or at any step (weft.TimeAnyStep:
// see "Time at any step").
//
// # Symbolic traces (§4)
//
// The strategy asks the runtime for symbolic traces
// (strategy.SymbolicTracer): every read of a concolic variable gives the
// program a fresh variable (rd(x, r)), and the trace records the
// expression of every value written (wt(x, val), trace.SymAccess).
// Branches (br(ψ)) are the trace's symbolic branches, an assertion two of
// them (a plain w.Assert too: see "Plain assertions"); forks are the trace's spawns, placed among the parent's branches
// by trace.ThreadInfo.Branch; acquires and releases are its mutex steps.
// The builder (build.go) turns an execution into these actions, one node
// each, and names each read's variable by its place (thread, depth) so
// that one read is one variable in every scenario that holds it.
//
// # The interference forest (§5)
//
// A node is interned by its label, its thread, the node before it in its
// thread (or, for a thread's first node, the fork that started it) and,
// for a read another thread's write interferes with, that write (for a
// join, the joined thread's last node). Its index thus names its whole
// causal past: the causal interference scenario CIS(n) of Def. 5.3 is the
// closure of n, and two nodes are one exactly when their scenarios are
// isomorphic (Def. 5.4), which makes merging (Remark 5.5) and the
// duplicate cache (§7.5) index comparisons. The observed nodes form the
// forest; the others are hypothetical: the dangling nodes of Alg. 2 (the
// other side of each branch) and the nodes of the scenarios Alg. 3 builds.
//
// # The algorithm (§7, Alg. 1-3)
//
// The first execution runs the test body's thread alone (lines 6-9);
// each thread it starts gets its own (an iscStart ISC: its fork's causal
// past, then the thread alone). Each execution is merged into the forest
// (Alg. 2): every branch side not seen before becomes a dangling node and
// its CIS an ISC, queued in W^d by its degree d (its interferences),
// if d <= k. Next takes an ISC of the lowest degree (Alg. 1 processes W^0,
// W^1, ... in order) and checks it (RealizabilityCheck, Thm. 7.2): the
// data constraints DC (branch conditions, a read equal to the value of
// the write it reads: its interference, or its local write, or the
// initial zero) and the temporal constraints TC (program order, forks,
// joins, lock exclusion, write-read coupling) of Fig. 5 go to Z3, the
// timestamps as narrow bit-vectors. A realizable ISC is executed: its
// steps in the order of their timestamps with the solved inputs, then its
// target thread alone until it ends or blocks (§7.1: σ'·(Th(sink), −));
// the execution is checked node by node against the scenario, and stops
// at a read that would take a write the scenario does not foresee (§7.3),
// whose node without that interference becomes an ISC. An unrealizable
// ISC goes to UN and is extended by one interference from every known
// write to every read that reads locally (Alg. 3), the write's causal
// past merged in when compatible; the writes an execution observes first
// extend every ISC of UN (lines 21-23).
//
// A read of a variable whose values carry no expression (a Var[int], not
// a Var[SInt]) is where this departs from Alg. 3: the paper's programs
// branch only on symbolic values, so the nodes after an interfered read
// stay what they were, their branches' conditions over its new value.
// weft's programs may branch on such a value in a plain Go if, which the
// trace does not show: a Cond's waiter, for flag == 0 { cond.Wait() },
// that reads the flag another thread set does not wait at all. Alg. 3
// then makes the read's node with the write as its source the sink of an
// ISC of its own, the read's thread running alone from it (the §7.3
// dangling node with the interference instead of without it), rather
// than keeping the nodes of its thread after the read, which would
// assume the wait; without it, 9 in 100 generated programs of the Cond
// family missed sides that a waiter reaches past such a read. With it,
// TestDifferentialSync agrees with brute force on 1000 programs of the
// Cond family (CON2_SYNC_PROGRAMS=1000) and on the 300 of every family
// that WEFT_LONG=1 checks.
//
// LC1 is as the paper means it: its text reads t_rl < t_aq' ∨ t_rl <
// t_aq, a misprint for mutual exclusion, t_rl < t_aq' ∨ t_rl' < t_aq.
//
// # Plain assertions
//
// The paper's goal is to reach assertion violations, which its programs
// write as branches on symbolic values. A plain w.Assert(cond, ...) has a
// bool: in a symbolic trace it is still a branch (its failing side a
// check), whose condition is the constant cond. Which side it takes is
// decided by values con2 does not see, so its other side is never taken
// after the same nodes (completion does not try it), and as a scenario
// its constant side is unsatisfiable with a core no interference
// removes: unsat-core guidance would drop it. con2 instead extends it by
// every interference before it (Alg. 3 without guidance), and a read
// before it in its thread ends the scenario there, the thread running
// alone from the read with the new write (as for a read whose values
// carry no expression). On a body with no inputs whose T2 asserts it
// reads x's initial value while T1 writes x, con2 with k = 0 covers the
// passing side in its 3 initial runs, and with k = 1 covers the failing
// side and reports the failure in a 4th (TestPlainAssert); before,
// having seen no branch, it finished after 3 runs with k = 1 as well.
// What a plain Go if decides, or a panic behind one, is still invisible:
// such a failure is found only when an execution runs into it.
//
// # Units of work
//
// con2 divides its exploration into units (strategy.Splitter), in
// process and over NATS. A unit is an ISC, the one Next would take next,
// handed out before it is checked: its kind, sink, target and tips; the
// splitter's table of threads (the path of spawns of each stable number:
// nodes name threads by these numbers, which a strategy otherwise gives
// in the order its executions meet the threads); its nodes (its causal past, in topological order, each with its label and
// its key's nodes as positions in the unit); its data constraints DC
// and, for a scenario of variables and locks, its temporal constraints
// TC, as the splitter builds them (with the splitter's numbers of the
// reads each couples, for unsat-core guidance); for a scenario with steps
// of other primitives the order of its steps instead (order.go's search
// needs the whole forest, not the solver). The terms of the labels and
// constraints travel in the solver's wire form (solver.EncodeExprs: one
// table, shared sub-terms once). The strategy that resumes the unit
// interns its nodes in a forest of its own, at their positions, solves
// DC and TC with its own solver (Z3, in the worker's process), runs the
// scenario and checks its execution against the nodes as Next and Choose
// do. Its handback says whether the ISC was realizable, and if not the
// reads its unsat core guides to (or that it is pruned, or has no order
// of its steps); if it was, the execution (the parts of the trace con2
// builds nodes from, its branch conditions and accesses in their wire
// form through encoding/gob), whether it diverged, and the read an
// unforeseen interference stopped it at. Join does what Next and Finish
// would have: it extends an unrealizable ISC (Alg. 3), or builds the
// execution into the splitter's forest and derives its ISCs; an ISC the
// unit left undecided (its exploration stopped first) is queued again. A
// unit splits no further, and Join returns no units: the forest, the
// worklists and the coverage stay with the splitter, whose Next may find
// work again after a Join; in a distributed run, parts of con2 split off
// no parts of their own. A strategy resumed from a unit reports no
// counters: its splitter counts the unit's work when it joins it. Joined
// before the splitter's next Next, units give exactly the undivided
// exploration: package weft's TestDividedPrograms and TestDividedApart
// (addall, k = 2, 10 executions and the same solver queries), its
// TestDividedRandomPrograms (every generated program it divides,
// executions, events, failures and solver queries), and TestUnitsAtOnce
// here (gen seeds 17 and 99, Stats and sides too). Joined later, the
// same sides at the same k and the same failure kinds (TestUnits, and
// package weft's TestNestedPrograms and TestNestedRandomPrograms). A
// branch is named by its call site's address: the splitter and its
// workers run one binary.
//
// # Other primitives
//
// The paper's programs share variables and locks. weft's other
// primitives are modelled the way it models a read: a step is a node,
// and it is interfered when it synchronises with a step of another thread
// (not one its thread inherits, before its fork). The step it
// synchronises with is its source, part of its key like a read's write:
// the node names its causal past, its source's included, and counts one
// interference. The pairs are those the runtime records
// (trace.Event.Source, package model's "Synchronisation pairs"), with
// the steps the runtime pairs with none given one where their outcome
// depends on another thread (track.go). Per primitive:
//
// Channels: a receive is interfered by the send whose value it takes (on
// an unbuffered channel, the sender's side of the rendezvous, a node of
// the sender that runs in the receiver's step) and by the close it
// observes when it gets no value (OK false); a send or close on a closed
// channel by the close. A send on a buffered channel takes the room the
// receive of the value cap sends before it made: the n-th send's source
// is the (n-cap)-th receive. Len observes the last send or receive that
// changed the length, and its node holds the length.
//
// Select: a select is a receive or a send of the case it takes, with that
// case's source; a case ready in the thread's own right (a send with
// room, a receive of the thread's value) has none. The default observes
// that no case is ready: its source is the last step on any of its
// channels (a sender waiting since its start would make a case ready,
// and the step that took its value is what lets the default run). The
// case taken is part of the node.
//
// Mutex and try-locks: Lock, Unlock and a TryLock that succeeds are the
// paper's acquire and release, ordered by lock constraints and never
// interfered. A TryLock that fails observes the thread holding the lock:
// its source is that thread's acquire (for an RWMutex, the latest lock
// step of another thread still in effect: a writer's announce or lock, a
// reader's RLock).
//
// RWMutex: Lock, RLock and their tries that succeed observe the release
// before them (the last Unlock, or for the writer the later of the last
// Unlock and RUnlock); the announced writer's lock the RUnlock that let
// the last reader out.
//
// WaitGroup: Wait observes the Add or Done that brought the counter to
// zero, and an Add or Done the one before it (the counter is a variable
// that each adds to: whether a Done brings it to zero depends on the
// Dones before it). Once: a Do that does not run the function observes the end of
// the run of the thread that ran it. Cond: the Relock after Wait is
// woken by a Signal or Broadcast, its source; Wait releases and Relock
// takes back the mutex (for completion, §7.4). Semaphores: a P takes the
// unit of a V (units first in, first out; the initial ones have no
// source); a binary semaphore's V observes the P that emptied it.
// Monitors: Enter observes the last release (Exit, Wait), a Reenter the
// Signal that woke it or, signal-and-urgent-wait, the step that handed
// it the monitor. Time (blocked mode): a Sleep and a timer's channel are
// steps of their thread and of the timer's; their wake-up observes no
// thread (time moves when every thread is blocked, which a scenario's
// prefix need not be: such a scenario can fail to run as solved, counted
// in Stats.Diverged, never reported).
//
// Realization: Fig. 5's constraints order variables and locks; for a
// scenario with steps of other primitives, con2 searches an order of its
// steps (order.go) on package model's states, in which every step is
// enabled, takes the case, partner, OK and source its node says, and
// every read reads the write its node says; the data constraints go to
// Z3 as before. A scenario with no such order is unrealizable: its
// execution would not synchronise as the scenario says. The scheduler
// then follows the order, choosing each step's alternative (case,
// partner). Alg. 3's counterpart for these steps (alternatives.go) gives
// a step with no source, observed or pending when an execution ended,
// each step of another thread on its object as its source, and a
// select each of its other cases; the target running alone stops before
// a step that would synchronise with another thread's (§7.3). The sender
// of a rendezvous goes on from its send, which ran in its receiver's
// step: it gets a run alone from there (as a thread from its fork), and
// a scenario that holds a sender's side is completed with a receiver an
// execution showed, whose interference is the receiver's own and does
// not count for the scenario's degree.
//
// # Busy waits
//
// The paper's programs do not wait busily. weft's w.Await(cond) is one
// event, the evaluation of cond that holds (its loads are silent: no
// steps), which reads the variables it waits on (trace.Op.Cases). con2
// makes it what it is to the paper's model: a read of each of those
// variables, one node each in its thread's order, all run in one step
// (the last node's; the others are marked part of it). Each read is
// interfered when the write it reads is not its thread's local one, as
// any read (Def. 5.1), and counts one interference. The condition is Go
// code: its values carry no expression, and it is no branch of the
// symbolic trace. The paper's symbolic traces hold the branches on
// symbolic values only; a test on concrete values is not in them and
// constrains nothing, and so is the condition here: DC does not hold it,
// the await has no sides of its own (nor do branches on inputs inside the
// condition, trace.BranchEvent.InAwait: they are evaluations, in states
// the thread may never run in), and coverage is of the sides behind it,
// which it gates.
//
// Realizability. Thm. 7.2 makes an ISC realizable iff DC ∧ TC is
// satisfiable, with DC holding every condition on the path. Leaving the
// condition out makes the check an over-approximation: a solution can
// give the await's reads values with which its condition does not hold,
// a scenario the runtime cannot realize. Its execution blocks at the
// await (counted in Stats.Diverged). Since w.Await's condition may only
// load variables, it is a function of the values its reads take: with
// the values the evaluation that failed read (trace.Trace.Evals), every
// scenario that holds the await's nodes blocks as well. con2 adds that as
// a lemma, ¬(r1 = v1 ∧ ...), over the reads' symbols of the variables
// whose values carry expressions (the others the scenario fixes), to the
// DC of every scenario with those nodes, and runs the scenario again with
// the inputs the solver gives now, up to 8 times per await. The same
// holds where no scenario foresaw the await: a thread an execution leaves
// blocked at it (its target running alone, from the first runs on) has
// the scenario of its await reading locally run again without the values
// it read. (The lemma is exact for a condition that depends on the
// values it loads only; one that also reads Go values the thread
// computed, from inputs say, may need the excluded values with other
// inputs, which con2 then misses.) A scenario whose await
// blocks with every value (it needs another write) is the case of Alg. 3:
// a scenario that ends blocked at an await (its target ran alone into it,
// or a thread stopped there) goes to UN, as an unrealizable ISC does,
// and is extended by one interference on the await's reads (unsat-core
// guidance would not help: the condition is in no core), from every
// known write and from those later executions observe (lines 21-23). The
// write that makes the condition hold is among them if some execution
// within the bound makes it. An interference on an await's read keeps the
// nodes of its thread after the await (Alg. 3 as the paper has it, not
// the concrete read's rule of "The algorithm"): w.Await returns nothing,
// and no value it read flows into the thread.
//
// Loops of w.Yield: the loads of each turn are steps, reads as any load;
// a turn that fails leaves its thread at a pending await (AwaitYield)
// that never runs, the execution ending with it blocked. The scenario
// that ends at the thread's last node is then blocked, as above, on the
// turn's reads (the thread's last reads of the variables it waits on):
// Alg. 3 gives them other threads' writes, and the execution that
// realizes one runs the next turn after the write; and the values the
// turn read are excluded by a lemma, as an await's, for the loop's test
// to pass on the turn's reads with other inputs.
//
// What this loses against Thm. 7.3: a side behind an await whose
// condition holds for values the solver does not give in 8 tries (each
// try excludes one valuation of the await's reads). TestBusyWaits and
// TestDifferentialBusy (1020 programs of awaits, yields and time at any
// step, against brute force) found none.
//
// # Time at any step
//
// With weft.TimeAnyStep the clock is a shared variable, as the paper's
// variables: the advances of weft's clock thread write it, and every
// other operation on time reads it: a read of the time (Now, and the
// start of a Sleep or a timer, which reads it to compute a deadline), a
// Sleep's wake-up, a timer's Stop or Reset. A read that observes an
// advance (another thread's write) is an interference, and Fig. 5's
// coupling orders it after that advance and before the next. The time's
// values carry no expression: a branch on one is a plain Go if, and the
// rule of concrete reads applies ("The algorithm"). A Sleep's wake-up
// blocks until an advance reaches its deadline: a scenario that leaves a
// thread there is blocked, as at an await, and extended by the advances
// observed. A timer fires by its thread's send on its channel, which
// meets a receive: that send observes the advance that made the timer due
// (the advance's cases), its source, one interference; the search for
// an order (order.go) puts it after that advance. Alg. 3 can give a read
// only the advances some execution made, and the clock thread, started
// in the local code of the first step that arms a deadline, first runs
// alone from its fork (lines 6-9), before the later deadlines are armed.
// So an execution that ends with a thread waiting for time (a wake-up, a
// receive from a timer) while the clock could advance queues the
// scenario of its nodes in which the clock then runs alone, once per
// advance it would make: an advance's node holds where it moves the
// clock, and has no source, so it is one node whatever the other threads
// did. When time moves only
// when every thread is blocked, the time is no variable that a step
// writes, and the limit of "Limits" holds.
//
// # Optimisations (§7.5)
//
// Each is on by default and has an option to turn it off (Options):
// unsat-core guidance (an unrealizable ISC whose core has no local
// coupling is dropped, since no interference removes its core; the others
// interfere with the reads whose local coupling is in the core), the
// duplicate cache, and prioritised exploration (within W^d, an ISC whose
// sink is a side not covered yet, or that starts a thread, goes first).
// TestOptimisations and BenchmarkOptimisations measure each on a program
// made to need them: they change the work, not the sides covered.
//
// # Deviations from the paper, and why
//
//   - Threads are started as the program runs, by spawns, not declared up
//     front: the initial runs of lines 6-9 are one per fork node (its
//     causal past, then the thread alone), and a node's causal past holds
//     the fork that started its thread. A thread inherits the memory its
//     parent wrote before the fork: a read of such a write is local (the
//     paper's initial values, which its main thread writes before the
//     threads run), and the initial value of a variable is weft's zero
//     value. "Interferences of an execution" is defined this way for con2
//     and for the tests' brute force alike (Interferences).
//   - Joins are nodes, caused by the joined thread's last node; a read of
//     a joined thread's write after the join is still an interference.
//   - weft runs a new thread's code up to its first operation when it is
//     started, and a thread's local code after each step with the step:
//     code the paper's threads run only when scheduled. A scenario is
//     therefore completed with the local actions (branches, forks) every
//     thread but its target runs after its last node, along observed
//     paths and the other sides of their branches, and never through a
//     node after which an execution failed (complete). §7.4's extension
//     of lock holders to a lock-free node is part of the same completion;
//     a holder whose release no execution has shown yet runs alone from
//     that node once (iscResume), and the ISC is completed again then.
//   - The first execution takes each input's default (0, or its range's
//     minimum) rather than random values: the exploration is
//     deterministic.
//   - Lines 21-23 re-explore UN^i for i < k with new writes; con2 takes
//     every unrealizable ISC kept so far, UN^k included: one processed at
//     degree k before a write was observed would otherwise never meet it.
//   - A branch ISC counts a side as covered at the fewest interferences an
//     execution took it with; sides are static, named by the branch's
//     call site (trace.BranchEvent.PC) and the side.
//   - The other primitives (see "Other primitives") are not in the
//     paper. Their scenarios are realized by a search for an order on
//     package model's states rather than by Fig. 5's constraints, which
//     for them would have to encode every primitive's queues; the search
//     is exact for the scenario's steps and the steps the other threads
//     wait at, and bounded (Stats.OrderBound).
//   - A plain w.Assert is a branch on a constant, extended by every
//     interference before it (see "Plain assertions"): the paper's
//     assertions are branches on symbolic values.
//   - An unforeseen interference on a read-modify-write (Swap, CAS, Add)
//     stops the execution without a node to try instead: its write's
//     value is not known before it runs.
//   - Busy waits and time at any step (see there) are not in the paper:
//     an await is reads of variables under a condition con2 does not see,
//     learnt from when it blocks; a scenario left blocked is extended by
//     interferences as an unrealizable one is; the clock is a variable.
//
// # Numbers the tests pin
//
// TestAddAllInitialPhase: addAll's initial runs (the body's thread, then
// T and T' alone) leave 4 ISCs in W^0, two dangling nodes per thread (Fig.
// 6). TestAddAll: addAll has no failure with k = 0; with k = 1 every failure
// has u.cnt in 6..10 and one interference in its scenario; its four
// branch sides are covered 3 at k = 0 and 1 at k = 1 (the violation).
// TestAddAllBruteForce checks the 6..10 against every schedule of every
// u.cnt in [0, 100] (the notes derive it under mathematical integers).
// TestFoundWithOneInterference: jcute and unfold-fig9 fail at k = 1 (z =
// 1; a positive input), not at k = 0. TestRelay: a value relayed by two
// threads needs k = 2. TestTable1: bluetooth (our port) 8/1/1 sides per k
// with its bug at k = 2 (the paper's row: 14/8/2, bug at 2), art2..art5
// as the paper's rows (7/1 .. 16/1/1/1/1, bugs at k = 1..4), against
// brute force where small; weft bench -table table1 prints them beside
// the paper's. TestConstraintsGolden: DC and TC of a scenario, as is and
// completed (testdata/constraints.golden). TestOptimisations: what each
// optimisation saves on a program made to need it. TestDifferential: on random
// programs of three generators (one of relays between three threads, where
// sides that need two interferences are common), con2 with bound k covers
// exactly the sides brute force takes with at most k interferences, k =
// 0, 1, 2. TestDifferentialSync does the same on programs of each other
// primitive (channels, select with and without default, RWMutex,
// try-locks, Once, WaitGroup, Cond, semaphores, monitors), and requires
// every realized scenario to run as solved. TestBusyWaits: on a flag
// awaited (w.Await, a loop of w.Yield) and on sleeps with time at any
// step, the sides per k and the executions (an await that gates a
// branch on another thread's value: 4, 5, 7 executions for k = 0, 1, 2;
// the sleeps with time at any step: 8, 17, 19).
// TestDifferentialBusy does what TestDifferentialSync does on programs of
// awaits, of yields and of time at any step (sleeps, reads of the time,
// timeouts, timers stopped), whose scenarios may diverge where an await
// blocks: CON2_BUSY_PROGRAMS=n checks n programs per family (340: 1020
// programs, no disagreement). TestPlainAssert: see "Plain
// assertions". TestUnits: addall (k = 1) divided into 6 units, realized
// by another strategy with its own Z3 and joined late, runs 8 executions
// (9 undivided) and covers the same sides. TestUnitsAtOnce: gen seed 17
// divided into 4 units joined at once runs 8 executions of 21 events, as
// undivided; seed 99 splits 5 units and runs 9 executions of 39 events,
// 2 failing (an execution stopped at a read-modify-write used to queue a
// scenario of a node of no kind, a 10th execution, empty). TestGenerated: on
// internal/gen's programs (every primitive, virtual time in both modes,
// awaits and loops of w.Yield, polling loops, message passing) every
// failure kind and final state con2 reaches, exhaustive search reaches.
//
// # Limits
//
// con2 aims at branch coverage (strategy.Covering), it is not a deadlock
// search: it finishes when the sides are covered, and a deadlock is found
// only when one of its executions runs into it (Result.Covers and the
// summaries say so).
// Inputs are named by the order of their reads, as for the concolic
// strategies: give each thread's inputs labels of their own. A scenario's
// prefix can diverge from its solved run when a part of the program con2
// does not see decides otherwise (concrete values, plain Go branches):
// the execution is cut there and counted (Stats.Diverged). A hypothetical
// node has no observed continuation, so a scenario whose non-target
// thread Alg. 3 changed is completed no further than its last node.
// Compare-and-swap on a concolic variable compares expressions as well as
// values (weft's Sym is comparable): a fresh read never equals the
// written expression. A channel's Len is not tried with other sources
// (the length it would observe is not known before it runs). Virtual
// time: a sleep or a timer fires when every thread is blocked, which a
// scenario's prefix does not arrange (threads outside it stay enabled),
// so scenarios that need time to move before their last step diverge
// (Stats.Diverged) and the sides behind them may stay uncovered (T3's in
// TestBusyWaits' sleep-blocked); with time at any step the advances are
// steps of the scenario. An advance's node does not hold where it moves
// (the deadlines armed before it decide): a scenario whose advance moves
// elsewhere diverges. An
// object made during an execution and reached by two threads apart has
// two keys until an execution shows them one (trace.Trace.Merged); con2
// does not join them, and a scenario that mixes them may diverge.
package con2
