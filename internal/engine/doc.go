// Package engine is weft's runtime: it runs one execution of a test body with
// full control of scheduling.
//
// Every thread of the program is a coroutine (iter.Pull), and only one runs
// at a time. A thread runs its local code until its next visible operation,
// announces that operation as pending (Thread.begin) and reaches a
// scheduling point; there the running thread itself asks the strategy which
// enabled thread goes next and, if it is another, yields it to the
// dispatcher goroutine, which resumes it (dispatch.go). A step without a
// switch costs a function call; a switching step, two coroutine switches,
// which involve neither the Go scheduler's run queues nor another processor.
// Threads and their coroutines are pooled across executions.
//
// The driver (the caller of Run or Batch) hands its work to the dispatcher
// and waits, with the watchdog, on its own goroutine. Given a whole loop of
// executions (Batch), the dispatcher runs each execution inline, so that an
// execution wakes no other goroutine at all.
//
// Shared objects carry an Obj header, usable as a zero value: the first use in
// an execution registers it (a dense ObjectID in first-use order) and resets
// its state, so an object declared outside the test body starts every
// execution afresh. The enabledness of each pending operation is computed from
// these headers by its primitive's file, through one table (enabled.go,
// enabledWhen) whose entries are checked against the operations the model
// says may block; a primitive's file reads the header's fields through
// accessors that name what they mean for it (mutexHeld, semValue, ...).
// Package model states the same semantics as plain data, and a test checks
// every execution of many programs against it (model_test.go in package
// weft).
// The view the strategy gets at a scheduling point (strategy.State) is kept
// from one point to the next (view.go): only the threads that stepped or
// announced an operation, and the watchers of the objects those touched,
// are recomputed, so a step costs the same with ten threads or ten
// thousand; CheckView makes tests compare it with a full recomputation.
//
// Each step records, besides its operation and results, the step it
// synchronises with when that is not a rendezvous (trace.Event.Src: the
// send whose value a receive takes, the release before a lock, the V whose
// unit a P takes, ...; model's "Synchronisation pairs"). The objects keep
// the steps others will synchronise with in their headers (Obj.rel, rrel,
// hand, and queue for buffered values and semaphore units), so recording a
// pair costs a load and a store per step.
//
// A rendezvous on an unbuffered channel is always executed by the receiving
// thread, which picks one of the ready senders as its alternative; the sender
// then runs its local code to its next operation and hands control back. Spawns
// work the same way: the new thread runs to its first operation and returns
// control to its parent, so a spawn is never a scheduling point.
//
// An execution ends when every thread has finished, a thread fails, no thread
// is enabled (deadlock, or a leak if the test body has returned), the step
// bound is hit (possible livelock), or the strategy cuts it. Every thread
// still parked is then unwound with a private panic that its deferred calls
// see, so that millions of executions leak nothing. A watchdog reports a
// thread that does not reach its next scheduling point in time, with its
// stack, and abandons the Exec to it. It also watches the deadline and the
// stop channel while a thread runs outside weft's control: the execution
// is interrupted at its next step, or abandoned at once to a thread that
// made no progress since the watchdog's last look (dispatch.go, wait).
//
// The threads the strategy may choose are those a fair scheduler would
// run (fair.go): a thread passed over by the yields of others (a Yield
// that does not block, an advance of the clock) runs before those
// yielders run again, so a loop that yields never starves the others
// until the step bound; a thread blocked for good in a busy-wait loop
// whose variables were written since counts as runnable there, and the
// execution is assumed away when it would have to run. A thread that
// polls the clock (reads it again with nothing between but steps that
// change nothing: loads, selects that took their default, failed TryLocks,
// lens of channels) sleeps
// for a millisecond every third poll (poll.go), so that virtual time moves
// under a loop that waits for a deadline; with time that moves when every
// thread is blocked, a run of reads with nothing between them sees one
// time for its first PurePolls reads.
//
// Several Execs may run at the same time, each in its own Batch (tests
// that run in parallel); an operation finds its Exec by goroutine
// identity (getg, misuse.go): the Exec whose running thread it is. An
// operation from a goroutine that a thread started with a go statement is
// recorded as a misuse in every running Exec and that goroutine ends,
// before it touches an execution; any other goroutine is outside every
// execution (it may build objects for an exploration of its own).
package engine
