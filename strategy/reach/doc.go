// Package reach implements reachability testing: Lei and Carver,
// "Reachability testing of concurrent programs", IEEE Transactions on
// Software Engineering 32(6), 2006 (Lei and Carver 2006;
// RichTest). It exercises every
// partially ordered synchronisation sequence (SYN-sequence, §3) of a
// message-passing program exactly once (Theorem 2), deriving the next
// sequences from the race conditions of the last one, and keeps no record
// of the sequences it has run: only a stack of the nodes whose variants
// are still to run, one per level of the spanning tree it builds (§7.3),
// so its memory stays flat however many sequences there are.
//
// # Walkthrough
//
//	s := reach.New(reach.Options{})
//	r, err := weft.Explore(body, weft.WithCustomStrategy(s), weft.KeepGoing())
//	// r.Executions is the number of runs: one per SYN-sequence, plus the
//	// partial runs and the runs again of failing ones (s.Stats()); err
//	// wraps ErrUnmodelled for a program reach does not model.
//
// or by name, weft.WithStrategy("reach"), and on the command line:
//
//	weft run -strategy reach -seed 0 -p su=1 bbmonitor
//
// # The model (§3)
//
// Every step of a weft execution is a receiving event at the next
// position of one object: §3's completion of a semaphore operation or
// entry into a monitor, generalised. Its sending partners are the calls
// it completes: its thread's pending operation and, for a rendezvous on an
// unbuffered channel, the sender's. A thread's calls are its sending
// events; the SYN-sequence is, for each object, the sequence of its
// receiving events with their partners (Definition 1), which
// TestGenerated and TestGeneratedKinds compare with exhaustive search's
// executions read the same way. The objects:
//
//	weft                 object of the model                      its receiving events
//	unbuffered channel   the channel                              rendezvous (partners: receiver, sender), close,
//	                                                              receives and sends that find it closed
//	buffered channel     its input and its output, two objects    input: sends that put a value in, close, sends
//	                                                              that find it closed; output: receives
//	select               the object of its cases (a select that   the case it takes, or its default
//	                     chooses, with a default or two cases,
//	                     joins its cases' objects into one, both
//	                     halves of a buffered channel)
//	semaphore, binary    the semaphore (§2.3, Fig. 4)             P and V completions
//	semaphore
//	monitor, SU or SC    the monitor (§2.4, Fig. 5)               entries and SC re-entries race; Wait, Signal,
//	                                                              Exit are events no one else can race for
//	Mutex, RWMutex,      the object (a Mutex is the binary        every operation
//	WaitGroup, Once      semaphore of [6], which §3 mentions)
//	Cond with a Mutex    one object, the Mutex and its Conds: an  Lock (entry), Relock (SC re-entry), Unlock,
//	                     SC monitor (§2.4; joined, as by a        TryLock, Wait, Signal, Broadcast
//	                     select)
//	Cond with another    the Cond (the Locker is an object of     Wait (it enqueues), Relock (the wake-up),
//	Locker               its own)                                 Signal, Broadcast
//	shared variable      the variable                             every access: load, store, add, swap,
//	                                                              compare-and-swap
//	Len of a channel     the channel (a buffer's two halves       the length read
//	                     joined into one object, as by a
//	                     select that chooses)
//	await (w.Await)      the variables it waits on (joined)       the await's step (its loads are accesses)
//	busy-wait loop       none: a turn that only loaded blocks     - (its loads are the variables' accesses; a
//	(w.Yield)            its thread for good                      run left so is assumed away if a write
//	                                                              followed them, no SYN-sequence)
//	timer                the timer (its channel)                  the firing (a rendezvous with the timer's
//	                                                              thread), Stop, Reset
//	clock (time at any   the clock, a shared variable; an         every operation on time: an advance (the
//	step)                advance joins it with the timers it      clock thread's call), a read of the clock,
//	                     makes due, a Stop or Reset with its      a sleep's start and wake-up, a timer's
//	                     timer                                    creation, Stop and Reset
//	Sleep (time that     none                                     -
//	moves when blocked),
//	Join
//
// Shared variables. §3 says the general model handles them "by modeling a
// read (write) operation as receiving (sending) a message from (to) a
// shared variable", without details; the read-write SYN-sequences of the
// work it cites (Hwang, Tai and Huang's reachability testing of
// read/write programs, Carver and Tai's book) order a variable's writes
// and place each read after the write whose value it read, so that reads
// of one value are not ordered among themselves. reach makes each access
// a receiving event at the next position of the variable, as for a Mutex
// (the operation a thread calls is its sending event), with race sets
// from package model like every object's: a read then races with a read.
// Why: the objects of reach are totally ordered sequences of positions
// (Definition 1, the race table's columns, the variants' specs), and
// dropping read-read races from the race sets as a reduction would lose
// sequences: with reads r1, r2 and a write w all concurrent, the sequence
// r1 r2 w has race sets {r2, w} at r1 and {w} at r2; without r2 at r1,
// the order r2 w r1 (r2 reads the old value, r1 the new) is reached from
// no variant. The price is the orders of reads that no one can tell apart
// (one writer and two readers: 6 sequences, 4 of them distinguishable;
// TestKinds).
//
// Condition variables. A Go Cond signals and continues: a woken waiter
// competes with the other threads for the mutex, as the SC monitor's
// signalled thread does to re-enter (§2.4). So a Mutex and the Conds whose
// Waits release it are one object, the monitor: a Lock is a monitor call
// and its entry, a Wait's Relock is the call an SC monitor's thread issues
// to re-enter and its entry (§3: "a monitor call event also occurs when T
// tries to reenter a monitor M after being signaled"), both races for the
// monitor as in Fig. 5. The paper's monitor method is the region from a
// Lock to its Unlock; Wait, Signal, Broadcast and Unlock are events of the
// monitor, as weft's Monitor's Wait, Signal and Exit are, which no other
// call can race for while the lock is held (a TryLock can: it fails
// there). Where Go goes beyond the paper's monitor:
//
//   - Signal and Broadcast do not need the lock. Outside it they are
//     calls that race for the monitor's positions like entries: a Signal
//     before a Wait wakes no one (a lost wake-up, a deadlock if the waiter
//     checks nothing: TestCond).
//   - Go's waiters are a FIFO queue, as the paper assumes: the waiter a
//     Signal wakes is decided by the order of the Waits before it on the
//     monitor, so a Signal has no partner; a Relock synchronises with the
//     Signal or Broadcast that woke it (trace.Event.Src), which the order
//     of the monitor's events already holds.
//   - A Mutex and a Cond are joined when a Wait or a Relock names the
//     Mutex it releases; a Cond that earlier runs only signalled was an
//     object of its own, and the exploration begins again (Stats.Restarts,
//     as for a select; 8 of 100 generated programs that use a Cond, 32 of
//     their 500 runs).
//   - A Cond whose Locker is no Mutex (an RWMutex) is an object of its
//     own: its Wait only enqueues, the Unlock and Lock are the Locker's
//     steps.
//
// Virtual time, when it moves only when every thread is blocked (weft's
// default): a sleeper's wake-up is then decided by the others, a step on
// no object, and a timer's firing is a rendezvous with the timer's own
// thread on the timer's channel, which races with Stop and Reset there
// and, in a select, with the other cases as any rendezvous does.
//
// Time at any step (weft.TimeAnyStep). The clock is then a shared
// variable (trace.TimeObject) and reach models it as it models one,
// following §3's extension ("modeling a read (write) operation as
// receiving (sending) a message from (to) a shared variable") and the
// read-write sequences of the work it cites:
//
//   - Every operation on time is an access of the clock, a receiving
//     event at its next position whose sending partner is the call of
//     its thread: the advances of weft's clock thread (writes: each is
//     that thread's call, a sending event, completed at the clock's next
//     position), the steps that arm a deadline (writes: a sleep's start,
//     a timer's creation), and the reads (trace.KindNow, a sleep's
//     wake-up, a timer's Stop and Reset). Reads race with reads, as a
//     variable's do (above). The race sets come from package model, like
//     every object's: its state of the clock's object, reached by what
//     happened before, knows the time (every move of it is an advance,
//     an event of that object, from 0), so an advance is open while a
//     deadline lies ahead, a sleep's wake-up once its deadline has
//     passed, a read always (Proposition 2 with "open" decided by the
//     model, as for every object). Where time moves only when every
//     thread is blocked, when a sleeper wakes depends on every thread,
//     no object's state; at any step it depends on the clock's only,
//     and the paper's model applies as it stands.
//   - A timer's firing is a rendezvous with the timer's thread, as
//     above, enabled by the advance that makes the timer due. That
//     advance is one event whose outcome depends on the clock and on
//     those timers (it makes their sends open), as a select's depends on
//     its cases: it joins the clock and the timers' channels into one
//     object, as a select that chooses joins its cases' (Stats.Restarts
//     when it joins objects earlier runs kept apart). So the firing's
//     control structure holds the advance before it on that object, and
//     the race sets there are decided in one state that knows the time
//     and the timers. A Stop or Reset reads the clock (a Reset's deadline
//     is read from it) and changes its timer: one event of both, joined
//     likewise. A ticker re-arms in the thread that received its tick: a
//     read of the clock and a Reset of its timer, events as above.
//   - The price is coarser objects than the finest model: a select on a
//     timer's channel and a worker's joins the worker's channel with the
//     clock, and reads of the clock are ordered among themselves. Every
//     step is still one receiving event of one object, so Theorem 2
//     holds for these sequences: each exercised exactly once.
//
// TestTimeAny pins hand programs against exhaustive search with time at
// any step (the same sequences, failures and final states): a sleep
// racing a write (2 sequences; exhaustive search's 5 executions), the
// built-in timeout program (12 sequences and 6 leaking runs; exhaustive
// search's 729 executions, 374 of them leaking), a Stop racing its
// timer's firing (3; 6 executions), a ticker stopped while it is read
// (54; 186 executions). TestGeneratedTimeAny compares the generator's
// programs on time (gen.Timed, gen.Loops) and tickers (genweft.NewTickers, as
// unfold's tests) with exhaustive search, each with the free runs in
// thread order and at random: with REACH_TIME=400, 400 programs of each
// that exhaustive search finishes (in 5,000 executions; 1,500 for
// tickers), 1,200 in all, of which 857 advance the clock (the others
// never sleep or make a timer): 11,395, 16,067 and 69,553 sequences, every
// one exactly once, every failure found, no disagreement; and 300 of each
// from seed 5,000 (REACH_FROM), 900 in all: 7,343, 13,951 and 52,283
// sequences, no disagreement.
//
// Refused (strategy.Failer, an error wrapping ErrUnmodelled that names the
// primitive and the strategies that model it, at the first scheduling
// point where a thread has it pending): objects of a class weft adds
// before reach models it (time at any step was refused until reach
// modelled the clock), and runs that an assumption ended (w.Assume: no
// SYN-sequence of the program's).
//
// # Symbolic inputs
//
// Lei and Carver 2006 explore one input X (§1). With Options.NewSolver (the
// Z3 solver package concolic gives weft.WithStrategy("reach")), reach
// explores the inputs too, as Kähkönen et al. 2014 do in unfoldings (a branch
// on an input is an event per side, carrying its side's constraint; a
// target whose path constraint is unsatisfiable is not run):
//
//   - A branch on a symbolic condition (w.If, AssertSym) is a receiving
//     event of an object of its own, placed in the SYN-sequence right after
//     its thread's step before it (sym.go, augment: weft runs a thread's
//     local code up to its next operation at once) and counted as a call
//     of its thread, so that every later call of the thread happens after
//     it. Its outcome is its side (the event's case); its control
//     structure is its thread's past (the values it received and read
//     decide its condition), so a variant that changes an event there
//     removes it, and the thread's calls after it.
//   - A new thread's local code up to its first operation runs inside its
//     parent's spawn (the runtime runs it before the parent goes on), so
//     its branches there happened before the parent's next call and
//     before the threads the parent starts after it (seq.go, spawnTime):
//     a failure there ends the run before the parent goes on, and a
//     variant that flips such a branch removes what the parent did after.
//   - A CompareAndSwap of a concolic variable whose comparison depends on
//     an input has its outcome as a branch of its step (its write is done
//     or not with it): a branch event right after the step, as any other,
//     that the next step on the variable happened after (what that step
//     finds depends on whether the swap wrote), so that a variant that
//     flips it removes what came after on the variable.
//   - Its race set is the other side, if the path constraint of its
//     control structure (the sides of the branches that happened before
//     it, with the declared ranges of the inputs) and that side are
//     satisfiable (Stats.UnsatSides counts those left out). No other call
//     races for it: a branch is local code of its thread.
//   - A race variant's path constraint is the sides of its branch events;
//     its run reads the inputs of the solver's model (Input; inputs are
//     named by their thread's stable number and their rank among its
//     inputs), and the events after the variant run freely with them.
//   - Concurrent branches on the same inputs are not independent, which
//     the paper's events are: a variant that flips one keeps a concurrent
//     white one with its side, and the two sides may be unsatisfiable
//     together, while the variant's subtree still holds the runs that
//     remove the white one (by changing an event before it, which the
//     subtree may). Such a variant is relaxed (Stats.Relaxed):
//     if the constraint of its black branches (which its subtree keeps) is
//     satisfiable, it is run with those inputs, a white branch takes its
//     other side, the run is analysed but not counted (its sequence is in
//     the subtree of the sibling that flipped that branch), and its rows
//     that remove such a branch are explored as variants; a row that
//     keeps one is run too, not counted, and its node keeps the branch to
//     remove (variant.Must: a row that keeps it may be needed before one
//     that removes it). A variant whose black branches are unsatisfiable
//     is not run (Stats.Unsat).
//   - The solver's inputs satisfy a variant's path constraint, not the
//     sides of the branches that come after it, and a thread that fails
//     after one of those can end the run before the variant's black
//     events are replayed. Such a run (Stats.Diverted) is analysed, not
//     counted, and its node explores the rows that flip or remove that
//     branch, keeping the variant's events it did not reach.
//   - The events of a variant that its run did not reach (it ended at a
//     failure first, or was cut short) stay in the node and in the
//     variants derived from it while their control structures do
//     (reach.go, unfilled), as §7.3 keeps the unmatched events of a
//     partial run: an event a variant fixes stays fixed in its subtree
//     (C1 and C2) whether a run reached it or not, and the sides of its
//     branches stay in the path constraints. So does its thread's call
//     after it, if the variant had it (its control structure is that
//     event): an old call, which the race sets of the subtree do not
//     offer again (seed 9067 ran a sequence twice when it became new).
//   - A failure after a branch (w.Fail on its true side, an assertion's
//     false side) is postponed as any failure is (failures.go): the step
//     before the branch is the call postponed, and it is marked failing in
//     the variants that keep the branch's side.
//
// TestSymbolic pins hand programs (values through channels and variables,
// concurrent branches on one input, branches in spawns, compare-and-swaps
// on inputs, a TryLock a branch races with), TestEndRace an end race
// (below); TestGeneratedSymbolic compares random programs that pass two
// inputs through a channel and a variable and branch on them with brute
// force (exhaustive search for each of the 9 vectors of their values),
// each with the free runs in thread order and at random: with
// WEFT_LONG=1, 1,000 programs (788 of them branch on an input), 6,024
// sequences, all agree; 5,000 programs (REACH_SYM), 29,063 sequences, and
// 5,000 from seed 5,000 (REACH_FROM), 27,801, all agree, and every
// exploration is called exhaustive; so do 3,000 from seed 10,000, with
// 18,496 sequences (before, seed 10118 ran 2 sequences twice and seed
// 12464 was not called exhaustive: Open receives and End races below).
// TestGeneratedSymbolicCAS does the same with some stores turned into
// compare-and-swaps (WEFT_LONG=1: 300 programs, 2,801 sequences, all
// agree). TestGeneratedSymbolicPinned pins the programs that disagreed
// before, or were not called exhaustive, with the cause of each.
//
// End races. A run ends at its first failure, and when only postponed
// failing calls can move, the one taken ends it: the steps of the others,
// and the branches their threads take before they fail, are in no
// sequence, and a branch on an input among them would never have its
// other side explored (seed 1507 missed a sequence so). In §3's terms the
// failure that ends a run is an event of its sequence, the calls left
// pending its sending events still open, and each of them could have
// completed first: its step and its branches are events too, after the
// end, which a variant may keep or change like the others. So the run
// that meets such an end race is a probe: it takes a hidden call instead
// (Stats.Probes; ends.go), and the run that takes the race's own choice
// is analysed with the probe's step and branches appended at the next
// positions of their objects, each failing step marked (spec.Fails).
// Its race table has the other sides of those branches; a variant that
// flips one keeps the step before it (black) and runs the other
// thread's failure last. A run that takes a black event of its variant
// only in such a tail, after another thread's failure ended it, does not
// extend the variant: it is analysed but not counted (Stats.Behind; seed
// 3736 ran a sequence twice before). Only calls whose failure came after
// a branch on an input the variant does not fix are appended: a call
// that fails whatever the inputs has nothing after its step to explore,
// and its step's other positions are in race sets as a pending call's.
// Two steps on one object cannot both follow the end: the hidden call
// could have taken the position of the last step there instead, and is
// in its race set as a pending call is (§5.2: it is open there), so the
// variant that gives it that position takes its step and its branches,
// which that run analyses. Such a call is not appended; only if the race
// set of that position lacks it (the event is black, or the model did
// not offer it) is it hidden. A call of the last step's thread, or whose
// probe did not fail right after its step (it read another value than
// when it failed), is left out too; its branch's other side may then be
// missed, and the exploration is not called exhaustive (Stats.Hidden,
// Strategy.Incomplete). A chain of probes costs a run per hidden call.
// Before, every exploration with a run that left such a call pending was
// so flagged: 24 of the first 5,000 generated programs, of which 5 meet
// end races (in thread order) and 19 do not (in seed 618 the call is
// blocked at the end, and its races are analysed as any pending call's).
// Then a call on the last step's object still was (seed 12464: two
// threads fail inside one Mutex, which agreed with brute force); none of
// the 13,000 programs of the sweeps above is flagged now.
//
// Happened-before (§4, Proposition 1) is a vector clock per step over the
// threads (seq.go): a step's clock joins its threads' clocks, the previous
// step on its object, and the steps it synchronises with besides its
// calls (trace.Event.Src: the send whose value a buffered receive takes,
// the close it finds; and, computed here, the receive that made room in a
// buffer for a send). Timestamps gives the paper's own §4 timestamps
// (asynchronous, modified synchronous, object clocks) for Figs. 2-5.
//
// Control structures (Definition 3): a receiving event's is the previous
// event on its object and what happened before it, without its partners;
// a call's is everything that happened before it: its thread's previous
// step with that step's partners (a weft thread sees what its steps did:
// the value it received, whether a select took a case).
//
// # Race sets (§5.2, Proposition 2)
//
// The race set of a receiving event is the other outcomes its position
// could have had: each thread has at most one call that the event did not
// happen before and that completed later on the same object (or never),
// and the outcomes are the alternatives that package model gives for the
// position's object in the state reached by everything that happened
// before the event and before those calls (race.go). A select's default
// is an outcome without a sending partner, possible if no case is ready
// once the event's control structure and the select's past are replayed.
// This is Proposition 2 with "open" decided by the model, which knows each
// primitive's enabledness (the OpenLists of Table 2); the race sets of
// Figs. 1-5 are the paper's (TestRaceSets).
//
// # Race variants and the race table (§6)
//
// Construct-Race-Table (Fig. 7) enumerates the rows as a mixed-radix
// counter; a row is kept only if it passes every rule of the naive
// algorithm, rule 3 for every changed digit, not only the one just
// incremented (the notes' counter-example, TestFig7Counterexample; on
// random tables the rows are the naive algorithm's, TestFig7Naive). A
// variant (Definition 7) keeps the events of the sequence whose control
// structures hold no changed event; a call whose control structure holds
// one is removed, and an event it synchronised with stays unmatched.
//
// # The algorithm (§7.3, Figs. 9-11)
//
// The first run is free. Each later one takes the next row of the node on
// top of the stack (its race table is the node's encoding of its
// variants), replays the variant's events with their partners (an
// unmatched one takes only a call that is not in the variant: Fig. 11),
// and runs freely after (the first enabled thread, or at random with
// Options.Seed). A run in which only calls the variant forbids could
// move is cut: a partial run (§7.3), analysed like the others. Each run's
// SYN-sequence becomes a node: its receiving events keep the colours they
// had in the variant (new ones are white), the race sets of old events
// lose what the variant's node could have given them (Fig. 10, lines
// 1-2), black events are no columns, and the events a changed event needs
// turn black (lines 5-12).
//
// # Where reach departs from the paper, and why
//
//   - Receiving events are positions of objects for every primitive,
//     channels included. The paper's message passing has ports with one
//     receiver, whose receives are events of that receiver (§2.1); a Go
//     channel has any number of receivers, which race for messages as
//     callers race for a semaphore. For a port with one receiver the two
//     agree: the j-th value that enters a buffered channel is the one its
//     receiver's j-th receive takes (FIFO), so the position is the
//     paper's receive r_j and its race set the paper's (Fig. 2).
//   - Go's buffers are first in, first out per channel, not per sender
//     and port (§2.1): a receive takes the oldest value, whose order was
//     decided when the values went in. So a buffered channel is two
//     objects, the order values go in and the order they come out, and
//     the race between two sends is decided at the input: the paper's
//     asynchronous race sets, with Go's FIFO (Fig. 1: 4 sequences, 4
//     runs). A send that waits for room is ordered after the receive that
//     made it (seq.go).
//   - A select that chooses (a default, or several cases) is one event of
//     one object, whichever case it takes, as the paper's selective wait
//     is an event of its receiver whose OpenList holds every open
//     alternative: the channels of its cases are joined into one object.
//     An exploration that meets a select joining objects that earlier
//     runs kept apart begins again (Stats.Restarts; the runs before count
//     in the executions, not in the sequences).
//   - Go's select has a default and send cases, and chooses at random
//     among ready cases: the case taken is part of the outcome (its
//     partner), the default an outcome without one. A default is possible
//     only while no case is ready: the replay holds back the variant's
//     events that the default does not need until it has run (replay.go).
//   - A call's control structure holds its thread's previous step with
//     its partners (Definition 3 holds only the previous sending event):
//     weft's threads see what their steps did. A few race variants of the
//     paper then need two steps: Table 3's row (1, 1) for Fig. 1 is not a
//     row here (s4 is T2's call after s2, and changing where s2 went
//     removes s4); its sequence comes from Q2, and the exploration still
//     takes 4 runs for the 4 sequences.
//   - Pruning (Fig. 10, lines 1-2): race_set(r, V) is taken to be the
//     outcomes that r's column in the race table of V's node could have
//     had in a row with V's own changes, with what that node pruned
//     itself. That is what constraint C2 needs; the races of r in V as a
//     sequence of its own can be more, since a change can enable an
//     outcome that was not possible in the node (a receive that made room
//     in a buffer earlier), and those are kept.
//   - An unmatched event that its run did not fill stays in the sequence
//     collected (as §7.3 says of partial runs), with the race set of the
//     calls still pending, and unmatched in the variants that keep it; so
//     does every event of the variant that the run did not reach (it
//     failed first, or was cut short), with its partners, the first on
//     each object with the race set of the calls still pending.
//   - Failures. Lei and Carver 2006's runs end normally and failures are observed; a
//     weft run ends at its first failure (an assertion, a panic), before
//     the other threads are done. A run that fails while another step
//     could have been taken is run again from the same variant with the
//     failing call postponed to when nothing else can move, and the run
//     that fails with no other step left is the one analysed (failures.go;
//     Stats.Retries). A variant none of whose runs can replay one of its
//     black events (two of its events fail, or what one needs never
//     comes) is not analysed (Stats.Infeasible), unless the failure came
//     after a branch on an input that is not the variant's (Symbolic
//     inputs: Stats.Diverted). A thread that fails after sending in a
//     rendezvous is postponed with its send, whichever end the run
//     names the step by. Failures are reported as by every
//     strategy, deadlocks too (Fig. 13: 9 philosophers, 511 runs, the
//     paper's number, the deadlock found).
//   - A blocked call is not a step in weft (only its completion is), so
//     the FIFO queues of semaphores and monitors (§2.3-2.4) are not
//     modelled: any enabled call may complete first, which is what the
//     paper's race sets explore anyway (every concurrent call may have
//     called first).
//
// # Distribution (§8)
//
// The strategy is a strategy.Splitter: a unit is the next race variant of
// the node on top of the stack, with the names its events use (the
// threads' stable numbers, the groups of objects), and the strategy
// resumed from it explores that variant's subtree, which needs nothing
// from the rest of the exploration ("prefix-based test runs during
// reachability testing are independent"): nothing is handed back, and no
// execution is repeated (TestUnits). A unit whose runs meet a select that
// joins objects its names keep apart begins again from the empty variant,
// as an exploration of its own does (Stats.Restarts): complete, with the
// runs of the whole program.
//
// # What is not implemented
//
//   - The P/V and symmetry reductions of §8 are options (Options.PV,
//     Options.Symmetric; weft.WithReachPV, weft.WithReachSymmetry; weft
//     run -pv, -symmetric); the DME reply-order reduction is not.
//   - TestGeneratedCond checks Conds (with semaphores, monitors and
//     awaits) on the generator's programs of gen.Sync that use one: with
//     WEFT_LONG=1, 1,000 programs in which a run waits on a Cond and
//     1,166 that only signal, 10,867 sequences, each with the free runs in
//     thread order and at random: all agree with exhaustive search.
//   - TestGeneratedKinds checks the primitives beyond message passing on
//     the generator's programs with variables, try-locks, Len, Once and
//     AddOnly, with sleeps and timeouts, and with event loops of timers:
//     1,600 programs with WEFT_LONG=1 (400 of each), each with the free
//     runs in thread order and at random, all agree with exhaustive
//     search.
//   - TestGenerated's stress mode (REACH_PROGRAMS=n REACH_FROM=seed
//     REACH_SIZE=events) checked 9,000 programs of at most 12 steps (4,000
//     from seed 300, 5,000 from seed 5,000, the generator's message-passing
//     programs that exhaustive search finishes in 5,000 executions), each
//     with the free runs in thread order and at random, 5,000 of at
//     most 15 steps (seeds 20,000 on) and 2,000 of at most 18 (seeds
//     40,000 on): all agree with exhaustive search. Two misses found
//     that way are fixed and pinned: TestStranded (below) and
//     TestPostponedSource (failures.go: a receive postponed because it
//     failed on one value was postponed on every other value too).
//   - Open receives. A variant can keep a receive from a buffered channel
//     (its control structure holds no changed event) while it removes the
//     send or close whose value it took, or leaves that event unmatched:
//     the receive is then open (spec.Open), as the paper's receive whose
//     sender is removed is unmatched. A run that never fills its source
//     (the close's thread waits for room in a buffer the variant fills)
//     leaves it unfilled, is analysed, and its variants explored
//     (Stats.Stranded). Before, such a variant could not be replayed and
//     its subtree was lost (seed 20,522: 7 of 129 sequences,
//     TestStranded). The price: a stranded run's sequence can be one
//     another run exercised too (2 of the 131 runs of seed 20,522), so
//     "exactly once" holds for the runs that are not stranded.
//     An open receive left unfilled keeps its receiver in the variants
//     that leave its column alone (only its value's source is free), so
//     its race set holds the other outcomes only, as every race set
//     does (§5.2): with its own receiver in it, the child that left the
//     receive open and the one that fixed that receiver there both filled
//     it alike (seed 10118 ran 2 sequences twice in thread order).
//
// # Numbers
//
// Table 4 with weft's ports of the programs (programs/reach004.go,
// bbmonitor.go): BB-select 144 (the paper's 144), BB-semaphore 324 (324),
// BB-monitorSU 720 (720), BB-monitorSC 5,076 (12,096), RW-select 768 (768),
// RW-semaphore 768 (21,744), RW-monitorSU 11,040 (13,320), RW-monitorSC
// 343,680 (61,716), DP-monitorSU 3, 4, 5: 30, 720, 22,300 (30, 624,
// 19,330), DME 1,760 (4,032; programs/dme.go: Ricart and Agrawala's
// algorithm, one entry per process, P/V leaves it as the paper says);
// Fig. 1: 4 sequences, 4 runs; Fig. 13: 511 runs for 9
// philosophers, the paper's. The authors' programs are in Carver and Tai's
// book, not in the paper; where ours differ, so do the programs, not the
// algorithm (Table 4 applies no reduction, and every SYN-sequence of a
// program is exercised exactly once, Theorem 2). BB-semaphore: of the
// orders of each end's four semaphore operations, only the one that holds
// the end's binary semaphore across the whole deposit or withdrawal has
// 324 sequences; it is bbsem's (Andrews' order, which holds it only
// around the slot, has 9,252: -p nested=0). DP-monitorSU: ours is Hoare's
// monitor, whose sequences are the orders of its 2n entries the monitor
// allows (TestTable4Oracle counts 720 for 4 by exhaustive search); the
// paper's is a solution "without deadlock or starvation" it does not
// print, whose rule against starvation forbids some entries (the counts
// agree for 3 philosophers, who are all neighbours; for 6 the paper has
// 901,752, Hoare's monitor 1,086,096). Our readers and writers do
// one operation each, our SC monitors recheck their conditions in loops
// and the SC readers-writers wakes every reader with SignalAll (Hoare's
// writer preference needs SU).
package reach
