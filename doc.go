// Package weft is a systematic concurrency tester for Go.
//
// A test body written with weft's primitives runs many times; at every
// visible operation (an access to a shared variable, a mutex, a channel, a
// select, starting or joining a thread) weft decides which thread goes next,
// and it explores those decisions with a strategy: every interleaving
// (exhaustive), seeded random schedules (random), probabilistic concurrency
// testing (pct), or dynamic partial order reduction, which explores one
// execution per Mazurkiewicz trace. It reports assertion failures, panics,
// deadlocks, goroutine leaks and the panics Go raises for misuse (send on a
// closed channel, unlock of an unlocked mutex, ...), each with the
// interleaving step by step and a replay token that reproduces it exactly;
// an execution that reaches the step bound is reported as inconclusive
// (Result.StepBounded), as a possible livelock that may be a long loop.
//
// # Writing a test
//
//	func TestCounter(t *testing.T) {
//		weft.Check(t, func(w *weft.T) {
//			var mu weft.Mutex
//			var n weft.Var[int]
//			var wg weft.WaitGroup
//			for range 2 {
//				wg.Go(func() {
//					mu.Lock()
//					n.Store(n.Load() + 1)
//					mu.Unlock()
//				})
//			}
//			wg.Wait()
//			w.Assert(n.Load() == 2, "lost update: n = %d", n.Load())
//		})
//	}
//
// The body must be deterministic given weft's choices: its shared state lives
// in weft objects (Var, Int, Value, Mutex, RWMutex, Cond, WaitGroup, Once,
// Chan, semaphores, monitors; a Value holds any type, slices and maps
// included, and a Var a comparable one, with CompareAndSwap), its threads are started with w.Go (or weft.Go and
// WaitGroup.Go, for code that has no *T), its busy waits use w.Await or
// w.Yield (below), and it takes no
// real time, randomness or state kept between executions. The primitives'
// zero values are ready to use, as with package sync; an object reused across
// executions starts each one afresh. Code between two visible operations runs
// without interruption. weft vet (package vet) reports what in a body breaks
// these rules: go statements, Go channels, sync, sync/atomic, real time, and
// plain variables shared with a thread.
//
// Check fails a test whose body starts goroutines outside weft's control:
// it counts the goroutines the process creates while the body's function
// runs in the first execution (runtime/metrics'
// /sched/goroutines-created), less those weft creates for the execution's
// threads, and if some are left, runs that execution twice more and fails
// if each run leaves some too (so that another test's goroutines, or the
// runtime's, created meanwhile, do not count). Goroutines that the body's
// threads start after the body has returned, and Go channels and sync
// mutexes shared by weft's threads alone, are not seen: weft vet is the
// check for them. Under weft test, which controls go statements, Check
// does not count. Explore reports the count as Result.Uncontrolled.
//
// # T for test helpers
//
// T has testing.T's methods for test helpers, with their meanings inside
// one execution, so that a helper that takes an interface of them (an
// assertion library's require.TestingT: Errorf and FailNow) takes a *T:
// Errorf and Error mark the execution failed and go on, and when the body
// returns it fails (kind assertion) with their messages, each after the
// file and line of its call; Fatalf, Fatal and FailNow fail it at once;
// Helper makes those lines the caller's; Logf and Log lines appear in the
// report of a failing execution only; Cleanup registers a function that
// runs, under weft's control, when the body returns, last first, before
// weft looks for leaked threads (a panic in one is the execution's
// failure); Failed, Name (the test's) and Skip (the execution is assumed
// away, as with Assume) complete the set. T's Fail keeps weft's meaning:
// it takes a message and stops the execution.
//
// w.GoNamed("producer", f) (or weft.GoNamed) starts a thread that reports
// show as T1(producer) rather than T1: in its steps, the lists of blocked
// threads, the holders of locks and the cycle of waits.
//
// Time is virtual: by default it moves only when every thread is blocked,
// as in testing/synctest; WithTime(TimeAnyStep) makes advancing it a step
// that the exploration may take at any point where a deadline lies ahead,
// so that a timeout may fire before a worker that could still send.
// w.Sleep and w.Now stand for time.Sleep and time.Now;
// NewTimer and After (or w.After) for time's, with Go 1.23's unbuffered
// timer channels (Timer).
//
// A counter whose adds return nothing, c.AddOnly(1) rather than c.Add(1),
// lets the strategies that reduce by commutation (optimal, dpor-cr, flip,
// the concolic ones) explore one order of the adds: two AddOnlys of a
// variable commute, and nothing else of it does (Int.AddOnly).
//
// # Awaits, busy-wait loops and assumptions
//
// A thread that waits for a condition by re-reading shared variables,
// `for !flag.Load() {}`, would make every turn of its loop a new trace.
// Three primitives end that:
//
//	w.Await(func() bool { return flag.Load() == 1 }) // block until it holds
//
//	for flag.Load() == 0 {
//		w.Yield() // a busy-wait loop, as with runtime.Gosched
//	}
//
//	w.Assume(x.Load() > 0) // discard the executions where it is false
//
// w.Await(cond) is one event: the evaluation of cond that returns true.
// cond may only load variables (a store, a lock or a thread started in it
// fails the execution with a panic); weft evaluates it silently, its loads
// no steps, first when the thread reaches Await and again whenever another
// thread writes a variable the last evaluation loaded. While it returns
// false the thread is blocked and leaves nothing in the trace, so a false
// evaluation cannot race with anything; once it holds, the thread is
// enabled, and when a strategy runs it the await is a step that reads the
// variables its evaluations since the thread reached it loaded (GenMC's
// blocking assumes, Nidhugg's await). It is dependent with the writes of
// those variables and with nothing else. A wait no write can end leaves the
// thread blocked for good: with every other thread finished or blocked too,
// the execution is a deadlock (or a leak, once the test body has returned)
// that names the thread and the variables it waits for: a program whose
// await can never succeed hangs, and weft says so.
//
// w.Yield() ends a turn of a busy-wait loop. If the thread loaded
// variables since its last step of another kind (a store, a lock, an
// await, ...), its previous Yield or the return of its last Await, its
// next operation tells whether they were a loop's turn: if it loads (or
// compare-and-swaps) one of those variables again as it did, the loop went
// round, and the loads from that one to the Yield are its turn, a failed
// check, as a false
// evaluation of an Await's condition, and leaves no trace of its own: the
// thread is blocked for good there. An execution that ends with it so,
// no thread able to move, is assumed away (Result.Assumed) if another
// thread wrote one of the turn's variables after the turn read it: the
// thread would take another turn, and that turn is another execution's,
// in which the strategies order the loads after that write (their race
// with it is reversed); otherwise it is a deadlock or a leak, as an Await
// no write can end. This is Nidhugg's spin-assume transformation (a loop
// whose turns only read becomes one turn and an assumption that it
// exits), with the thread left blocked rather than the execution cut, so
// that a wait no write ends is reported. It is sound because a failed
// turn changes nothing another thread sees and leaves its thread where the
// turn began (the loop keeps no state between turns): taken out of an
// execution, it leaves an execution of the program in which the thread
// waited instead, so the executions whose turns all succeed reach what
// every execution reaches. A turn's loads are steps, the successful
// one's too: the check is made
// load by load, as the Go program makes it, and a turn that reads x and
// then y sees values no single state holds, which an Await's condition,
// evaluated at once, does not (yield-torn in await_test.go). On the spin
// locks (spinlocks_test.go) the traces are as many as with Await:
// Peterson's lock for two threads has 4 (12 when a failed turn went on
// after the write that ended its wait), Dekker's 4 (19), the
// test-and-test-and-set lock 6 (10), Lamport's bakery 9 (28).
//
// If the thread made no step at all since its previous Yield, the Yield
// continues that one's pause (a back-off that yields 1, 2, 4, ... times
// in a row between two attempts) and does nothing; a loop that does
// nothing but yield (thousands of Yields in a row) can never change what
// it does, and the thread blocks for good. If its last step was not a
// load (a Swap, a store), Yield does nothing: a turn that writes is no
// failed check, nor is a Yield whose next operation repeats none of the
// loads before it (straight-line code that yields, x.Load(); w.Yield();
// y.Store(1), goes on). Loads just before a loop that the loop does not
// repeat (v.Load(); for u.Load() == 0 { w.Yield() }) are no part of its
// turn. This is right for a loop whose turns only load before they Yield,
// the shape of spin locks written with flags and turns (Peterson's,
// Dekker's, the filter lock, a test-and-test-and-set lock, whose failed
// CompareAndSwap comes before its loads). A loop whose turn writes before
// its loads (x.Store(1); if y.Load() == 1 {break}; w.Yield()) only yields,
// its turns all steps; straight-line code that loads a variable again
// right after a Yield (x.Load(); w.Yield(); x.Load()) is taken for a loop
// and blocks there, a deadlock if x is never written again.
//
// w.Assume(cond) ends the execution unless cond is true: the program
// declares the executions where it is false out of scope. Such an
// execution is assumed away, no failure and no complete execution:
// Result.Assumed counts them and the summary shows them. Like a failure, it
// ends in the thread's local code, so the strategies that reduce explore
// the steps of other threads it prevented in other executions.
//
// Await, Yield and Assume exist as functions too (weft.Await, ...), for
// code without a *T.
//
// # Data races
//
// WithRaces (WEFT_RACES=1) checks every execution for data races: two
// accesses to a Var, at least one a write and at least one plain (Load or
// Store of a variable not marked with SetAtomic; an Int's operations,
// Swap, CompareAndSwap and the adds are atomic), that no synchronisation
// orders. A race fails the execution with kind "data race"; the report
// names both accesses' lines. Package internal/races says which
// operations order which.
//
// # Failures and replay
//
// Check fails the test with a report: the failure's kind and message, the
// interleaving with each step's thread, operation, object, value and source
// line, a replay token and the command that replays it. The interleaving is
// shortened first, to fewer context switches that fail the same way
// (WithShorten), and one of more than LongReport steps is summarised, the
// whole report written to a file:
//
//	WEFT_REPLAY='TestCounter=w1.AgAABgEABgBGoe1X' go test ./counter -run '^TestCounter$'
//
// The package argument (./counter) is the test's package relative to the
// module's root, from the test binary's build information, so the command
// runs from the module's root. The token is tied to the test's full name, and the -run pattern anchors
// each level of it ('^TestTop$/^bad$' for subtest bad of TestTop): only that
// test's Check replays the token, and every other Check explores as usual.
// A bare token (WEFT_REPLAY=w1....) replays in every Check of the process
// (ReplayEnv).
//
// Check also writes a replay file under testdata/weft/<TestName>/, with
// the time mode it was recorded in, which every later go test runs first in
// that mode, as Go fuzzing does with testdata/fuzz. A test that calls Check
// more than once gives each call its own files and tokens (Check). A replay
// that the body does not follow is reported as a failure of kind
// nondeterminism that says the replay diverged from the recorded execution,
// naming the step, the thread, the recorded operation and the one that
// happened instead, and what to do: the token belongs to another body or
// other options, or the body is not deterministic. Replay returns it as an
// error wrapping replay.ErrMismatch. A replay file whose failure no longer
// happens (its replay diverges, or ends without failure: the test was
// fixed) does not fail the test: Check logs that the recorded failure no
// longer happens and explores. ReplayFilesEnv chooses whether files are
// run, written, and deleted once their failure no longer happens. A token
// longer than LongToken is not printed: the report and its command name
// the file that holds it, which ReplayEnv takes in its place.
//
// # Exploring without go test
//
// Explore runs the same exploration and returns a Result (executions,
// complete, cut, assumed away, failures by kind, distinct final states); the weft command
// (cmd/weft) runs built-in programs with it. Explorations do not nest: Check,
// Explore or Replay called inside a test body fails at once (ErrNested).
// Explorations started from different goroutines (tests that call
// t.Parallel) run at the same time, each with its own objects: an object
// made outside a test body belongs to one exploration at a time, and an
// exploration that touches one while another's execution uses it stops
// with ErrSharedObject.
//
// # Parallel exploration
//
// WithWorkers(n) (or WEFT_WORKERS for Check) spreads one exploration over n
// goroutines, each running executions in a runtime of its own; the
// strategies that divide their work into units (strategy.Splitter: the
// DPOR family, flip, optimal, the concolic ones) hand subtrees to idle
// workers and join back what those find, and the runtimes share their
// naming of threads and objects (internal/explore). The traces, failures and
// final states are a single worker's; some executions may be repeated
// (Result.Workers says what each worker did). Executions then run at the
// same time, so the body must make every object it uses. If the
// executions run before the first unit goes out (one worker's, alone)
// touch an object made outside it, or one kept from one execution to the
// next, no unit goes out: the exploration goes on on that worker and
// Result.NotParallel names the object. One first touched later, when
// executions of several workers may have shared it, is refused with
// ErrSharedObject. Other strategies run on one worker and
// Result.NotParallel says why.
//
// # Strategies
//
// Without WithStrategy, Check and Explore choose the strongest complete
// strategy that handles the body: optimal (Optimal-DPOR, every trace
// once), or concolic-optimal when the body reads inputs and package
// concolic is imported; Result.Note says when inputs keep their default
// values instead. WithStrategy picks one by name (Strategies lists them): exhaustive,
// random, pct, the DPOR family (dpor, dpor+sleep, dpor-clock,
// dpor-clock+sleep, dpor-cr, dpor-cr+sleep, dpor-1, dpor-2), flip,
// flip+sleep, optimal and unfold (variables, mutexes, WaitGroups and joins
// only: a program with another primitive is refused, Explore returning the
// reason). The concolic strategies (concolic, concolic-dpor,
// concolic-optimal), which choose input values with the Z3 solver, are
// opt-in, because Z3 is a C library reached through cgo: a file of the test
// package imports package concolic for its side effect,
//
//	import _ "github.com/weft-go/weft/concolic"
//
// and without it asking for one says so. Package weft itself depends on no
// cgo package.
//
// A strategy that cannot handle the program says so: Explore returns its
// error and Check fails the test with it.
//
// A panic inside a strategy is a bug in weft: it ends the exploration with
// an error wrapping ErrInternal, with the strategy's stack, and never
// reaches the test body.
//
// # Papers
//
// The strategies implement these papers (package docs and comments cite
// them by authors and year, figure and section):
//
//   - Saarikivi et al. 2012: O. Saarikivi, K. Kähkönen, K. Heljanko, Improving Dynamic
//     Partial Order Reductions for Concolic Testing, ACSD 2012
//     (strategy/dpor, strategy/flip, strategy/concolic).
//   - The CS294-32 DPOR slides: Dynamic Partial Order Reduction, lecture slides of CS294-32,
//     UC Berkeley (strategy/dpor).
//   - Kähkönen et al. 2014: K. Kähkönen, O. Saarikivi, K. Heljanko, Unfolding based
//     automated testing of multithreaded programs, Automated Software
//     Engineering, 2014 (strategy/unfold; its Table 2 programs).
//   - Farzan et al. 2013: A. Farzan, A. Holzer, N. Razavi, H. Veith, Con2colic Testing,
//     ESEC/FSE 2013 (the addall program).
//   - Lei and Carver 2006: Y. Lei, R. H. Carver, Reachability Testing of Concurrent
//     Programs, IEEE Transactions on Software Engineering, 2006 (its
//     bounded-buffer and dining programs).
//
// strategy/optimal follows P. Abdulla, S. Aronis, B. Jonsson, K. Sagonas,
// Optimal Dynamic Partial Order Reduction, POPL 2014.
//
// # Layers
//
// The API (this package) holds what a test writes: the primitives, T,
// Check, Explore, Replay, the options, the Result and the reports. It
// stands on package internal/explore, which runs explorations in every
// mode (one worker, parallel, divided into units, distributed: the
// exploration loop, the determinism check, the tally of the executions,
// the choice of a strategy, the shortening and description of a failure),
// and on the runtime (internal/engine), which stands on the trace model (package trace) and knows strategies only
// through the interface of package strategy. Strategies (strategy/...) read
// traces and never touch a goroutine; they simulate states they have not
// run with package model, the model of every primitive, against which the
// runtime is checked. A test guards this import graph.
package weft
