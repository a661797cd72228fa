// Package unfold implements unfolding-based testing: Kähkönen, Saarikivi
// and Heljanko, "Unfolding based automated testing of multithreaded
// programs", Automated Software Engineering 2014 (Kähkönen et al. 2014). The strategy builds the
// Petri-net unfolding of the program as far as its executions have shown
// it, and runs one test per event it has not covered yet: every reachable
// local state of every thread is covered, in as few tests as the
// unfolding needs, often far fewer than there are Mazurkiewicz traces (2
// tests for n reader/writer pairs, which have 2^n traces).
//
// # Walkthrough
//
//	s := unfold.New(unfold.Options{})
//	r, err := weft.Explore(body, weft.WithCustomStrategy(s), weft.KeepGoing())
//	// r.Executions is the number of tests; s.Stats().Events the events
//	// of the unfolding; s.Err() says why the strategy stopped early, if
//	// it did (a primitive it does not model).
//
// or, by name, weft.WithStrategy("unfold"), and on the command line:
//
//	weft run -strategy unfold -p n=10 pairs
//
// A program that branches on inputs (w.Input, w.If) needs a solver for the
// path constraints of its targets: Options.NewSolver, or, by name, the Z3
// solver that importing package github.com/weft-go/weft/concolic gives
// the registry (weft run has it; it needs cgo):
//
//	s := unfold.New(unfold.Options{NewSolver: func() (solver.Solver, error) { return z3.New() }})
//	defer s.Close()
//
// Without one, such a program is refused when the first constrained target
// comes (Err wraps ErrNoSolver).
//
// # What is implemented
//
// The modelling of executions (§3, Fig. 5, Fig. 7): a thread's program
// locations, each shared variable with one copy per thread, each lock,
// are places; an executed step becomes the event enabled in the current
// marking with the same thread and operation (CorrespondingEvent), added
// with its postset if it is new (fire.go, net.go). Events are identified
// across executions by their presets, whose conditions name threads by
// their paths of spawns and objects by trace.ObjectInfo.Key (names.go, as
// in strategy/optimal).
//
// Symbolic inputs (§3, §4.3; symbolic.go): a branch on a condition over
// inputs (w.If, a symbolic assertion; trace.Trace.Branches) is an action
// of its thread between two steps. Its thread condition has the branch as
// its next action, and two events, one per side, whose presets are that
// condition alone (case 1 of §5: both are added as possible extensions
// when the condition is), each carrying its side's constraint. Inputs are
// named stably across tests, by their thread and their rank among the
// thread's inputs, and the conditions renamed so. A target's path
// constraint is the conjunction of the constraints of the branch events of
// its local configuration, with the declared ranges of the inputs they
// name; before a target's test it is solved: unsatisfiable, the target is
// dropped (Stats.Infeasible, the paper's cut events), satisfiable, the
// test reads the model's inputs (the others keep their defaults). The
// deadlocks the search finds are filtered the same way (FilterUnsat), and
// their executions read their models' inputs. A failure after a branch
// (w.Fail on its true side) marks the branch event, not the step before
// it.
//
// A thread runs the local code after its step at once, branches on inputs
// included: a target whose configuration holds the step of a thread whose
// next branch has a side known to fail would not be reached if the model
// took that side, so its path constraint takes the other side's
// constraint too (avoidFatal), and so for the sides known to fail of the
// branches that follow in the same local code, each with the path that
// leads to it (fatalPaths). A test that fails so before its target, on a
// side not yet known to fail, makes it known, and the target is taken
// again (Stats.Retried; TestRetry).
//
// A CompareAndSwap of a concolic variable (weft.Sym) compares values, and
// when the comparison depends on inputs the runtime records its outcome
// as a branch of the step (trace.BranchEvent.OfStep), which the concolic
// strategies flip. The net cannot: the write is done or not with the
// outcome, so the step's event would be one of two, each with its side's
// constraint, and a branch event after it comes too late. Such a CAS is
// refused when an execution makes it (ErrUnmodelled, naming
// concolic-optimal and concolic; TestCASOnInputRefused). A TryLock needs
// no such care: its outcome is its preset's (the mutex free or held), and
// the branches on inputs that lead to it are events of its local
// configuration (TestTryLockOnInput).
//
// The testing algorithm (Fig. 8, unfold.go): the first test runs freely;
// each next one takes the oldest possible extension not in the unfolding
// as its target, runs the events of the target's local configuration in
// the order they were added (the paper's labels, §4.3), then runs freely.
// When no possible extension is left, the unfolding is searched for
// deadlocks (§4.4, deadlock.go) and each one no test ran into gets one
// more execution: the events of its local configuration, then a free run,
// which the runtime reports as a deadlock (or a leak) with its replay
// token. The tests are the driver's executions.
//
// Deadlocks among mutexes and joins are the paper's (§4.4): cycles of
// threads each wanting the mutex the next one holds (Fig. 11, with Lemma
// 1's candidates; a cycle of one is a thread that wants a mutex it
// holds), and threads wanting a mutex that a finished thread holds (the
// paper's first case). A Join waits as for a lock that the joined thread
// holds until it ends (§4.4, footnote 1): a thread that holds a mutex and
// joins a thread that wants it is such a cycle (TestWaitDeadlocks). With
// an RWMutex, a Once, a channel, a Cond, a semaphore, a monitor or an
// await in the net, the unfolding is also searched for reachable markings
// where every started thread has finished or is blocked by the marking's
// conditions of its places (stuck.go: an RWMutex's readers or writer, a
// full or empty channel with no partner in the marking, a Once whose
// function runs, a select none of whose cases is ready, a P of a
// semaphore at zero, a Relock not woken or whose mutex is held, an Enter
// or Reenter of a monitor that is not free or handed over, an await none
// of whose variables was written, a send or receive on a nil channel),
// one marking per set of blocked thread conditions: the blocked
// conditions are chosen first, concurrent, then completed with conditions
// where the other threads have finished, or none. A program whose only
// blocking operations are Locks, Joins and WaitGroup Waits has the same
// search for the markings where a Wait blocks, the Locks and Joins
// completing them (Fig. 11 has those of Locks and Joins alone): a Wait
// whose counter never reaches zero, or whose Done comes after a mutex
// its waiter holds, is found by the search, not only when a test runs
// into it. The search stops past a budget of 300,000 concurrency checks
// (stuckBudget), which Stats.DeadlockSearchCut and the Result's counter
// "net deadlock search cut" report. Deadlocks whose path constraints are unsatisfiable are dropped
// (FilterUnsat). A deadlock found takes an execution: the search's time
// is Stats.DeadlockTime (the paper's DL column), its executions
// Stats.DeadlockTests.
//
// Possible extensions, two ways. The naive one (Fig. 10, §4.2.1;
// naive.go) tries every set of conditions with the right places for
// concurrency; it is kept as the oracle of the efficient one (§5;
// thread.go, shared.go): from a thread condition, a search of the memory
// access sets adjacent to the one of the current marking, kept while
// concurrent with the thread condition (Theorems 1 and 2: cases 2 to 5);
// from a variable's conditions, the events that took the new event's
// input conditions with its outputs in their place (Fig. 15, cases 6 and
// 7); from a free mutex, the lockers found through the free conditions
// adjacent or alternative to it and the list of lockers without an event
// (§5.4.1, case 8). Concurrency is checked by the fronts of local
// configurations (co.go), not by the paper's walk of the causal past,
// which the tests keep as the oracle of the fronts.
//
// Every misuse the runtime reports as a failure of the step (unlock of an
// unlocked Mutex or RWMutex, RUnlock with no reader, a negative WaitGroup
// counter, send on or close of a closed channel, close of a nil channel)
// ends its execution there: its event is marked fatal, and the free part
// of every test runs such events, and those whose presets show the misuse
// before it runs (a send on or a close of a closed channel, an Unlock of
// a free Mutex; misuse.go), only when no other step is enabled. A test
// whose free part failed early would not complete where it could: a
// select that can send on a closed channel or receive from a ready one
// (TestSelectSendOnClosed) must receive in the test that covers the last
// store of a race beside it, or the final state of that store is never
// reached; and a test run to a deadlock would end before the deadlock
// shows; so do a Cond's Wait whose mutex is free, a monitor's Exit,
// Wait, Signal by a thread that is not inside and its SignalAll under SU,
// and a Close of a nil channel. TestMisuses checks each,
// in some interleavings and in every one, against exhaustive search, and
// TestGeneratedMisuses 300 generated programs that misuse them
// (WEFT_UNFOLD_MISUSES for more; 10000 agree): the same failures, by
// kind, thread and message.
//
// # The net of each primitive
//
//	operation                   preset (besides the thread's condition)        postset (besides the thread's next)
//	Load                        the thread's copy of the variable              the copy
//	Store, Add, Swap, CAS       every copy of the variable                     every copy
//	Lock, TryLock (succeeds)    the mutex's condition, free                    the mutex, held
//	TryLock (fails)             the mutex's condition, held                    the mutex, held
//	Unlock                      the mutex's condition, held (free: it fails)   the mutex, free
//	WaitGroup Add (and Done)    every copy of the counter                      every copy, with the new counter
//	WaitGroup Wait              the thread's copy of the counter, at zero      the copy
//	Join                        the joined thread's condition, finished        the same, finished
//	a spawn                     -                                              the new thread's first condition
//	a branch on inputs (a side) -                                              - (the event carries the side's constraint)
//	RLock                       the thread's copy of the RWMutex, no writer    the copy, one more reader of the thread
//	RUnlock (its thread holds   the thread's copy of the RWMutex, no deficit   the copy, one reader less
//	a read lock)
//	RUnlock (other)             every copy                                     every copy: a reader less, or a deficit more (no reader: it fails)
//	TryRLock                    the thread's copy of the RWMutex               the copy, one more reader if no writer
//	RWMutex Lock (first step)   every copy, no writer in them                  every copy, held if no copy has readers, else a writer waiting
//	RWMutex Lock (announced)    every copy, no reader in them                  every copy, held, one writer waiting less
//	RWMutex Unlock              every copy                                     every copy, not held
//	RWMutex TryLock             every copy                                     every copy, held if no reader or writer in them
//	Once Do                     the Once's condition, not running              the Once, running (the first Do) or as it was
//	the Once's function ends    the Once's condition                           the Once, done
//	Send (buffered)             the channel's condition, room or closed        the channel, one value more (closed: it panics)
//	Recv (buffered)             the channel's condition, a value or closed     the channel, one value less
//	Recv meeting a Send         the receiver's copy of the channel, open;      the copy; the sender's next
//	                            the sender's condition
//	Send, Recv (unbuffered)     the thread's copy of the channel, closed       the copy (the Send panics)
//	Close (unbuffered)          every copy of the channel                      every copy, closed
//	Close, Len (buffered)       the channel's condition                        the channel, closed (Close)
//	Len (unbuffered)            the thread's copy of the channel               the copy
//	select, case i              as the case's Send or Recv                     as the case's Send or Recv
//	select, default             each case channel's condition, none ready      each of them
//	select, default (a receive  as above (the thread's copy of an unbuffered     each of them, the same: every thread
//	case on an unbuffered       channel, open), and the condition of every       where it was (offer.go)
//	channel)                    other thread started, finished or not, none
//	                            offering a send a receive case meets
//	P, V (semaphore)            the semaphore's condition, P: value > 0,      the semaphore, value - 1 (P) or + 1 (V)
//	                            binary V: value 0
//	Cond Wait (with a Mutex)    the Cond's condition; the mutex's (held:      the Cond, the thread queued; the mutex, free
//	                            free, it fails)
//	Cond Relock                 the Cond's condition, the thread woken; the   the Cond, the thread out of the queue; the
//	                            mutex's, free                                 mutex, held
//	Cond Signal, Broadcast      the Cond's condition                          the Cond, the first waiter (every waiter) woken
//	monitor Enter, Reenter      the monitor's condition, free (SC Reenter:    the monitor, held by the thread
//	                            woken too; SU Reenter: handed to the thread)
//	monitor Exit, Wait, Signal, the monitor's condition                       the monitor: released or handed to an urgent
//	SignalAll                                                                 waiter; the thread queued (Wait); the first
//	                                                                          waiter woken (SC) or handed the monitor,
//	                                                                          the signaller queued urgently (SU)
//	await (w.Yield loops)       - (never enabled: the thread is blocked for   -
//	                            good)
//	w.Await                     the thread's copy of each variable its        each copy (the event carries the
//	                            evaluation loaded, whose values make it hold  constraint of its evaluation's
//	                                                                          branches on inputs)
//	Close, Len of a nil channel -                                              - (a Close panics)
//	Sleep (its wake-up)         -: enabled where its condition's time has      - (the same time)
//	                            reached its deadline
//	an advance of time          the condition of every thread started, each    the same, at the time of the earliest
//	                            finished or blocked, a deadline ahead (a       deadline
//	                            sleeper's, an armed timer's; a ticker's only
//	                            while the body has not finished)
//	a timer's thread            (its place: the timer's state, armed or        (offers a send on the timer's channel for
//	                            not, and its deadline)                         ever; neither blocked nor live)
//	Recv meeting a timer        the receiver's copy of the channel; the        the copy; the timer's thread, disarmed
//	(a firing)                  timer's thread's condition, armed, due
//	Stop, Reset (ResetAt)       the timer's thread's condition                 the same, disarmed (Stop) or armed at the
//	                                                                           new deadline (Reset)
//	select, default (a          as above, the timer's thread's condition       each of them
//	timer's case)               where the timer is not armed or not due
//	Send, Recv of a nil channel no event: it blocks forever
//	time at any step (clock.go):
//	read of the clock (Now)     the thread's copy of the clock                 the copy
//	a step that arms a deadline every copy of the clock                        every copy, with the sleeper's deadline
//	(Now, NowArms)                                                             (a Sleep's start)
//	Sleep (its wake-up)         the thread's copy of the clock, its time at    the copy
//	                            the deadline or past it
//	the clock thread's advance  every copy of the clock; the condition of      the same, at the time of the earliest
//	                            every timer's thread started                   deadline ahead (none: no event)
//	Stop, Reset, ResetAt        the timer's thread's condition; the thread's   the same, disarmed or re-armed
//	                            copy of the clock
//
// A read-modify-write (Add, Swap, CompareAndSwap, failed or not) takes
// every copy, its own thread's too, so it depends on the write before it
// (Kähkönen et al. 2014's note: "atomic RMW → a write event"). A Join reads the joined
// thread's final condition as a Load reads a copy (Kähkönen et al. 2014, §4.4,
// footnote 1, treats a join as a lock the thread holds until it ends; a
// thread condition where the thread has finished plays that lock here). A
// WaitGroup is a variable whose Wait can take only a copy whose counter is
// zero; the counter is known for every condition, from the executed Add
// that made it. Threads are started in the local code of a step (weft's
// execution model): the step's event has the new threads' first
// conditions in its postset.
//
// An RWMutex is a variable with a copy per thread that uses it (state.go):
// a copy holds the read locks its thread holds, and the writers' state,
// the same in every copy: the writers announced and waiting for the
// readers to leave (weft, as Go, runs a writer's Lock in two steps when
// readers hold the lock) and whether a writer holds it. The readers'
// operations read and write their thread's copy, so the RLocks and
// RUnlocks of two readers commute; a writer's take every copy, as a
// variable's writes, and decide on the sum of the copies' readers.
//
// Go lets a goroutine RUnlock a read lock another one took, and an
// RUnlock with no reader fails (trace.UnlockOfUnlocked). Whether a
// thread holds a read lock of its own depends on its own steps alone, so
// an RUnlock's operation in the net says it (the runtime's Op.Arg, which
// other threads' RUnlocks change while it is pending, is not used;
// runlock.go). The RUnlock of a thread that holds none takes every copy:
// it fails if the reader count is zero, else it takes another thread's
// read lock, which the copies keep as a deficit, the same in every copy
// (the reader count is the sum of the copies' readers less the deficit).
// The RUnlock of a holder takes its copy alone while the deficit is zero,
// and every copy once it is not (it may then fail: the deficit took its
// read lock): its thread condition has an event of either form, the one
// its copy's deficit decides. A program without such RUnlocks has the
// events and tests it had. Each
// operation can take a condition only in the states where the runtime
// runs it (model.Object.Ready), which each copy tells by itself: the
// writers' state is in every copy, and the readers are all gone if they
// are gone from each. The extensions are searched as for variables, the
// tuples of a writer's search kept if each copy lets it run; the
// operations a new copy's condition enables (an RLock after the writer's
// Unlock, a writer's Lock after the last RUnlock), which cases 6 and 7 do
// not find, are found from it: a reader of its thread tried with it, a
// writer concurrent with it searched again from the cut of its local
// configuration (rwEnabled). Two readers and a writer (TestPrimitives):
// 62 events and 9 tests, where one place for the RWMutex's state, every
// operation taking it, gave 149 and 26; 3 readers and 2 writers
// (TestRWReaders): 1897 and 250, where it gave 13587 and 2100.
//
// A Once is one place, one condition of which is in every reachable
// marking, carrying its whole state: whether its function has not run,
// runs or has run. Every Do takes and gives that condition, and can take
// it only in the states where the runtime runs it. The extensions from a
// thread condition are searched in the tree of the place's conditions as
// for a mutex (searchPlace); from a new condition of the place, every
// thread condition that wants the object is tried with it (the naive way
// for that one place: the states make Definition 4's alternatives
// meaningless).
//
// A buffered channel is one such place too: its condition holds the number
// of values in its buffer and whether it is closed (the capacity is part
// of every operation's key), so that the order of the values is the order
// of the events. An unbuffered channel holds no value: it is a variable
// whose value is whether it is closed, with a copy per thread that Close
// writes and the others read. A receive that meets a sender is one event
// of the receiver's (as weft records it: the receiver's step, with the
// sender as its partner), whose preset holds the receiver's condition,
// its copy (open) and the sender's condition; its postset gives the
// sender its next condition too (meet.go). So two rendezvous of other
// threads on one channel are concurrent. The rendezvous are found from
// each new thread condition that offers a send or a receive (plainly or as
// a select's case), with every thread condition that offers the other and
// the receiver's copies that may be concurrent with it (the one its local
// configuration leaves, and the Closes of it); concurrent, they are
// extensions. The sends and receives a Close enables are found from the
// new closed copy, as a WaitGroup's Waits from a zero counter. A select's thread condition has an event per case
// it can take, each taking what the case's plain operation takes, and,
// with a default, one taking a condition of every case's channel where no
// case is ready (select.go); events of one preset are told apart by the
// cases they took (a select's, and the case of the select a receive met).
// A test's schedule and its greedy free part run the alternative of the
// runtime (strategy.Alternative) that is the event: its case, its
// partner and the partner's case.
//
// A semaphore, a condition variable and a monitor are each one place, as
// a lock is (§3: a lock is a place whose token its Lock takes and its
// Unlock gives back; here, as for a Mutex, the place always holds a
// condition, which carries the object's state): every operation on the
// object takes and gives its condition, and can take it only in the
// states where the runtime runs it (model.Object.Ready's rules); the
// events of two operations on one object are ordered, as the paper's
// lock operations are. A semaphore's condition holds its value (the
// initial one is the semaphore's). A Cond's and a monitor's hold their
// state, interned (sync.go): the FIFO queue of waiters, each woken or not
// (threads named by their stable numbers), and who is inside the
// monitor, with SU's urgent waiters; a Signal wakes the first waiter not
// woken, as the runtime's does. A Cond's Wait with a Mutex releases it
// and its Relock takes it again: their events take the Cond's condition
// and the mutex's, so a Wait is an Unlock and a Relock a Lock of the
// mutex's place as well (the paper's Fig. 5 lock transitions, with the
// Cond's place beside); with another Locker, the Locker's operations are
// steps of their own. An operation's event carries its thread (and a
// monitor's discipline and condition, a Wait's mutex) in its opKey
// argument, so that the state it leaves is its event's alone.
//
// A busy-wait loop with w.Yield whose turn only loaded (KindAwait with
// Op.Arg AwaitYield) has no event: the runtime blocks its thread for good
// there, the failed turn's loads being events of their own, and a test
// that ends with it blocked after a write of one of the variables the turn
// read ends assumed away (a stuck marking the deadlock search counts as
// reached), its next turn another test's.
//
// A w.Await is one event, the evaluation of its condition that holds; a
// thread whose condition is false is blocked and leaves no event
// (condawait.go). Its event is a read of the variables that evaluation
// loaded: its preset is the thread condition and the thread's copy of
// each of them (sorted by variable), so its conflicts and dependencies
// are those of a read of its variables. The condition is a Go function
// of the values it loads, which the net does not hold: the strategy
// learns it from the evaluations the runtime records (trace.Trace.Evals:
// the values loaded, the answer, and where in the execution it was
// evaluated), each taken in where the execution was modelled to, so that
// the copies it read are the marking's. The copy conditions carry the
// value their last write wrote (ev.Value), or the variable's initial
// value once an evaluation read it there. The extensions of the await at
// thread condition t are then searched the naive way (Fig. 10): every
// choice of one condition per variable the evaluations at t loaded,
// concurrent with t, is looked up among them: an evaluation whose loads
// the choice's values match says what the condition does there (the
// same loads, the same answer: it is a function of the values), and, if
// it holds, its loads' copies and t are an extension. A choice that no
// evaluation matches is probed: a test runs its local configuration,
// where the runtime evaluates the condition on those values, then runs
// freely (Stats.Probes); the probe is dropped if a later evaluation
// matched it first. This departs from the paper, whose events are all
// enabled by their presets alone: a probe is a test without a target
// event, the price of a guard the net cannot evaluate; it needs no
// solver call beyond the path constraint of its configuration. The
// search for stuck markings counts an await blocked where an evaluation
// of its copies' values says its condition does not hold.
//
// In a program that reads inputs, a copy's value may be a concolic value
// written from an input, whose concrete part differs between tests: the
// runtime marks such a write (trace.Event.SymValue), and an evaluation
// that loads its copy is taken to read that write, not a value
// (condawait.go). The condition's outcome depends on the inputs only
// through the branches on inputs it takes (w.If, a Sym comparison that
// records a branch; branching in Go's own if on Sym.Value is a
// divergence, as everywhere), which the runtime records for each
// evaluation (trace.AwaitEval.BranchLo and BranchHi, each branch marked
// trace.BranchEvent.InAwait): its path. For given copies, the condition
// is then a function of the inputs through its path (awaitpath.go). This
// maps to the paper's branches on inputs (§3, §4.3, case 1 of §5), where
// a branch is an event of its thread alone per side, carrying the side's
// constraint, as follows:
//
//   - The successful check is still one event, whose preset is the
//     thread condition and the copies the evaluation loaded, so its
//     conflicts and dependencies are a read's of its variables, as
//     without inputs; it carries the constraint of its evaluation's path
//     (the conjunction of its branches' sides), which enters the path
//     constraint of every configuration that holds it, as a branch
//     event's side does. Two paths that hold on the same copies are two
//     events with the same preset, told apart by their paths (event.alt),
//     in conflict as the two sides of a branch are.
//   - The paper adds both sides of a branch as possible extensions when
//     its thread condition is added: both are enabled by the thread
//     condition alone, and the solver decides which are feasible. The
//     branches of a condition are no events: the condition is evaluated
//     silently, in every marking its thread waits in, and which branches
//     come after one depends on the side taken there. So the other paths
//     are found as concolic testing finds them: for each path taken on
//     given copies and each of its branches, the path that follows it to
//     that branch and takes the other side there, unless an evaluation on
//     the same copies took it, is a probe whose inputs solve the path
//     constraint of the copies' configuration and that prefix
//     (Stats.Probes; an unsatisfiable one counts in Stats.Infeasible);
//     its test runs the configuration with those inputs, and the runtime
//     evaluates the condition on that path there. A path that holds
//     gives an event; one that fails says where the await is blocked.
//   - Copies are matched to evaluations by their values; a symbolic copy
//     by its write when the evaluation branched (its path may depend on
//     the write's expression), or any symbolic copy when it did not (it
//     never compared the value). An evaluation on a concrete copy is
//     never taken for one on a symbolic copy whose concrete value the
//     test that added its write happened to make equal (the default input
//     0 and a variable's initial 0).
//   - A deadlock where an await is blocked takes, besides its path
//     constraint, the disjunction of the constraints of the paths that
//     fail on the marking's copies (none if one of them took no branch):
//     FilterUnsat drops it if no input makes the await wait there, and
//     its test runs with inputs that do.
//
// The departures, and why: the paper's branch events are enabled by their
// presets alone, while a path of a condition is known only once a test
// evaluated it, so each path not taken is a probe, a test without a
// target event (as a choice of copies no evaluation says anything of
// is). The search for stuck markings completes a set of blocked threads
// into one marking before the solver looks at the constraints of the
// awaits blocked there: a deadlock whose first completion makes them
// unsatisfiable, and another would not, is found only if a test runs into
// it. A value whose type carries no expression of its own (a struct with
// a Sym field) is taken as concrete.
//
// TestAwaitWithInputs pins three programs whose awaits do not branch on
// inputs against brute force over inputs in [-1, 3] (a flag set after an
// input is stored, 6 events, 2 tests, the failure of a positive input
// found; a condition that loads the input, 13 and 5; a flag chosen by a
// branch on an input, 6 and 2); TestAwaitBranchingOnInputs three whose
// awaits do (a stored input and the waiter's own, x > 0 && b == 1: 2
// events, 3 tests, 2 of them probes, 2 deadlocks; x == 1 && n > 2, which
// holds for some inputs only: 2 events, 2 tests, 1 deadlock; a value
// another thread computes from an input, 2a or 5, awaited to be 4: 5
// events, 3 tests, 2 deadlocks). TestGeneratedAwaitInputs runs generated
// programs whose threads store inputs and sums of them, branch on them
// and wait in w.Awaits whose conditions compare variables, locals and
// inputs, against every interleaving for every vector of two inputs in
// [-2, 2], with the efficient, a random and the naive extensions: the
// same events, the sets of blocked threads found, the same failure
// kinds; 12 in the default run (1077 events, 199 of them awaits
// on paths that branched, 426 tests, 123 probes), 300 with WEFT_LONG=1
// (16098 events, 1647 on paths, 5906 tests, 1390 probes, 267 programs
// that block), WEFT_UNFOLD_AWAITIN=N for N; 1500 agree with the
// efficient extensions (88496 events, 10694 on paths, 33361 tests, 8411
// probes, 1345 programs that block), 1000 with all three.
// The sweep found two defects, fixed: an evaluation that first read a
// variable's initial value, with the value of an evaluation its await
// had already made on a write of the same value, did not give that
// await's extensions on the initial copies (an await and a store
// missing, also without inputs; TestCondAwait's "a store of the initial
// value"); and a target's path constraint avoided only the failing side
// of the first branch after a step, not of the branches that follow it
// in the same local code, so a test ran into the failure before its
// target and the strategy stopped (TestRetryChain). A third was found
// since, without awaits: a thread that fails in its first local code, on
// a side of a branch on inputs, cuts short the local code of the step
// that started it (or the initial one): the thread that started it never
// reaches its next operation and the threads it would have started next
// never start, which the strategy took for a divergence against an
// execution that completed that local code. Such an execution now leaves
// those threads' conditions cut short (a state of their own: their next
// action is unknown), and the first execution that completes the local
// code completes the step's event, or the initial marking: their next
// actions, the threads started after the one that failed, and their
// extensions (interrupt.go; TestCutShort: a body that starts T1, which
// fails if its input says so, then T2, before its first step or after
// one, T1's failure in a thread of its own or not, 17 or 18 events and 7
// tests, brute force's, whichever execution comes first).
// Peterson's and Dekker's locks with w.Await (TestCondAwait): 42 events
// in 7 tests (3 of them probes) and 49 in 8 (6), where their loops that
// yield take 64 in 10 and 75 in 12 (116 in 12 and 196 in 19 when a
// failed turn went on after a write); TestGeneratedAwait runs generated
// programs with w.Await against exhaustive search: 30 in the default run,
// 1000 with WEFT_LONG=1 (16437 events, 51 probes, 718 programs that
// block: all agree), WEFT_UNFOLD_AWAIT=N for N.
//
// A send or a receive on a nil channel has no event (it blocks forever,
// and the search for stuck markings counts it blocked); a Close of one
// (it panics) and a Len have an event whose preset is the thread's
// condition alone.
//
// The extensions of the operations that take two or more places (a
// Cond's Wait and Relock, an await) are searched the naive way for those
// operations (Fig. 10: every choice of one condition per place,
// concurrent), from a new thread condition and from each new condition of
// one of their places. Those of the operations that take the place of a
// semaphore, a Cond or a monitor alone are searched from a thread
// condition as a mutex's (searchPlace), and from a new condition d of the
// place among the thread conditions whose local configurations leave a
// condition of the place at or above d (the index of Joins and Waits,
// queuedAt): dpmonitor 4 (720 tests, 9934 events) in 3.9 s instead of
// 35 s when every thread condition that wants the object was tried. TestSyncPrimitives pins small programs of each against
// the unfolding of every interleaving; TestGeneratedSync runs generated
// programs (internal/gen's Sync statements: semaphores, guarded Cond
// waits and signals, SC and SU monitors with guarded waits and signals,
// awaits and yields, with the other primitives): 30 in the default run,
// 300 with WEFT_LONG=1, N with WEFT_UNFOLD_SYNC=N; 1000 agree with
// exhaustive search (23422 events, 673 programs that block), with the
// efficient, the random and the naive extensions: the same events, the
// same sets of blocked threads found, the same failure kinds.
//
// A program that uses any other primitive is refused at the first
// scheduling point where a thread has such an operation pending, before
// the operation runs: Err and Diverged return an error wrapping
// ErrUnmodelled that names the primitive and strategies that model it
// ("unfold does not model ... yet ...; use optimal or dpor+sleep"). Those
// are:
//
//   - With time at any step, an advance of the clock that weft's fair
//     scheduling forbids (5 past a thread that could move): a test that
//     needs one stops the strategy (Virtual time at any step).
//   - Selects on objects that are no channels, awaits on objects that are
//     no variables, operations of a class the runtime does not give them
//     (none of weft's API makes them).
//
// The driver reports it as it reports a divergence (a failure of kind
// trace.Nondeterminism carrying the message) and ends the exploration;
// nothing is explored wrongly, what was explored before is kept.
//
// # A select's default facing other threads
//
// A select with a default takes its default only where no case is ready
// (Go's rule, and the runtime's: model.State's alternatives). A receive
// case on an unbuffered channel is ready where the channel is closed, or
// where another thread offers the send: blocked in a plain send, or in a
// select without a default that has such a send case. A select with a
// default never waits, so two of them never meet (meets and canMeet skip
// such pairs); and a send case on an unbuffered channel never keeps a
// default from running: the rendezvous is the receiver's step, which the
// runtime offers beside the sender's default. So the default of a select
// with a receive case on an unbuffered channel (a poll) depends on a
// negative condition over every other thread's place: none offers the
// send. (A timer's channel has one partner, the timer's thread, whose
// condition a default takes already: timer.go.)
//
// Kähkönen et al. 2014's nets (§3, Fig. 5 and Fig. 7) have no inhibitor
// arcs: an event is enabled by the tokens of its preset alone. A negative
// condition on a place that always holds one token is the disjunction of
// its other states, and a thread's place is such a place: exactly one of
// its conditions is marked, the thread's local state, whose next
// operation says whether it offers the send. The net of a poll therefore
// has one default transition per combination of the other threads' local
// states that offer nothing, which takes the condition of each and gives
// it back unchanged, as §3 models a read in a net without read arcs (a
// read takes its copy and gives it back). So the default's event takes
// (offer.go), besides its thread's condition and its channels' (its copy
// of each unbuffered channel, open), the condition of every other thread
// started in the marking: a thread's next event after it takes the
// condition it gave back. Two details:
//
//   - Finished threads are taken too, as an advance of time takes them
//     (sleep.go): a finished condition left out would leave the earlier
//     conditions of its thread concurrent with the default, which would
//     then be enabled, in the net, beside that thread offering the send.
//   - Threads not started are not taken, and need not be: the step that
//     starts one is its parent's, whose condition the default takes, so
//     the start is before the default or after it in every execution; a
//     thread started after it is no thread of its marking. The paper's
//     "every thread, not started yet too" (§4.5, for writes) holds without
//     a place per future thread.
//
// Why not the finer net where each thread has a place "offers the send
// on ch or not", written by its own steps and read by the defaults, which
// would keep a poll concurrent with the steps that change no offer: the
// threads and what they offer are learned from the executions, and a
// status place made for a thread found to offer later would turn events
// that were concurrent in the unfolding built so far (the defaults and
// that thread's steps) into ordered ones, and split them: that unfolding
// would no longer be the new net's. Copies escape this (copies.go) since
// a copy is read only by its own thread, which first wants it after the
// copy is made; a default reads other threads' states. A thread
// condition's state is known when the condition is made, so the net here
// never changes under the unfolding. The price: a default is ordered with
// every step of every other thread, as an advance is, so a poll beside
// threads that never send gives more events and tests than a finer net
// would (a poll beside a thread's store: 4 events, 2 tests, the default
// before and after the store). Only selects with a default and a receive
// case on an unbuffered channel that is no timer's pay it (needsThreads);
// every other select's default keeps the net it had.
//
// The extensions of a poll are searched the naive way (Fig. 10) over its
// channels' places and every other thread's place, choosing for each
// thread a condition where it has finished or offers no send a receive
// case meets, or none (not started), concurrent; a choice is kept if the
// cut of its local configuration starts no thread it left out. The
// search runs from a new condition of the poll's thread (selectExts) and,
// with that condition fixed, from each new condition of another thread
// (defaultsWith), the other threads' conditions a default gives back
// included; cases 6 and 7 (fromResources) skip defaults, and the other
// threads' conditions a default gave back (their own new conditions give
// their extensions). A thread whose next action is not known
// yet (cut short by another thread's failure, interrupt.go) is not taken:
// its default is found once an execution completes its local code.
//
// TestSelectDefaults pins small programs against exhaustive search: a
// poll against a sender that stores first (4 events, 2 tests: the
// rendezvous, or the default before the sender's store, the sender then
// blocked), against a sender whose send is its first operation (1 event,
// 1 test: the rendezvous), with the sender started after the poll (1, 1:
// the default), started by a thread after a store (4, 2), a send-select
// with a default against a blocked receiver (2, 2), two selects with
// defaults facing each other (4 events, 2 tests: each default, before or
// after the other's, never a rendezvous), a poll of two channels against
// a select without default offering one of them (7, 2), against a close
// (4, 2), beside a nil channel's case (4, 2), a timer's case (5, 2), a
// thread that joins a finished one and then sends (8, 3) and a store (4,
// 2). TestGeneratedSelectDefaults runs generated programs
// around polls (gen.SelectDefaults: unbuffered channels mostly, some
// buffered or nil, selects of one or two cases facing selects with and
// without defaults, closes, threads started after a select) that have a
// select with a default and a case on an unbuffered channel, against
// exhaustive search, with the efficient, a random and (up to 300 events)
// the naive extensions: the same events, the same failure kinds, and the
// same sets of blocked threads where the search of stuck markings stayed
// within its budget (a default's new conditions of the other threads
// multiply their blocking conditions; past the budget, only the events
// are compared). 30 in the default run (2113 events, 932 tests, 20
// programs that block), 1000 with WEFT_LONG=1, WEFT_UNFOLD_SELECT=N for
// N; 2000 agree (116641 events, 37840 tests, 1283 programs that block,
// 51 whose search of stuck markings was cut; 20 programs too big for
// exhaustive search skipped); so do the first 1000 of gen.New's
// programs (DefaultOptions) that have such a select (50817 events, 13542
// tests; 3 cut, 50 too big skipped). The sweeps found two defects, fixed: a
// Lock's thread condition that another thread's default had taken (and
// given back) counted as having its event, so the list of lockers
// (§5.4.1) and the deadlock search's candidates left it out, and its
// Locks after a later Unlock were missed (3 programs of the first 1400);
// and the signatures that compare unfoldings named a select by the
// number of its list of cases, which differs between explorations.
//
// # Virtual time: sleeps
//
// Time moves only when every thread is blocked (weft's default, as
// testing/synctest), to the earliest deadline of a sleeping thread
// (sleep.go). The paper has no time; this package maps it to the net so:
//
//   - A move of time (an advance) is an event whose preset is the
//     condition of every thread started, each finished or blocked by the
//     marking, one at least sleeping; its postset gives each the same
//     state at the new time. The rule "only when every thread is blocked"
//     is then exact in the net: an advance is ordered with every event
//     (each has a thread condition, taken by the advance or made after
//     it), so nothing runs beside it, and it takes the finished threads'
//     conditions too, or an earlier condition of theirs would stay
//     concurrent with the events after it (a load after the advance
//     reading a write made after it, where the runtime ran the load
//     first).
//   - The time of a condition is that of the last advance in its local
//     configuration (0 if none): every advance in an execution is before
//     or after each event, so a thread reads the same time (w.Now, a
//     sleep's deadline) in every execution of its local configuration,
//     and the divergence checks hold.
//   - A sleep's wake-up is an event of its thread alone, enabled where
//     the time of its thread condition has reached its deadline; where it
//     has not, the thread is blocked and only an advance wakes it.
//
// Whether every thread is blocked is a property of a whole marking, not
// of the conditions an event takes, so the advances are not found by the
// possible-extension algorithms of §4-§5: they are found as the paper's
// deadlocks are (§4.4), by the search of reachable markings where every
// started thread is finished or blocked (stuck.go), in which a sleeping
// thread counts as blocked: a marking with one is an advance, not a
// deadlock, and every completion of its blocked threads with finished
// ones is an advance of its own (completeAll), where a deadlock needs
// one. The price of the exact rule: the advances of a marking are as
// many as the combinations of the races its finished threads ended in
// (4 for two finished pairs that raced: TestSleeps), each with the
// events after it. Each advance found that no test has run gets a test
// (Stats.AdvanceTests): its local configuration, after which the runtime,
// finding every thread blocked, moves time, then a free run; and the
// unfolding is searched again once the extensions its new events give
// are in it. A test models the advances the runtime made from its steps:
// a thread that wakes from a sleep whose deadline its condition's time
// has not reached shows an advance first (fire.go, and the free part,
// which sees the woken thread enabled before its step). The search's
// budget (stuckBudget) bounds it here too: past it, advances no test ran
// into are missed. TestSleeps pins small programs; TestGeneratedSleeps
// runs generated programs with sleeps and reads of the clock
// (gen.Timed's, without timeouts) against exhaustive search, with the
// efficient, a random and the naive extensions: 30 in the default run,
// 1000 with WEFT_LONG=1 (14362 events, 3 advance tests, 172 programs
// that block), WEFT_UNFOLD_SLEEPS=N for N; 3000 agree (42836 events, 12
// advance tests, 497 that block): the same events, the same sets of
// blocked threads, the same failure kinds. Of the first 100 programs of
// event loops (gen.Loops, package weft's TestDifferentialLoops) unfold
// explores all 100 (99 before selects with a default and an unbuffered
// case were modelled; it explored the 40 without timers before timers
// were modelled) and agrees with exhaustive search on all of them.
//
// # Virtual time: timers
//
// weft's timer (NewTimer; After, AfterFunc and tickers are made of it) is
// an unbuffered channel and a thread of weft's own, a daemon, that offers
// a send on it for ever; the send is offered while the timer is armed and
// its deadline has come, a receive that meets it disarms the timer, and
// Stop and Reset are steps on the channel that disarm or re-arm it. The
// net follows the runtime (timer.go):
//
//   - The daemon is a thread of the net: its place's conditions carry the
//     timer's state, armed or not, and the deadline (the value of the
//     condition); it starts, armed at the timer's first deadline, in the
//     postset of the step whose local code made the timer.
//   - A firing is the rendezvous of a receive (plain or a select's case)
//     with the daemon, as with any sender (meet.go): its preset holds the
//     daemon's condition, armed, with its deadline at or before the time
//     of the receiver's condition; its postset gives the daemon its
//     condition disarmed.
//   - Stop, Reset and ResetAt take the daemon's condition (and give it
//     disarmed or re-armed at the new deadline, which the operation holds):
//     a Stop before the firing and one after it are two events, in
//     conflict with the firing and with each other.
//   - A select's default takes the daemon's condition of each timer case,
//     where the timer is not armed or not due: it conflicts with the
//     firing, and with a Stop or Reset.
//   - An advance of time takes the daemon's condition as every thread's
//     (it is a started thread), and moves to the earliest deadline of a
//     sleeper or of an armed timer that lies ahead; a daemon counts as
//     neither blocked nor live: the search of stuck markings completes a
//     marking with a condition of each daemon, each completion being an
//     advance if a deadline lies ahead in it, a deadlock otherwise.
//   - The runtime moves time, at the end of an execution that ends with
//     threads blocked, to every deadline of an armed timer before it
//     reports the deadlock or the leak: the strategy models those
//     advances (timePasses), and, within an execution, as many advances
//     as a firing or a wake-up needs (a timer that fires for no one first).
//
// The extensions of a daemon's new condition are found the naive way for
// its place: the receives that meet it (meets), and every thread
// condition whose Stop, Reset or select with a default wants the timer
// (timerChanged); a Stop's from its thread condition by the search of the
// tree of the daemon's conditions (searchPlace), as a mutex's.
//
// weft's Ticker is a timer that the thread that received a tick re-arms,
// in the receive's local code, by a ResetAt at the next multiple of its
// period (unless the ticker was stopped), after which it applies again a
// Stop or Reset that another thread made meanwhile. The ticker's state
// (stopped, its period and next tick, a count of its changes) changes
// inside the steps of Stop and Reset on the ticker's timer, which take
// the timer thread's condition, as the tick (a receive that met the
// timer's thread) and the re-arming do: those events are ordered or in
// conflict, never concurrent, and what the local code after a tick or a
// re-arming reads is what its local configuration did. Stop and Reset
// are therefore the timer events above, and the net needs nothing more
// for the tick's next operation: another thread's Stop before the tick
// (which it disarms), between the tick and the re-arming (the re-arming
// then followed by the Stop applied again) and after the re-arming are
// three events, in conflict with one another.
//
// Once the test body has returned, a ticker's deadline no longer moves
// time (a tick already due is still received, and a sleeper's or a
// timer's deadline still makes ticks due): a thread left reading a
// ticker is a leak. The runtime decides it where every thread is
// blocked; the net decides it in the advance, whose preset holds the
// body's thread condition: an advance from a marking where that
// condition is finished counts no ticker's deadline (advanceTo; the
// runtime marks tickers' channels, trace.ObjectInfo.Ticker), and a
// marking where the body has finished and only a ticker's deadline lies
// ahead is a leak, for the search of stuck markings and the advances at
// the end of an execution alike.
//
// TestTickerRaces pins a reader of three ticks while the body sleeps
// until 2 and returns (exhaustive search: 5 executions, 5 leaks, the
// third tick, armed at 3 after the body returned, never firing; unfold:
// 11 events, 1 test), one racing another thread's Stop at 2 (15
// executions, 15 leaks; unfold: 24 events, 3 tests), one whose body
// stops the ticker after its sleep (15, 15; 18 events, 3 tests), with
// the re-arming followed by the Stop applied again in some event and by
// the reader's load in another, and a body that returns or sleeps on by
// what it loads (10 executions, 4 assertions, 6 leaks; 11 events, 2
// tests); TestTickerPrograms 9 more (a Reset by another thread, a Store,
// a Load or an Unlock before the Stop, the body's return after a Join, a
// reader in a select, two tickers, a sleeper's deadline moving time after
// the body's return, a Reset racing the first tick): the unfolding of
// every interleaving, the same failure kinds, with the efficient, the
// naive, a random and a plain free part. TestGeneratedTickers runs
// generated programs with one or two tickers, readers in receives or
// selects (some slow: a sleep between ticks), other threads that stop or
// reset a ticker after a sleep (some only if they load a value) and a
// body that may sleep, stop or reset a ticker, close a channel and join
// a thread or a reader before it returns, against exhaustive search,
// with the efficient, a random and the naive extensions: 30 in the
// default run, 1000 with WEFT_LONG=1, WEFT_UNFOLD_TICKERS=N for N: the
// same events, the same sets of blocked threads, the same failure kinds.
// The default run: 866 events, 117 tests; 1000: 18201 events, 2844 tests
// (420 with another thread's Stop, 421 with its Reset, 620 that leak, 66
// that deadlock, 298 that fail an assertion; 41 too big for exhaustive
// search skipped); 3000 agree (55580 events, 8263 tests; 1237, 1221,
// 1892, 190, 862; 139 skipped). An unfolding that counted the tickers'
// deadlines after the body's return disagrees on 11 of the default 30.
//
// TestTimers pins small programs (a timer fired or stopped, 7 events, 2
// tests; a ticker with two ticks, 12 events, 1 test; AfterFunc racing a
// store, 7 events, 2 tests; a timeout racing a sender, a poll racing a
// Stop, a Reset racing the firing, a deadlock after time passes);
// TestGeneratedTimers runs generated programs with timers, gen.Timed's
// with a timeout and gen.Loops's with a ticker, a loop of After or a timer
// of period 0 or 1, against exhaustive search, with the efficient, a
// random and the naive extensions: 30 of each in the default run, 1000
// with WEFT_LONG=1 (timed: 11124 events, 9 advance tests, 250 programs
// that block; loops: 16951 events, 4 advance tests, 382 that block, 5
// too big skipped), WEFT_UNFOLD_TIMERS=N for N; 3000 of each agree
// (timed: 34800 events, 20 advance tests, 730 programs that block;
// loops: 48006 events, 34 advance tests, 1174 that block; 19 loops
// programs too big for exhaustive search are skipped): the same events,
// the same sets of blocked threads, the same failure kinds. The sweep
// found a defect of the search of a write's copies (searchTuple did not
// go across a select's receive of an unbuffered channel, a read of the
// receiver's copy, and missed a Close before such a rendezvous;
// TestSelectCloseSearch), fixed.
//
// # Virtual time at any step
//
// With weft.TimeAnyStep, advancing the clock is a step of weft's clock
// thread, enabled wherever a sleeper's or a timer's deadline lies ahead,
// and every other operation on time is a step that reads the clock
// (trace.TimeObject: an advance writes it, a step that arms a deadline
// writes it too, a read of the clock, a Sleep's wake-up and a timer's
// Stop or Reset read it). The paper has no time; the net models the clock
// as it models a shared variable (§3, Fig. 5; clock.go):
//
//   - The clock is a variable with a copy per thread that reads it. A
//     read of the clock takes its thread's copy, a step that arms a
//     deadline and an advance every copy, as a load and a store do: two
//     reads (of one thread or two) are concurrent, a write is ordered
//     with every read and write, which is the runtime's relation on
//     trace.TimeObject. The copies carry the time and the deadlines of
//     the sleepers ahead of it (interned): a Sleep's start adds its
//     deadline, which its thread's next operation, the wake-up, names; an
//     advance moves the time and drops the deadlines it reached. Copies
//     of threads that first read the clock late are made as a variable's
//     are (§4.5, the first way; copies.go).
//   - The clock thread is a thread of the net. Its advance takes every
//     copy and the condition of every timer's thread started in their
//     local configuration (the steps that start timers write the clock,
//     so which timers are started is the copies' past): the deadline it
//     moves to, the earliest ahead of the copies' time among the
//     sleepers' and the timers' (a stopped timer's deadline counts, as
//     the runtime's does), is a function of its preset, as every event's
//     effect is in the paper's nets; with none ahead there is no event,
//     and the thread is blocked there. The event keeps that deadline;
//     the clock thread's condition does not (the runtime computes its
//     pending advance anew at every scheduling point).
//   - A Sleep's wake-up is an await on its thread's copy: an event of the
//     thread condition and the copy, enabled only where the copy's time
//     has reached the deadline (as a WaitGroup's Wait takes only a copy
//     whose counter is zero). The advance that reaches the deadline
//     enables it; the wake-ups are found from the copies it produces, as
//     the Waits from a counter at zero.
//   - A timer stays the thread of the net it is with time that moves when
//     blocked (below). A firing is a receive that meets it where it is
//     armed and due: due by the time of the timer's condition, which every
//     advance takes, so that it is the clock's. A Stop, a Reset or a
//     ResetAt takes the timer's condition and its thread's copy of the
//     clock (a Reset's deadline is from the time of its step; the event
//     keeps the deadline the step armed, and the divergence checks compare
//     it).
//
// Taking the timers' conditions in an advance orders an advance with the
// firing of a timer already due, which the runtime's relation lets commute
// (an advance writes only the channels of the timers it makes due): the
// net has more events than the traces need, none missing. A contextual net
// (Kähkönen and Heljanko, "Testing programs with contextual unfoldings",
// 2014) would read the clock through read arcs, one condition for every
// reader; this package keeps the copies, as for variables (see Threads
// created at run time).
//
// The possible extensions: the reads and the arming steps of the clock
// are found by the variables' algorithms (Theorems 1 and 2, cases 6 and
// 7), whose search of a write's copies goes across advances and timers'
// Stops and Resets; an advance, and a Stop or Reset (two places), the
// naive way (Fig. 10: every choice of a condition per place, concurrent)
// from a new condition of the clock thread, of a copy or of a timer's
// thread. The search for stuck markings counts the clock thread as neither
// blocked nor live, as a timer's thread: a marking is stuck only where its
// advance is not enabled (no deadline ahead of its copies' time), so a
// leak or a deadlock is where the runtime reports one, after the clock
// ran out of deadlines. The advances the runtime makes at the end of an
// execution are steps of the trace, modelled as every step is.
//
// The clock thread is the child of the thread whose step armed the first
// deadline: a different thread in executions where another thread armed
// one first (those steps write the clock: their events are in conflict).
// trace.ThreadNames names it by that path of spawns, and the threads its
// parent starts after it by a rank one higher; the net would then give one
// place to the clock in one execution and to another thread in the next.
// Its threads are named apart (threads.go): the clock has a path of its
// own, and takes no rank among its parent's children.
//
// weft's fair scheduling hides the clock once it has advanced 5 times
// past a thread that could move, until that thread steps (docs/time.md,
// fairness): a rule on the history of a schedule, which no event's preset
// holds, so the net has the advances it forbids. A test whose schedule
// needs one stops the strategy with an error wrapping ErrUnmodelled that
// says so (TestAnyTimeFairness: a reader of 7 ticks of a 1ns ticker
// beside a thread that stores once); what was explored before is kept.
// Modelling it would need the count of advances past each thread in the
// conditions, which would order every advance with every step.
//
// TestAnyTime pins small programs against the unfolding of every
// execution of exhaustive search (the same events, sets of blocked threads
// and failure kinds, with the efficient, the naive, a random and a plain
// free part): a sleep racing a store (exhaustive search: 5 executions;
// unfold: 7 events, 2 tests), a timer's Stop racing its firing in a
// select (5; 12 events, 3 tests), a ticker read once while the body
// sleeps and then stops it (208 executions, 2 leaks; 181 events, 50
// tests), a read of the clock racing a sleeper (4 executions, 2 that
// fail; 11 events, 4 tests) and the program timeout with two workers
// (729 executions, 374 leaks; 26 events, 6 tests, where optimal runs 20
// executions). TestGeneratedAnyTime runs generated programs (gen.Timed's
// sleeps, reads of the clock and timeouts; gen.Loops's tickers, loops of
// After, timers of period 0 or 1) with time at any step against exhaustive
// search, with the efficient, a random and the naive extensions: 30 of
// each in the default run (timed: 1414 events, 294 tests, 7 programs that
// block; loops: 1273 events, 283 tests, 16 that block), 1000 with
// WEFT_LONG=1, WEFT_UNFOLD_ANYTIME=N for N: the same events, the same sets
// of blocked threads, the same failure kinds. 1000 of each agree (timed:
// 56424 events, 11950 tests, 229 programs that block, 58 that fail, 190
// too big for exhaustive search skipped; loops: 39817 events, 9478 tests,
// 473 that block, 75 that fail, 183 skipped). These tests found the
// search of a write's copies stopping at an advance (searchTuple), and
// the clock thread named by its parent's path, one place for the clock
// in one execution and for another thread in the next (threads.go).
//
// # Threads created at run time
//
// Every goroutine is started at run time, which the paper does not
// support: a write takes the copies of every thread, including threads
// not started yet (§4.5). Of the three ways out it lists, this package
// takes the first: when a thread first wants a variable, its copy is made,
// and every write of the unfolding (and every extension) gets a condition
// of it, each write taking the output of the write before it (copies.go).
// Why this one:
//
//   - It is the paper's own net, for all the threads a program ever has:
//     the events, the possible-extension algorithms and their theorems are
//     the paper's unchanged. The numbers of events match the paper's
//     model: 4n for pairs, and for fib the note's 37, 537, 7125 and 87454
//     for n = 1 to 4 (plus the two stores weft's body makes before it
//     starts the threads), where Table 2 reports 87457 for n = 4.
//   - Its cost, updating every write, is paid once per variable and
//     thread that uses it, not per thread started: a thread that never
//     uses a variable needs no copy of it, since such a copy only follows
//     the writes and adds no event. The copy of a thread that uses the
//     variable follows the writes made before the thread starts in the
//     same way, so a thread started after a write reads it.
//   - The second way (thread creation as an event reading the parent's
//     copies and writing the child's) makes spawns race with writes: the
//     paper says it leads to unnecessary tests. The third, contextual
//     unfoldings with read arcs (the paper's favourite), has a single copy
//     per variable: reads of one condition are concurrent, a write after a
//     read is one event whether the read happened or not (3 events per
//     pair instead of 4), and concurrency needs asymmetric conflict
//     (whether reads must precede a write), so neither the paper's
//     algorithms of §5 nor its numbers carry over.
//
// TestSpawnInThreads runs programs whose threads start threads, joined or
// not, against the unfolding of every interleaving; so do the 300
// generated programs of TestGenerated, 109 of which start threads inside
// threads.
//
// # Units of work
//
// The strategy is a strategy.Splitter (unit.go), but its tests are not
// independent: each one's target and free part depend on the unfolding
// every test before it built (Fig. 8's loop), and the paper divides no
// work. A unit is therefore the next test (the one Next would run), with
// the log of the strategy's calls up to it: every Next with its target,
// and every execution Finish or Join modelled (its events, threads,
// objects, pending operations and evaluations of awaits), and the state
// of the random free part. Resume replays the log in a new strategy,
// which builds the same unfolding and then runs the unit's test as the
// splitter would have; its handback is that execution, which Join models
// as Finish would. A unit joined before the splitter's next Next thus
// gives exactly the undivided tests (package weft's TestDividedApart and
// TestDividedRandomPrograms); one joined later adds its events then, and
// the splitter runs the extensions they give and searches for deadlocks
// again (TestUnits: the undivided unfolding, its failure kinds). The
// price is the log: a unit carries every execution so far and its Resume
// models them all again, so parallel workers gain nothing, and the log
// is dropped (Split hands out no unit) for a program that reads inputs
// (its tests need the solver's models and the branches' expressions) or
// past 2^16 events of executions (a few megabytes of log; the replays
// of larger ones would cost more than the units save). To model a whole
// trace as the traces of its states, the threads started before the first
// step are those whose ThreadInfo.Step is -1, and a thread's next
// operation may be the one it offers as a receive's partner.
//
// # Export
//
// Strategy.Unfolding returns the unfolding built so far, its conditions
// (places named by threads' paths of spawns and objects' names) and its
// events numbered in insertion order, the paper's labels; it encodes to
// JSON, and Unfolding.WriteDOT draws it for Graphviz (testdata/pairs1.dot
// and pairs1.json: pairs 1).
//
// # Where this package departs from the paper, and why
//
//   - A mutex is one place whose conditions are free or held, one in every
//     reachable marking, instead of a place that is empty while the lock
//     is held: TryLock needs to see that the mutex is held (a failed
//     TryLock takes the held condition), and Unlock of a free mutex fails
//     in Go. The held conditions are what Definition 4's alternatives have
//     in common: the search of Theorem 2 walks through them (searchPlace),
//     and case 8 looks for the free conditions joined to a new one by held
//     ones (lockersOf). A program without TryLock gets the paper's events
//     (no event takes a held condition but the holder's Unlock).
//   - Fig. 15 (cases 6 and 7) goes through the possible extensions too, not
//     only the events of the unfolding: an extension whose e' is still an
//     extension (an execution failed before running it) would be missed
//     otherwise; the paper allows it ("one possibility is to do the search
//     in a version of the unfolding that contains all known possible
//     extensions").
//   - Joins and Waits, which the paper does not have, are found through
//     indexes: the thread conditions that want them, registered at the
//     condition of the place their local configuration leaves, and for
//     each condition of a thread the finished conditions below it.
//   - Concurrency checks use fronts (co.go) rather than walks of the causal
//     past: the same answer (TestCoAgainstWalk), without the walk.
//   - The free part of a test is greedy by default: a thread whose next
//     event is a possible extension runs first, in thread order (or at
//     random, Options.Seed), so that one test covers several targets
//     (§4.6 leaves the choice open; the paper runs at random). Pairs then
//     needs 2 tests for any n (the paper: 7 on average for 10 pairs, 2 at
//     best); Options.Plain runs the first enabled thread (n+1 tests) or a
//     random one. Steps known to fail come last either way (above).
//   - A step that fails (an assertion, a panic) ends the execution: its
//     event is marked, and no extension whose local configuration holds
//     it is made (no execution reaches it).
//   - The paper bounds executions by k; weft's programs end, and weft's
//     step bound (a livelock) ends an execution as any other end.
//   - An event is checked to observe the same values (a load's value, a
//     CompareAndSwap's or TryLock's success) and to leave its thread the
//     same next operation in every execution that runs it: its local
//     configuration decides them. A program that does otherwise is not
//     deterministic, and the strategy stops with an error (Diverged).
//     A step's observed value is checked only when no input was read
//     before it in the execution: a load may read an input, whose value
//     differs between tests.
//
// # What is not implemented
//
//   - Every final state: the tests cover every event, not every
//     combination of concurrent ones. Two threads storing 1 and 2 to x
//     and two others storing 1 and 2 to y take 2 tests, which end in 2
//     of the 4 final states (x, y) exhaustive search reaches.
//   - A CompareAndSwap whose comparison depends on inputs (above):
//     refused. A program that branches on inputs in Go's own if (on
//     Sym.Value) rather than w.If differs between tests with the same
//     events and stops with a divergence, as for every strategy.
//   - The search for stuck markings stops past a budget of concurrency
//     checks (Stats.DeadlockSearchCut; bbselect's 1247 events exceed it):
//     its cost is the product of the numbers of blocking conditions per
//     thread. The deadlocks it does not reach are found only if a test
//     runs into them.
//   - Two operations on one semaphore, Cond or monitor are ordered in the
//     net (they take one condition), though some commute (two V's of a
//     counting semaphore): bbsem takes 9252 tests and 85409 events (about
//     6 minutes on a loaded machine), where reachability testing needs
//     324 SYN-sequences; bbmonitor SU 720 tests (Lei and Carver's 720),
//     dpmonitor 3 and 4, 30 and 720 (their 30 and 624).
//   - Two operations on one buffered channel are ordered in the net
//     (they take one condition) though some commute (two Lens; a send
//     and a receive on a buffer neither empty nor full): more events and
//     tests than needed, none missing. A copy per thread would let Lens
//     commute, but sends and receives would take every copy; letting a
//     send and a receive commute needs the buffer's head and tail apart,
//     with the order of the values. The
//     rendezvous are searched among all the thread conditions that offer
//     the other side: quadratic in them (rwselect: 7509 events, 768
//     tests, about 5 s).
//   - With time at any step, the advances of the clock that weft's fair
//     scheduling forbids (5 past a thread that could move): a test that
//     needs one stops the strategy (Virtual time at any step).
//   - Cut-off events and complete prefixes: the paper does not use them
//     either; the executions end.
//   - Objects that two threads reach apart in earlier executions, and that
//     the runtime finds later to be one (trace.Trace.Merged), are refused:
//     the unfolding has places for both names.
//
// # Numbers
//
// With the default options (tests in package order, free parts greedy in
// thread order): pairs n, 4n events, 2 tests; fib 1, 2, 3, 4: 39, 539,
// 7127, 87456 events (the note's 37, 537, 7125, 87454 plus weft's two
// initial stores; Table 2's Fib 1 = n 4: 87457), 11, 140, 1698, 19605
// tests, the traces (Table 2: 19605); single lock 4 threads x 2 rounds:
// 2520 tests (Table 2: 2520), 43380 events (weft's body joins and reads);
// dining 4 and 5 with 2 meals: 786 and 5730 tests (Table 2's Dining 1
// and 2: 799 and 5747 on average), 10751 and 75608 events, and 45 and 121
// deadlocks, each one more execution; Kähkönen et al. 2014's Fig. 2: 6 events, 2
// tests; Fig. 9 (Example 2): 7 events, 3 tests, the third solving input >
// 0 and failing (unfold-fig9, which stores x = 0 first: 8 events), 5
// events and 2 tests without its input; Fig. 1 as reconstructed
// (unfold-fig1): 13 events, 5 tests; §4.3's example of unsatisfiable
// writes: 6 events, 2 tests, 2 targets cut; jCUTE's program (§6.1): 10
// events, 4 tests. Beyond the paper (TestPrimitives, TestStuck,
// TestPrograms): two senders and a receiver on an unbuffered channel, 4
// events, 2 tests; on a buffered one of one value, 8 events, 2 tests; two
// readers and a writer of an RWMutex, 62 events, 9 tests; bbchan, 1103
// events, 144 tests (unbuffered: 42, 6); bbselect, 1247 events, 144
// tests; rwselect, 7509 events, 768 tests; generated program 184 (a send
// that blocks forever among stores), 88 deadlocks, 30 of them run by the
// search.
//
// Table 2's tests are means over 20 runs whose free parts are random. On
// Dining 1 and Filesystem 2, weft's counts are the same for every seed
// (786 tests and 45 deadlocks, 831 executions; 8 tests), and they differ
// from the paper's because weft's bodies join their threads: a Join takes
// the joined thread's last condition, so the body's local states multiply
// with the orders the threads' races end in (Filesystem 2 has 3 pairs of
// threads that share a block: 2^3 = 8 tests, 300 events), and the
// executions that weft bench counts include those run only to reach the
// deadlocks the search found (the paper runs none: its DL column).
// Without the joins, with the paper's random scheduler (Options.Plain,
// seeds 1 to 20), and counting the tests alone (TestPaperMeans,
// WEFT_LONG=1): Dining 1, 8044 events (the paper: 8049) and 799.15 tests
// on average (the paper: 799; the greedy rule: 787.7); Filesystem 2, 182
// events (the paper: 226) and 2.7 tests (the paper: 3; greedy: 2.35).
// weft bench -table table2 prints these means (its column "20 runs",
// with the programs' bodies in the paper's form, programs.NoJoin).
//
// The paper's own check (TestRandomRuns): 20 explorations with random
// free parts, greedy or plain, build the default order's unfolding event
// for event (pairs 10, fib 2, dining 3 x 2, single lock 3 x 2, bbchan);
// pairs 10 with the plain random scheduler takes 82 tests over the 20
// runs, 4.1 on average (the paper: 7), the greedy rule 2 every time. With
// inputs (TestGeneratedInputs): 40 random programs of branches on two
// inputs, reads and writes of them, locks, try-locks and a flag's CAS
// give brute force's unfolding over inputs in [-2, 2] (367 tests, 1320
// events in all).
//
// Speed and memory (BenchmarkFib4, weft bench -table table2): fib 4 in
// 1.8 to 2.1 times optimal's wall time on the same program (weft run,
// alternated runs on a loaded 2-core machine: 1.14 s against 0.65 s at
// best, 1.6 s against 0.9 s in the median; 3 to 3.9 times before the
// index of events by preset, the arenas and the scratch slices), with
// 0.36M allocations (2.25M before), keeping about 670 bytes of heap per
// event (87456 events).
package unfold
