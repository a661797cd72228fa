// This file implements the dispatcher: the goroutine that runs the threads
// of an Exec, each a coroutine (iter.Pull), one at a time, and the watchdog
// around it.
//
// A hand-off between two threads is two coroutine switches, through the
// dispatcher: the running thread yields the thread to run next, and the
// dispatcher resumes it. Unlike a hand-off over channels between goroutines,
// it involves neither the scheduler's run queues nor waking another
// processor. When the execution ends (a thread yields none), the dispatcher
// unwinds the threads that have not returned.
//
// The dispatcher runs work the driver gives it (Batch): one execution
// (Run), or a whole loop of executions that calls Run itself, which then
// runs inline, with no wake-up between goroutines per execution. The
// driver waits on its own goroutine, where the watchdog runs: a thread that
// blocks outside weft's control blocks the dispatcher, not the driver,
// which then takes the execution over (state, abandon).
//
// A thread that calls runtime.Goexit ends (the body's thread fails) and
// hands control on for good (Thread.goexit); the dispatcher then lets its
// Goexit finish on a goroutine of its own.

package engine

import (
	"iter"
	"time"
	"unsafe"

	"github.com/weft-go/weft/internal/racemark"
	"github.com/weft-go/weft/trace"
)

// The states of an Exec (Exec.state): between executions, in one, or
// abandoned by the driver to a thread that blocked outside weft's control.
const (
	stateIdle int32 = iota
	stateRunning
	stateAbandoned
)

// progressed tells the watchdog that the execution progresses: a thread
// hands control to another, a thread starts or ends, the dispatcher
// resumes one. Like every atomic operation, it also publishes what the
// goroutine wrote before it.
func (e *Exec) progressed() { e.progress.Add(1) }

// publish makes what the running goroutine wrote of the execution's state
// (the trace, the strategy's, the end state, the threads' pending
// operations) visible to the driver before the thread runs the program's
// code again (at the end of a step, an input or a branch, as its function
// starts, as the execution ends, at a rendezvous that completed its send).
// When the watchdog abandons an execution to a thread that blocked outside
// weft's control, its load of progress saw the blocked thread's last
// increment, which orders the thread's writes before the driver's reads of
// them (wait).
//
// It costs an atomic operation per step (about a tenth of a step that does
// not switch threads), so only race builds pay it: the race detector sees
// no other order. Elsewhere the order comes from the blocked goroutine
// itself: it blocked at least the watchdog's delay (10s by default) before
// the driver reads, having parked in the Go runtime, entered a system call
// or spun in the program's code, none of which writes the execution's
// state, and the parking and the driver's wake-up synchronise through the
// runtime's scheduler.
//
// In weft test -race's builds, a thread that returns to the program's code performs
// its operation's acquires (raceOn).
func (e *Exec) publish() {
	if raceBuild {
		e.progress.Add(1)
		if t := e.cur; RaceHide && t != nil && !e.ended && t.g == getg() {
			t.raceOn()
		}
	}
}

// startDispatcher starts the dispatcher, once per Exec.
func (e *Exec) startDispatcher() {
	if e.cmds == nil {
		e.cmds = make(chan func())
		e.acks = make(chan struct{}, 1)
		go e.dispatcher()
	}
}

// dispatcher runs the work the driver gives it until Close, then stops
// every coroutine of the pool.
func (e *Exec) dispatcher() {
	for fn := range e.cmds {
		e.onD = true
		fn()
		e.onD = false
		e.done <- struct{}{}
	}
	// No coroutine runs now: even one that blocked outside weft's control
	// (an abandoned Exec) has come back, since the dispatcher is here.
	for _, t := range e.pool {
		if t.dead {
			if t.stop != nil {
				go t.stop() // its Goexit ends that goroutine
			}
		} else {
			t.stop()
		}
	}
	select {
	case e.acks <- struct{}{}: // Close waits for it, unless the Exec was abandoned
	default:
	}
}

// Batch runs fn on the dispatcher, where Run runs executions inline, and
// waits for it, watching the executions for a thread that blocks outside
// weft's control, or that runs there past the deadline. It reports false
// if one did: the Exec is then abandoned, the execution's end is a
// failure of kind Blocked (EndState), or a cut with Interrupted true, and
// fn, if it ever goes on, finds Run returning at once with Abandoned true;
// it must then return without touching anything the caller reads.
func (e *Exec) Batch(fn func()) bool {
	if e.state.Load() == stateAbandoned {
		panic("weft internal error: Batch on an abandoned Exec")
	}
	if e.closed {
		panic("weft internal error: Batch on a closed Exec")
	}
	e.startDispatcher()
	e.due.Store(false)
	activate(e)
	raceRelease(unsafe.Pointer(&e.raceBegin))
	e.cmds <- fn
	ok := e.wait()
	raceAcquire(unsafe.Pointer(&raceEnd))
	// Abandoned or not, the exploration is over: weft operations from now
	// on are outside it. Should a goroutine that blocked come back, its
	// operations panic in its thread's function, which recovers them, as
	// the Exec is aborting.
	deactivate(e)
	return ok
}

// wait blocks the driver until the dispatcher has done its work, watching
// the executions for a thread that blocks outside weft's control: no
// progress (publish) for the watchdog delay. It reports false if one did.
//
// The driver then reads the state of the execution the blocked thread
// wrote, to report it: its last load of progress saw the thread's last
// publish, which orders those writes before the reads. A thread that comes
// back finds the execution aborting (an atomic the driver sets) and
// unwinds without writing any of it; only one that came back within the
// instant between the driver's last look at progress and its setting of
// aborting, after the watchdog delay, could still write while the driver
// reads: closing that would take a second atomic operation in every step.
//
// The watchdog also honours Config.Deadline and Config.Stop while a
// thread runs outside weft's control (a loop, a system call, a
// subprocess), where no scheduling point checks them: once it sees
// either, pickNext ends the execution at its next step (due), and a
// thread that has made no progress since the watchdog's last look is
// abandoned at once, the execution interrupted (Interrupted), not
// failed. So a bound stops an exploration within two polls, not after
// the watchdog delay or whenever the thread comes back.
func (e *Exec) wait() bool {
	// The watchdog looks every poll; a thread that has made no progress
	// for parkedAfter and whose goroutine is parked in the Go runtime (a
	// sync.Mutex, a real channel, time.Sleep) is blocked for good: it is
	// reported then, without waiting for the whole delay.
	poll := e.cfg.Watchdog
	if poll > parkedAfter {
		poll = parkedPoll
	}
	if e.watch == nil {
		e.watch = time.NewTimer(poll)
	} else {
		e.watch.Reset(poll)
	}
	timer := e.watch
	defer timer.Stop()
	last, since := e.progress.Load(), time.Now()
	for {
		select {
		case <-e.done:
			return true
		case <-timer.C:
			now, running := e.progress.Load(), e.state.Load() == stateRunning
			due := running && e.pastDeadline()
			if due {
				e.due.Store(true)
			}
			if now != last || !running {
				// Progress, or between executions (a strategy may think
				// long, and looks at the bounds itself): nothing to say.
				last, since = now, time.Now()
				timer.Reset(poll)
				continue
			}
			idle := time.Since(since)
			parked := ""
			if !due && idle < e.cfg.Watchdog {
				if idle >= parkedAfter {
					parked = e.parkedState()
				}
				if parked == "" {
					timer.Reset(poll)
					continue
				}
			}
			if !e.state.CompareAndSwap(stateRunning, stateAbandoned) {
				// The execution ended just now.
				last, since = e.progress.Load(), time.Now()
				timer.Reset(poll)
				continue
			}
			e.tag.running.Store(false)
			abandon(e)
			if due {
				// An execution that ended before (its thread is stuck in
				// deferred calls as it unwinds) keeps its end, a failure
				// included: it ran whole.
				e.aborting.Store(true)
				if !e.ended {
					e.interrupted = true
					e.endState = trace.End{Status: trace.Cut, Thread: trace.NoThread}
				}
				e.finalOps()
				return false
			}
			if i := int(e.unwindAt.Load()) - 1; i >= 0 {
				e.stuckUnwinding(trace.ThreadID(i))
			} else {
				e.blocked(idle, parked)
			}
			e.finalOps()
			return false
		}
	}
}

// execute runs the execution whose first thread is main, on the
// dispatcher, and unwinds it.
func (e *Exec) execute(main *Thread) {
	for t := main; t != nil; {
		next, ok := e.resumeThread(t)
		e.letGo(t)
		if !ok {
			break
		}
		if next != nil && next == e.decideMark {
			// t asks the dispatcher to run a function (onDispatcher) or
			// to pick the next thread (pickYoung), and goes on.
			if e.aside != asideNone {
				e.runAside()
			} else {
				e.runRequest()
			}
			next = t
		}
		t = next
	}
	for {
		i := int(e.unwindAt.Load())
		if i >= len(e.threads) {
			break
		}
		e.unwindAt.Store(int32(i + 1))
		t := e.threads[i]
		if t.exiting || t.dead {
			continue
		}
		// It is parked in weft (handTo or park): resumed, it unwinds
		// (e.aborting) and yields nothing.
		e.progressed()
		e.resumeThread(t)
		e.letGo(t)
	}
}

// letGo lets the goroutine of thread t go if t, which has just yielded,
// called runtime.Goexit and handed control on for good: its Goexit
// finishes on a goroutine of its own (stop passes it on to its caller),
// which the dispatcher waits for, so that an exploration whose threads end
// so does not pile their goroutines up, and the race detector of weft test
// -race sees the coroutine's end ordered before the dispatcher goes on.
func (e *Exec) letGo(t *Thread) {
	if t.dead && t.stop != nil {
		e.letGoNow(t)
	}
}

// letGoNow is letGo for a thread that called runtime.Goexit.
//
// The goroutine ends, and the Go runtime may give its g to a goroutine
// made next, in this Exec or in another that runs at the same time (a
// parallel worker's): e.running must not name it any more, or Current
// would take that goroutine for t and run its operations in e (on two
// workers, x/sync's TestGoexitDo: a zero Mutex of one execution "shared"
// by two Execs, in one run of eight).
func (e *Exec) letGoNow(t *Thread) {
	e.running.CompareAndSwap(t.g, 0)
	stop, done := t.stop, make(chan struct{})
	t.stop = nil
	e.spawned.Add(1)
	go func() {
		defer close(done)
		stop()
	}()
	<-done
}

// resumeThread resumes t's coroutine until it yields, hiding the switches
// from the race detector in weft test -race's builds (racesync.go).
func (e *Exec) resumeThread(t *Thread) (*Thread, bool) {
	if !RaceHide {
		return t.resume()
	}
	raceDisable()
	defer raceEnable()
	return t.resume()
}

// newCoroutine gives thread t its coroutine. In weft test -race's builds
// it creates its goroutine below frames that spell t's number
// (racemark), where the race detector's reports show it created, so that
// weft test names it in them.
func (e *Exec) newCoroutine(t *Thread) {
	e.spawned.Add(1) // iter.Pull's goroutine
	if RaceHide {
		racemark.Thread(int(t.id), func() { t.resume, t.stop = iter.Pull(e.coroutine(t)) })
		return
	}
	t.resume, t.stop = iter.Pull(e.coroutine(t))
}
