// Package optimal implements Optimal-DPOR (Abdulla, Aronis, Jonsson and
// Sagonas, "Optimal dynamic partial order reduction", POPL 2014, Algorithm
// 2): source sets and wakeup trees, so that the exploration runs exactly one
// execution per Mazurkiewicz trace and none that a sleep set blocks.
//
// # Walkthrough
//
//	s := optimal.New()
//	r, err := weft.Explore(body, weft.WithCustomStrategy(s), weft.KeepGoing())
//	// r.Complete is the number of traces; r.Cut is 0; s.Stats() tells more.
//
// or, by name, weft.WithStrategy("optimal").
//
// # The algorithm
//
// The execution model is Saarikivi et al. 2012, §II-A (Fig. 1): a step is a visible
// operation of a thread with the local code after it; steps of one thread
// are ordered; two steps are dependent under trace.CR (conflicting accesses
// to one object, reads commute) or through the thread structure (a shared
// thread, a join, a spawn), extended by the accesses a step makes by
// announcing its threads' next operations (trace.Steps). Happens-before is
// computed with vector clocks as in Saarikivi et al. 2012, Fig. 3.
//
// The runtime re-executes the program from the start for each execution
// (Saarikivi et al. 2012, §IV-C). The strategy keeps the stack of states of the current
// execution (node): the step taken, the sleep set, and the wakeup tree of
// the branches still to explore there. Choose replays the prefix of the
// previous execution, takes the next branch of the deepest state with one
// left, follows that branch's subtree in the states after it, and past a
// leaf takes any enabled step not in the sleep set (Algorithm 2, lines
// 11-21). Finish looks for the reversible races of the execution (lines
// 1-6): for a race e < e', the wakeup sequence v = notdep(e, E).e' goes into
// the wakeup tree of the state before e unless a sleeping event is a weak
// initial of v (insert_[E](v, wut), §6). Every race of E is analysed, those
// of the replayed prefix too: whether e < e' is a race depends only on the
// steps up to e', but v holds the events after e' that do not happen after
// e, and these may be new. Memory is the stack of states,
// bounded by the length of an execution times the size of the wakeup trees,
// not by the number of executions.
//
// # Cost
//
// The work of the replayed prefix is kept from the last execution: its
// events as the strategy names them, its steps' accesses
// (trace.Steps.ResetFrom) and its happens-before clocks; the thread and
// object clocks after the prefix are those the last execution left, with
// its events after the prefix undone from a log (an execution longer than
// 16,384 events keeps none: they are rebuilt backwards from the prefix's
// clocks; SetVerify checks them against a full computation, as the tests
// do). Programs of up to 64 threads keep their clocks flat, a row of
// entries per event and per object (hb.go, hbflat.go): a happens-before
// test is one load, and an event costs a few operations per thread; the
// others keep persistent clocks (trace.PClock), whose cost does not grow
// with the number of threads.
// Wakeup-tree nodes are reused once their branch is taken, so memory stays
// flat whatever the number of executions.
//
// The races of the replayed prefix are analysed again only where that can
// change something (race.go, cover.go): a step before the first event that
// some new event does not happen after has no race to reverse that the
// execution which first ran it did not reverse; and a reversal that an
// execution found covered by a sleeper or by the wakeup tree is found
// covered again without a walk of the tree when what decided that check
// is unchanged (the events before the point where the executions since
// left its path) or, where no event of the execution decided it, when the
// new events are independent of it. On indexer 15 about three in four of
// the prefix's reversals are settled so; the others walk the tree, from
// below the levels that an earlier check of the same reversal decided
// by events before that point alone (the record keeps the children it
// took: cover.go, resumeAt; on indexer 15, 904,082 levels of 6,615 walks
// are skipped so; on pairs 12, whose checks are decided near the end of
// the sequences, 32,686 of 20,481 walks). A walk compares a child with the elements of the sequence left only if a
// summary of their threads and objects (depsum.go) says it may depend on
// one: on indexer 15 that takes the comparisons of events from 14.3
// million to 4.2 million, and the record of a settled reversal is checked
// against one summary of the new events, not event by event.
//
// The races a replayed step reverses are taken from the record of the
// execution that ran the step anew, less those whose first event happens
// before every new event, instead of being looked for again (replay.go,
// which argues that they are the races the scan would reverse, in the same
// order; with verification on, the scan runs and the two are compared).
// On indexer 15 the candidates considered go from 663,558 to 128,424; the
// races and the branches inserted are the same (45,642 and 4,095).
//
// The race analysis of an execution of n events costs about n times the
// number of threads, not n squared: the candidates of the races of an
// event are found from what is kept of each object's accesses, not by a
// scan of all of them (frontier.go, which argues that the races reversed
// are the same; SetVerify checks it against the full scan). On the
// readloop program (one thread loads x m times, another stores it once)
// the time per event stays flat from m = 400 to m = 50000
// (BenchmarkOptimalReadLoop in package weft), where it grew about
// linearly with m before. The state in which a reversed receive (or a
// select of receives) would run, which decides its alternatives, is built
// from the events of its channels and the threads that send on them in
// the trace (sparse.go), not by replaying the execution into every object
// and thread; the forward pass that finds the alternatives an event
// disabled looks for a receive's partners among those threads too. With
// them, one execution of a chain of 10,000 goroutines passing a value on
// channels is analysed in time linear in its length. `weft bench -table speed`
// measures the traces per second on fib, indexer, pairs and filesystem on
// the machine it runs on, beside Nidhugg's figures.
//
// # Units of work
//
// A Strategy is a strategy.Splitter: its exploration can be divided into
// units explored elsewhere (strategytest.Divide). Split hands out the
// deepest state of the current path with branches left, the one Next
// would continue at, and pops it. A unit holds the path to that state: for
// each state above it, the step taken (to replay), its sleep set and its
// wakeup tree; for the state itself, its sleep set with the branch
// explored last and the branches left. It also holds the names the events
// are written in (threads by path of spawns, objects by key), whether an
// execution failed before, and the state of the random order (Options.Seed,
// which the unit's tag names with the strategy, so that Resume refuses a
// unit of other options). The strategy Resume returns replays the path,
// never backtracks above the unit's root, and analyses the replayed
// prefix anew in its first execution. Its races may insert wakeup
// sequences into its copies of the states above the root; its Handback
// returns them, with the branch each made in the copy, the path, the names
// and the statistics. Join inserts each into the state if the splitter is
// still exploring there the branch the unit is in; for a state it has
// moved on from, where sequential order would have put it if that place
// is still ahead of the splitter (a branch not taken yet, or a new last
// branch, at the state or down the branch it is exploring); otherwise,
// and for a state it has left, it returns a unit that explores the
// branches from there with the state's sleep set of when the unit was
// split off, plus the unit's branch (the branches explored since relied
// on the unit's, so they cannot cover its sequences in turn).
//
// Units, handbacks and letters travel as bytes, in binary forms of their
// own (wirecodec.go, on package wire's varints), each starting with a
// version that a process of another version refuses. encoding/gob, which
// they used before, described their types in every one and compiled a
// decoder for them at every Resume, Join and Receive: on fib n=5 with two
// workers, resuming a unit took 350 µs and splitting one off 213 µs (142
// and 75 µs now), and six alternated runs took 5.97 s of CPU on average
// (5.08 s now). BenchmarkUnitForms compares the two forms on a unit of a
// generated program: 5.5 against 74 µs to write it, 12 against 148 µs to
// read it, 837 bytes against 2,098.
//
// A unit explored and joined before the splitter's next Next gives the
// undivided exploration exactly: the same executions in the same order
// (the random order's state goes with the unit and comes back) and the
// same Stats, which Join adds up. Units explored while the splitter goes on
// reach the same traces, failures and final states (strategytest.Units
// checks both), repeating executions: on its 200 generated programs, with
// each unit explored three executions of its splitter late, the divided
// explorations run 1.02 times as many executions as the undivided ones
// (6585 for 6467) when splitting after every third execution, five levels
// deep, and 2.04 times (13,173) after every one, three levels deep; 1.62
// and 11.67 times before Join placed late wakeup sequences down the
// splitter's path (lateInsert).
//
// Why units explored at the same time repeat executions, and what it
// would take not to. The branches of a state are explored in order, each
// with the earlier ones asleep, and each relies on the races of the
// earlier ones: a reversal found in one branch whose weak initial is a
// later branch goes into that branch's wakeup tree, to be explored there.
// That insertion is needed, not a mere guide: dropping such reversals in
// an undivided exploration (a reversal of which a branch not yet taken
// is a weak initial, taken for covered by it) loses traces, 117 of 140 on
// fib n=2 and 1141 of 1698 on n=3 (all 92 final states kept): a branch's
// subtree, explored with the earlier branches asleep, is not complete
// without the reversals those branches send into it. So the branches of
// a state form a chain: the next may start only when the subtree of the
// one before, units included, is explored, and an exploration divided
// while it goes on can be exact only if a reversal that arrives late
// still reaches the place in the tree where it would have gone.
//
// Join is exact where that place is still ahead: a state the splitter is
// still in the same branch of (the reversal goes into branches not yet
// taken, as if the races had been met in another order), a state where
// it has taken a later branch since but the reversal, following in order
// the branches it would have followed, meets none explored or handed out
// (lateInsert: on fib n=3 divided after every execution, each unit
// explored three executions late, 2324 executions instead of 6823, 1698
// undivided), and a state at which it took no branch after the unit's (a
// unit from there with the state's sleep set and the unit's branch, as
// sequential order explores new branches after it). The repeated
// executions come from a reversal that meets an explored branch, and
// above all from SplitLarge: a reversal that the splitter finds and that a branch handed
// out is a weak initial of belongs in that branch's subtree, which the
// unit explores; the splitter explores it itself, from the state, with
// the branches handed out awake, and repeats what the unit explores. On
// one run of fib n=4 on four workers, 193 reversals went so, 63 others
// added branches at a state with branches handed out, and Join returned
// 5 units. Dropping the 193 loses traces (gen seed 40, SplitLarge after
// every eighth execution: 21 of 24), as above. Waiting for the unit
// before taking a new branch at its root or above makes the chain
// sequential: the splitter idles (30 to 45% of the time on fib n=4 with
// four workers). Exact division needs a late reversal to follow, in the
// state it was found for, the branches it would have followed then,
// explored ones included, and to become a new last branch where it stops
// (with every branch of that state asleep): a record, per explored state
// below a state with a unit out, of its branches in order, and a way to
// explore a new branch of a state left long ago (its path replayed, its
// sleep set rebuilt from the record); reversals sent to running units
// need the same record, since a unit may have explored the branch the
// reversal follows. Not done.
//
// With SplitLarge's units alone (parallel workers, and the workers and the
// coordinator of a distributed run), the splitter waits at a state for its
// units before it leaves it, so a handback finds the states it inserts into
// on the splitter's path (joinInsert): on fib n=4 on four workers, three
// runs, no Join made a unit and no lateInsert failed (over NATS, on two
// worker processes, 2 units in three runs). What repeated executions there
// is the other direction: a reversal the splitter finds, in the branch it
// kept, for the state whose other branches it handed out, was explored by
// the splitter once the unit was back (placeGiven, 56 to 63 a run, or a new
// branch after the ones handed out), with none of the branches the unit
// added there asleep, while the unit explored that state's branches without
// it: each could explore traces the other's branch covers. Sequential order
// puts all of the splitter's reversals there before any of the unit's own.
//
// Letters (mail.go, strategy.Mailer) make that division exact, with no
// record: the splitter sends such a reversal to the unit instead of
// exploring it, with the path it follows through the tree handed out
// (placeGiven), and sends a last letter when it has left the state
// (closeMail: at its wait for the unit, once no unit of Split's or Join's
// is out, whose handback could still bring one). Until then the unit may
// not leave a state of the tree it was handed nor take a branch of its own
// at one (frozen): a letter may still end there, as a new branch after the
// ones handed out, which sequential order explores before the later ones.
// It explores what lies below the first leaf of that tree it reaches, where
// no letter can go (placeGiven drops a reversal that reaches a leaf as
// covered), and waits (AwaitsMail). A letter that comes is inserted after
// the branches of the tree and before the unit's own, none of which is
// explored yet, which are inserted again after it (insertGiven): the tree
// is the one sequential order makes. With letters, SplitLarge never pops
// its state (splitAt): the unit's handback would come after the splitter
// had left the states it inserts into. On generated programs
// (TestDividedLarge: ten schedules, units of units four levels deep;
// seeds 0 to 199 measured) every division explores the undivided executions exactly,
// where 332 of the 2,000 repeated some without letters; and fib n=4 takes
// 19,605 executions on two and on four workers, every run. Parallel workers
// route letters (explore's parallel.go), and so do the processes of a
// distributed run (over NATS: package distrib's letters.go), exact too.
//
// A unit of SplitLarge explores the new branches of every state of its
// own subtree itself, as sequential order does. An earlier version handed
// those of the states its wakeup tree went through back to its splitter,
// prefixed with the path from the unit's root, to be inserted there after
// the splitter's own: the sequence lost the sleep sets of the states
// between the root and its place (the branches the unit had explored
// there), so that the next unit, exploring it from the root, found and
// handed back again reversals of what the last one had explored. It lost
// maximal traces (gen seeds 104, 203 and 287 of the first 300, divided
// with SplitLarge by strategytest.Divide after every execution, each unit
// explored one execution late) and repeated a unit's subtree over and
// over (fib n=3 so: 62,005 executions for 1,698 traces; 1,908 without it).
// Three more losses of SplitLarge's units are fixed (TestDividedLarge, in
// package weft's tests, checks 10 schedules, one to four levels deep, on
// the first 2,000 generated programs; 5 more, to five levels deep, were
// checked once). The tree of the branches handed out at a state
// (node.given) takes in no sequence that does not go down one of them: a
// sequence that a branch left covered joined it, where a later branch
// took it for explored (gen seed 593), and a branch that the splitter
// explores itself, put there, lacked the children the wakeup tree had
// below its first event, so that a branch the next state took among those
// had the sequence's asleep (seed 1213, units of SplitLarge within one).
// And a sequence that a unit hands back late, for a state whose splitter
// has taken since a branch after the ones it handed out, goes to a unit
// of its own if a branch handed out is a weak initial of it and it does
// not end in that branch's tree, as for a branch explored: sequential
// order would have put it into that branch's tree, which the branch's
// unit explored without it (seed 1360; Join had dropped it as covered, as
// it is for a race the splitter finds in the branch it takes after them).
// Units of SplitLarge can so split SplitLarge's units in turn, as they did
// before those two losses were found, instead of Split's: on fib n=4,
// six runs each, 19,605-20,808 executions on two workers (19,652-19,910
// with Split's; 19,605 undivided) in 0.43-0.55 s of CPU (0.51-0.69), and
// 20,194-22,111 on four (20,040-22,129) in 0.56-0.94 s (0.75-0.93):
// Split's took 1.24 times the CPU on average, on either.
//
// # What the paper does not say, and what weft does
//
// Alternatives. A step may have several alternatives (a select's cases, the
// senders a receive can meet). Each alternative is an event of its own,
// named by a label (the thread's step number, the case, and the partner's
// step and case), dependent with the others of its step. A race reverses
// every alternative of the later step that is enabled where the sequence puts
// it and dependent with the earlier event: a receive that found a channel
// closed may, before the close, meet a sender instead. The alternatives
// another step disabled before their thread reached a choice are found by
// the same scan (the previous steps of a rendezvous partner are its
// predecessors, not the partner's step itself) and by comparing the
// alternatives before and after each step.
//
// Blocking. The paper's races are immediate: no event in between. With
// blocking operations the immediate predecessor may be the event that
// enabled the later one (a release before an acquire): reversing them is
// infeasible, and the race to reverse is with an earlier event (the previous
// acquire). The scan keeps a candidate only where the later step can run
// without it; whether it can is computed from the trace by package model,
// the state of every primitive, against which the runtime is checked
// (sim.go adapts it: mutexes, reader/writer mutexes, WaitGroups, Once,
// semaphores, channels and selects, joins, Conds and monitors with their
// FIFO queues of waiters, SU's urgent waiters and which waiters were
// woken). Virtual time (sleeps, and whether a timer is due), which moves
// only when no thread can, is not known in a reordered state: those
// decisions are taken optimistically and counted (Stats.Unmodelled). Taken optimistically, a decision can keep a
// candidate that in fact enabled the later step and so miss the race with
// an earlier one: before Conds and monitors were modelled, a one-slot
// buffer with two producers and two consumers lost 18 of its 56 traces with
// Conds, and 55 of 56 on an SC monitor (TestOptimalModel). For timers, a
// receive from a timer's channel (plain, or a select case) may meet the
// timer's thread in the model wherever it is placed, and a select with such
// a case may take its default: the model does not know whether the timer is
// due. A reversal that puts such a step where the timer is not due is
// infeasible and dropped when its turn comes (Stats.Infeasible). So a
// candidate kept for an alternative whose enabledness the model only
// assumed does not hide the events that happen before it from that
// alternative, as a known one does: they are candidates too, and the race
// with an earlier event is reversed as well (a select on a timer's channel
// and a closed one, after a Reset of the timer and the close: the reversal
// before the close is infeasible, the one before the Reset is not;
// timer-reset-select in soundness_test.go, which optimal missed before). The
// state may then be sleep-set blocked: programs with timers are explored
// completely, each trace once, with some cut executions (TestOptimalTimers:
// six programs; the timer-stop program of soundness_test.go, whose outcome
// a reversal towards a timer receive once missed). With time at any step
// (weft.TimeAnyStep) none of this applies: every move of time is an
// event of the clock's thread, ordered with every step that reads time,
// so the model knows the time of every reordered state, and the clock
// runs to its last deadline before an execution completes, so each
// advance that a step could precede is in the trace to race with: one
// execution per trace, none cut (TestAnyStepDifferential). A reversal may also
// change the outcome of a try-operation (a TryLock that succeeded fails
// before the release it raced with): what its thread announces after it
// (trace.AppendAnnounced) then depends on code not yet run, and the strategy
// keeps the announcements of the trace it came from, which may order the
// reversal after a sleeping event it does not really conflict with. The
// branch is then explored and cut when sleep-set blocked, never missed (gen
// v2 seed 6903: one cut in 38 executions); dropping the announcements
// instead could miss a trace. A step whose operation commutes with a later
// event e' may still race with it by what it announces (a send offered to
// the select of e'): the race is then with a point inside the step, after its
// operation, and the wakeup sequence is notdep(e, E).e'.e, so that a
// sleeper which e's operation wakes (a store e reads) does not cover it
// (gen v2 seed 8165). The alternatives of the
// current state are named by the runtime (strategy.State.Alternatives), not
// by the model, so the sleep sets apply to timer receives too. Without the
// runtime's names (synthetic states), the step of a receive or select whose
// alternatives the model cannot name gets its other alternatives as branches
// of its wakeup tree (siblings), as exhaustive search would.
//
// Awaits. A w.Await is one event, the evaluation of its condition that
// holds, and a thread whose condition is false is blocked: its enabledness
// is a function of values, which the model reads from the evaluations the
// execution recorded (trace.Trace.Evals) where one saw the same values, and
// takes optimistically otherwise (Stats.Unmodelled). A reversal that puts
// the await where its condition is false is infeasible, dropped when its
// turn comes, and its state may be sleep-set blocked: the execution is cut.
// The condition loads what its values lead it to, so the await left
// blocked there may wait on variables the await that was reversed did not
// read: the races of an await blocked at the end of a cut execution are
// reversed too, as those of the operations a failure left pending (on
// Dekker's lock, without it, a trace in which the waiter reads the turn
// before the other thread's unlock was missed). The spin locks of package
// weft's tests are explored completely but for one trace of the filter lock
// for three threads (237 of 238): a waiter that reaches its await late
// reads fewer variables than it would have earlier, and Algorithm 2, which
// reverses the races of executed events, has no pending step of it to
// analyse in the states before (the DPOR family, which analyses the pending
// operation of every thread in every state, finds all 238). Not done.
//
// Order. Options.Seed randomises which enabled event a state without a
// wakeup tree takes (weft's WithSeed): the traces explored, one execution
// each, are the same in every order; the soundness tests check ten.
//
// Failures. A failure ends the execution in the local code of its last step,
// which thereby disables every other thread: the failing step is dependent
// with every event, its races move it before each concurrent step, and a
// reversal of a pending operation with it repeats the failure after the
// operation. Deadlocks and leaks end with no thread enabled: their pending
// operations race with the events that disabled them.
//
// Outcomes. Whether a CompareAndSwap or TryLock writes depends on the state;
// the reversed step of a race is given the outcome it will have where the
// sequence puts it (the expected value is the operation's argument).
//
// Identities. The trace numbers threads and objects by creation and first
// use, which depend on the interleaving; sleep sets and wakeup trees keep
// events across executions, so objects are compared by the runtime's stable
// key (trace.ObjectInfo.Key): an object made or named outside the
// executions has a key of its own, one made by a constructor is named after
// its creator, another object that outlives one execution keeps the key of
// its first registration; one created during an execution (a
// zero value in the test body) is named by each thread that touches it in
// that thread's own terms, and the runtime keeps across executions which
// key each such name stands for (internal/engine, object.go), so the object
// gets one key whichever thread touches it first. An object that two
// threads reach for the first time together only in a later execution (one
// of them took another path, or failed, before) had two keys until then:
// the runtime merges them (trace.Trace.Merged) and the strategy renumbers
// every event it keeps (merge.go; gen seed 2398 missed a trace before).
// Threads are compared by stable names too, not by the trace's numbers,
// which follow the order threads are started in: a thread is named by its
// parent's name and its rank among the parent's children (names.go). Two
// steps that start threads are therefore independent unless they conflict
// otherwise; ordering them, as the strategy did before, hid the races of
// the threads' own events with each other (gen v2 seed 336: a load in one
// spawned thread and a store in another, whose spawns had to come in one
// order, so a leaking trace was never explored).
package optimal
