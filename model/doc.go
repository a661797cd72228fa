// Package model is the model of weft's primitives: for each one, its
// abstract state, how an executed event changes it (State.Apply), when a
// pending operation is enabled and what its alternatives are
// (State.Enabled, State.Alternatives: the partners a receive can meet, the
// ready cases of a select), and what an operation does in a state
// (State.Outcome: its results, the failure it raises, the event it
// synchronises with, its thread's next operation where the primitive
// decides it). It is plain data and functions over package trace, below
// the runtime and the strategies. Each primitive's file registers all of
// this for its class in one table (table.go), through which the functions
// of the package dispatch.
//
// The runtime (internal/engine) implements the primitives on goroutines
// and is checked against the model: every execution of hundreds of random
// programs (internal/gen) and of hand-written ones for what those do not
// reach is replayed step by step through the model, which must give the
// threads the runtime found enabled, the alternatives it offered, in its
// order, and every event's results (model_test.go in package weft).
// trace's dependency relation is checked against it too (dependency_test.go
// here): two operations that, run in the two orders from a reachable
// state, reach different states, observe different results (Observed) or
// disable one another must be dependent. Strategies simulate with it states
// they have not run: Optimal-DPOR the reordered prefixes of its races
// (strategy/optimal), the unfolding and reachability strategies the
// extensions and race variants of Kähkönen et al. 2014 and Lei and Carver 2006.
//
// Sources: Go's sync and runtime packages for mutexes, reader/writer
// mutexes, WaitGroups, Once, Cond and channels (their semantics are Go's);
// Yu Lei and Richard H. Carver, "Reachability Testing of Concurrent
// Programs", IEEE Transactions on Software Engineering, 2006 (Lei and
// Carver 2006), §2.3-2.4 for semaphores and SC/SU monitors and §3 for
// synchronisation pairs; testing/synctest for virtual time; Olli
// Saarikivi, Kari Kähkönen and Keijo Heljanko, "Improving Dynamic Partial
// Order Reductions for Concolic Testing", ACSD 2012 (Saarikivi et al.
// 2012, after Flanagan and Godefroid's DPOR, POPL 2005), §II for
// dependency; and Azadeh Farzan, Andreas Holzer, Niloofar Razavi and
// Helmut Veith, "Con2colic Testing", ESEC/FSE 2013 (Farzan et al. 2013)
// for the reads-from pairs of variables.
//
// # Primitives
//
// An object's state is an Object (the fields its class uses); a thread's,
// its pending operation and its number of steps (Thread); virtual time is
// State.Now. An operation that is not listed as blocking is always
// enabled. A failure marked fatal ends the execution at its step; a panic
// is Go's, which the program may recover.
//
//	primitive   state                     blocks (enabled iff)              results; failures
//	Var         value                     -                                 Load, Add, Swap, CAS: the value after (Add,
//	                                                                        Swap: the program's); CAS: OK iff value = Arg
//	Mutex       held                      Lock: free                        TryLock: OK iff free; Unlock of a free
//	                                                                        mutex: fatal
//	RWMutex     writer held or announced  Lock: no writer (held or          Lock with readers in announces the writer
//	            (0 or 1); readers; each   announced); its 2nd step (Arg     (OK false, Value: readers), whose next op
//	            thread's read locks;      RWAnnounced): no reader;          is the 2nd step; TryLock: OK iff nothing
//	            whether an RUnlock by a   RLock: no writer                  held or announced; TryRLock (Arg 1): OK iff
//	            thread that held none                                       no writer; Unlock, RUnlock with none held:
//	            succeeded (Balanced)                                        fatal
//	WaitGroup   counter                   Wait: counter 0                   Add: Value the counter; negative: panic
//	Once        running (by whom), done   Do: not running                   Do: OK iff it runs the function; Done
//	                                                                        ends it
//	Cond        FIFO of waiters, each     Relock: woken, and the mutex      Wait releases the mutex (held: else
//	            woken or not              (Op.Arg, -1 for another Locker)   fatal); next op Relock (with a Mutex);
//	                                      free                              Signal wakes the first waiter (Value:
//	                                                                        it), Broadcast all (Value: how many)
//	Chan        buffer (values and their  Send: closed, or buffered with    Recv: the oldest value, or from a closed
//	            sends), closed            room; Recv: closed, buffered and  and drained (unbuffered: closed) channel
//	                                      not empty, or a partner (below)   the zero value, OK false; Len: Value the
//	                                                                        length; Send on or Close of a closed
//	                                                                        channel: panic; nil channel: never
//	select      -                         some case ready, or a default     the case, with its operation's results;
//	                                                                        default (Case -1) iff no case is ready
//	Semaphore   value, units made by V's  P: value > 0; binary V: value 0   Value: the value after
//	Monitor     inside (who), FIFO of     Enter: free; SC Reenter: woken    Wait releases; next op Reenter. Signal
//	            condition waiters (SC:    and free; SU Reenter: handed to   wakes the first waiter on the condition
//	            each woken or not), SU's  the thread                        (SC) or hands it the monitor, the
//	            urgent waiters                                              signaller waiting urgently (SU); Exit,
//	                                                                        Wait, Signal outside, SignalAll on SU:
//	                                                                        fatal
//	Timer       armed, deadline           its thread's send: armed and      a receive meets the timer's thread and
//	                                      due (Now >= deadline)             disarms it; Stop (Arg -1), Reset (Arg:
//	                                                                        deadline): OK iff it was armed
//	Sleep       Now                       Now >= deadline (Arg)             Value: Now
//	Join        the target is done        target done                       -
//	Await       each thread's last load   a write of a variable it waits    -
//	            of a Var, or failed CAS   on (Op.Cases) since the thread's
//	            (the write it read)       last load (or failed CAS) of it
//	spawn       -                         no step: the new thread starts in the local code of its
//	                                      parent's step (trace.Event.Spawned, ThreadInfo.Step) and
//	                                      runs to its first operation; it exists from then on
//
// A thread's k-th step (Thread.Steps) with its alternative is its Label,
// the same event in every execution that reaches it.
//
// A receive on an unbuffered channel has one alternative per pending send
// of another thread on the channel (a plain send, or a select's send
// case), in thread then case order; a send case of a select with a
// default is not offered to a select with a default (the first of two
// that never wait finds no partner), and a timer's thread offers its send
// only while the timer is armed and due. A select's alternatives are its
// cases' in order, then its default if no case is ready. Alt describes
// one; Single is that of an operation with one.
//
// # Virtual time
//
// Time moves either only when no thread is enabled, or at any step.
//
// In the first mode, Advance moves it to the earliest deadline of a
// sleeping thread or an armed timer, as the runtime does
// (testing/synctest). A State knows time only if it is Timed, reached from
// the start of an execution by every event in order, Advance where no
// thread could move. Otherwise (a strategy's reordered state) the
// enabledness of a sleep and whether a timer is due are Unknown, and a
// timer's receive is given the timer's send as a partner, its select the
// default too.
//
// In the second, every move of time is an event, the step of the
// runtime's clock thread (trace.KindAdvance, enabled while a deadline
// lies after now, which moves now to the earliest one), and every
// operation that reads time is one of trace.ClassClock, ordered with the
// advances (trace.TimeObject). A State that applied such an event knows
// time, even a reordered one: any set of events closed under
// happens-before holds the advances before the events on time it holds,
// in their order, and the last one is the time.
//
// # Dependency
//
// Two operations of different threads are dependent when executing them
// in the other order may change the state reached, what either observes,
// or whether one of them can run (Saarikivi et al. 2012, §II-A). trace.Relation states
// it by access modes per object (trace/dependency.go): reads commute with
// reads, shared updates with shared updates, every other pair of accesses
// to one object conflicts. Under trace.CR the modes are:
//
//	primitive   reads                     shared updates          writes (everything else)
//	Var         Load, a failed CAS        AddOnly (an Add whose   Store, Add, Swap, CAS
//	                                      result is unused)
//	Mutex       a failed TryLock          -                       Lock, Unlock, TryLock
//	RWMutex     a failed TryLock or       RLock, a successful     Lock (both steps), Unlock,
//	            TryRLock                  TryRLock, a balanced    a successful TryLock, an
//	                                      RUnlock                 RUnlock not balanced;
//	                                                              pending TryLock, TryRLock
//	WaitGroup   Wait                      -                       Add (and Done)
//	Chan        Len                       -                       Send, Recv, Close; a select
//	                                                              writes every case's channel
//	Cond        -                         -                       Wait, Relock (also write
//	                                                              the mutex), Signal, Broadcast
//	Once        Do after the function     -                       Do, Done
//	            ran (OK false)
//	Semaphores, monitors, timers (Stop, Reset, receives): every operation
//	writes its object. Cap is no step; a monitor condition's Len and Empty are
//	no steps (only the thread inside the monitor, which orders every change of
//	its queues, may call them).
//	Sleep       -                         -                       the virtual clock (TimeObject)
//	Await       each variable it waits    -                       -
//	            on
//	Join, Input, Branch: no object.
//
// The relation is coarser than the model's in places, never finer
// (dependency_test.go): two V's of a counting semaphore commute in the
// model, and an Add of a WaitGroup with another that leaves the counter
// positive, but trace orders them.
//
// # Synchronisation pairs
//
// Lei and Carver 2006 describes an execution by its synchronisation pairs: which
// sending event each receiving event synchronised with (§3, Definition 1).
// A rendezvous on an unbuffered channel is one event, the receive, whose
// trace.Event.Partner is the sender. Every other pair is recorded in the
// receiving event (trace.Event.Src, Source), and the model states it
// (Outcome.Source):
//
//	receiving event                         its source
//	Load, Add, Swap, CAS                    the variable's last write: Store, Add, Swap, a CAS that
//	                                        succeeded (Farzan et al. 2013's rd and wt)
//	Mutex Lock, a TryLock that succeeds     the last Unlock, or Cond Wait that released the mutex
//	RWMutex Lock in one step, a TryLock     the later of the last Unlock and the last RUnlock
//	that succeeds
//	RWMutex writer's announce, RLock,       the last Unlock
//	a TryRLock that succeeds
//	RWMutex announced writer's Lock         the last RUnlock (which let the last reader out)
//	WaitGroup Wait                          the Add (or Done) that last brought the counter to zero
//	Once Do that does not run the function  the function's end (OnceDone)
//	Cond Relock                             the Signal or Broadcast that woke it
//	Recv (or a select's receive case) on a  the send whose value it takes
//	buffered channel, with a value
//	Recv of a closed channel (OK false),    the Close
//	Send on or Close of a closed channel
//	P                                       the V whose unit it takes: units are taken in the order
//	                                        they were made, the initial ones (no source) first
//	monitor Enter                           the last release: Exit, or Wait
//	SC Reenter                              the Signal or SignalAll that woke it
//	SU Reenter                              the event that handed it the monitor: the Signal (the
//	                                        waiter woken), the Exit or Wait (the urgent signaller)
//	Join                                    the joined thread's last event
//
// A P is paired with a V whether or not it waited for it: a call that
// blocks is not a step, so that a P blocked is not in the trace. With units
// taken first in, first out, a P that could not run until a V is paired
// with that V (every older unit was taken), as Lei and Carver 2006's completion of a
// blocked P is. A Cond's Relock also takes the mutex back; its pair is the
// wake-up, and the mutex's previous release is not recorded for it.
//
// # Adding a primitive
//
// A new primitive, or a new operation of one, touches the files below; the
// tests named fail until each table has its entry. Where a file of its own
// is asked for (PRIM), it is named after the primitive (cond.go, for Cond).
// TestChecklistFiles checks that every file named here exists.
//
//  1. trace/op.go: its operation kinds (Kind, kindNames); trace/ids.go: its
//     object class (Class, classNames).
//  2. trace/sync.go: what each operation releases and acquires (the
//     synchronisation table; TestSyncTableComplete fails for a kind
//     without an entry), which both race detections follow, and from
//     which trace.ArgObject derives a second object an operation
//     accesses (a Cond's mutex) for every layer above.
//  3. trace/dependency.go: the mode in which each operation accesses its
//     object (opMode) and, if some pairs can never be enabled together,
//     MayBeCoEnabled.
//  4. model/PRIM.go: its state in Object and the primitive it registers in
//     the model's table (table.go: apply, reset and, per kind, ready or
//     enabled, outcome, observed results; TestTableComplete fails for a
//     kind of trace's table without an entry); model/doc.go: the tables
//     "Primitives", "Dependency" and "Synchronisation pairs";
//     model/walk_test.go (randomOp), so that TestDependency and
//     TestSyncTable draw it.
//  5. internal/engine/PRIM.go: its operations on threads and, for each
//     that may block, its enabledness (enabledWhen;
//     TestAltsTableComplete fails for one the model says may block), read
//     through accessors that name what the Obj's shared fields mean for
//     it.
//  6. PRIM.go in package weft: the type a test uses; if it stands in for a
//     type of Go's, std/sync/sync.go (or the stand-in's package) and its
//     rewriting, internal/rewrite/names.go.
//  7. internal/gen/program.go (its statement kinds), internal/gen/sync.go
//     (drawing them), internal/gen/forms.go (their text) and
//     internal/gen/genweft/sync.go (their test bodies), so that the
//     differential tests and model_test.go in package weft, which checks
//     the runtime against this model, exercise it.
//
// Nothing else must change: a strategy that models primitives itself
// refuses one it does not know (strategy/reach from its list of modelled
// classes, strategy/unfold by kind), and the others follow the model and
// trace's tables. To do better than that: internal/explore/describe.go
// and internal/explore/blocked.go (how a report prints the operation, who
// holds what a blocked thread waits for), the strategies that model
// primitives themselves (strategy/unfold/ops.go, strategy/unfold/sync.go,
// strategy/unfold/fire.go and a file of the primitive's own there, as
// strategy/unfold/cond.go; strategy/reach/objects.go;
// strategy/con2/sync.go for a lock), and the program runner,
// strategy/strategytest/run.go.
//
// # Walkthrough
//
// Replay a trace through the model, asking at each step what the runtime
// decided:
//
//	var s model.State
//	s.Reset(tr.Objects, len(tr.Threads))
//	for i := range tr.Events {
//		for p := range tr.Threads {
//			op, _ := tr.PendingAt(i, trace.ThreadID(p))
//			s.Threads[p].Op = op
//		}
//		e := &tr.Events[i]
//		n, _ := s.Alts(e.Thread, e.Op) // the alternatives it chose among
//		out := s.Outcome(e.Thread, e.Op, model.Alt{Case: e.Case, Partner: e.Partner, PartnerCase: e.PartnerCase})
//		fmt.Println(i, e.Op, n, out.OK, out.Source) // out.Source == e.Source()
//		s.Apply(e)
//	}
//
// or run a state forward without a program, each thread's next operation
// given by hand (a strategy's extension, a test):
//
//	s.Threads[1].Op = trace.Op{Kind: trace.KindLock, Class: trace.ClassMutex, Obj: 0}
//	if s.Enabled(1, s.Threads[1].Op) == model.Enabled {
//		e, _ := s.Step(1, model.Single, 0) // the event, applied
//		_ = e
//	}
package model
