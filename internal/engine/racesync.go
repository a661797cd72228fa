// This file implements what Go's race detector sees of an execution in a
// race build (weft test -race): weft's own hand-offs between threads are
// hidden from it, and the synchronisation of the program's operations is
// told to it instead.
//
// Every thread is a goroutine of its own, so the detector checks the
// program's plain memory accesses between threads; but a hand-off of
// control (a coroutine switch, iter.Pull's release and acquire) and the
// engine's own atomics would order every access of one thread before the
// next thread's, and it would find nothing. So a thread's goroutine runs
// weft's code with the detector's synchronisation events ignored
// (runtime.RaceDisable: raceOff when an operation begins, raceOn when the
// thread returns to the program's code), and the dispatcher always does.
// Weft's own packages are built without the detector's instrumentation
// (weft test -race builds them with -race=false), so that their memory,
// which the threads share with no order the detector sees, is not
// checked either.
//
// The program's synchronisation is told with releases and acquires on two
// addresses of each object (its header, A, and the byte after it, B), as
// package trace's synchronisation table says (trace.SyncOf; A is its
// SyncObj, B its SyncAux): an
// operation that releases (Unlock, a send, a close, WaitGroup.Add and
// Done, the end of a Once's function, an atomic write, ...) merges its
// thread's clock into A as it begins (a receive, an RUnlock: into B); one
// that acquires (Lock, a receive, Wait, Once.Do, an atomic access, ...)
// takes A's (a send: B's, the receives that made room; a writer's Lock:
// both) once it is chosen to run (raceAcquire). This orders more than Go's memory
// model does (a receive after every earlier send, not only its own), never
// less: a race may be missed, none is reported that Go's model allows.
// Spawns order the new thread after its parent's past; every thread's
// clock goes into the end address (raceEnd) at each operation and as it
// ends, and the next execution's first thread, the threads that unwind
// and the driver after the exploration take it: executions do not race
// with one another.

package engine

import (
	"unsafe"

	"github.com/weft-go/weft/trace"
)

// raceEnd is the address of the clocks of every thread of every
// execution, as they began each operation and as they ended: an
// execution's first thread, the threads that unwind and the driver after
// an exploration take it, so that executions, of any Exec (the
// replays that shorten and describe a failure run on Execs of their own,
// started from the first one's dispatcher), do not race with one another.
var raceEnd byte

// raceOff makes the race detector ignore the synchronisation of t's
// goroutine (weft's code runs).
func (t *Thread) raceOff() {
	if RaceHide && !t.raceIgnoring {
		raceDisable()
		t.raceIgnoring = true
	}
}

// raceHide hides a hand-off of control by t (handTo, park, pick) from
// the race detector, and reports whether t's synchronisation was shown
// before, for raceRestore once t has control again: a thread that
// returned to the program's code (publish) before it hands control over
// (Meet) returns to it without another publish.
func (t *Thread) raceHide() (shown bool) {
	shown = RaceHide && !t.raceIgnoring
	t.raceOff()
	return shown
}

// raceRestore shows t's synchronisation again if raceHide hid it.
func (t *Thread) raceRestore(shown bool) {
	if shown {
		t.raceShow()
	}
}

// raceShow makes the race detector see the synchronisation of t's
// goroutine again.
func (t *Thread) raceShow() {
	if RaceHide && t.raceIgnoring {
		raceEnable()
		t.raceIgnoring = false
	}
}

// raceOn makes the detector see t's synchronisation again, as t returns
// to the program's code after its operation.
func (t *Thread) raceOn() {
	if RaceHide && t.raceIgnoring {
		t.raceShow()
	}
}

// raceAcquire performs the acquires of the operation t began, now that t
// runs it: the operations it synchronises with have run, so their
// releases (as they began) are done. Acquiring before the operation runs,
// not as t returns to the program, orders weft's own reads of the
// program's values during the operation (the values a receive or a load
// takes, hashed or printed) after the writes that made them.
func (t *Thread) raceAcquire() {
	if !RaceHide || t.raceOp.Kind == trace.KindNone {
		return
	}
	op := t.raceOp
	t.raceOp = trace.Op{}
	t.raceShow()
	t.raceSync(op, false)
	t.raceOff()
}

// raceBegin tells the detector of the releases of op, which t, running
// the program's code, begins, and of t's clock so far (the Exec's end
// address), and hides what follows.
func (t *Thread) raceBegin(op trace.Op) {
	if !RaceHide {
		return
	}
	if !t.raceIgnoring {
		t.raceSync(op, true)
		raceReleaseMerge(unsafe.Pointer(&raceEnd))
		t.raceOp = op
	}
	t.raceOff()
}

// raceStart orders thread t, about to run its function, after the thread
// that started it (raceSpawn), or, for the first thread, after the
// driver's code before the exploration and every earlier execution.
func (t *Thread) raceStart() {
	if !RaceHide {
		return
	}
	t.raceShow()
	if p := t.raceParent; p != nil {
		raceAcquire(unsafe.Pointer(&p.raceSpawned))
	} else {
		raceAcquire(unsafe.Pointer(&t.e.raceBegin))
		raceAcquire(unsafe.Pointer(&raceEnd))
	}
}

// raceSpawn records t's clock for the thread it starts (raceStart) and
// hides the start; it reports whether t's synchronisation was shown, for
// raceRestore once the new thread hands control back.
func (t *Thread) raceSpawn() (shown bool) {
	if RaceHide && !t.raceIgnoring {
		raceRelease(unsafe.Pointer(&t.raceSpawned))
	}
	return t.raceHide()
}

// raceUnwind orders t, unwinding at the end of the execution, after
// every thread's operations, so that its deferred calls race with none.
func (t *Thread) raceUnwind() {
	if RaceHide {
		t.raceShow()
		raceAcquire(unsafe.Pointer(&raceEnd))
	}
}

// raceExit records the clock of t, whose function returned or unwound,
// for a Join and for what follows the execution, and hides the rest.
func (t *Thread) raceExit() {
	if RaceHide && !t.raceIgnoring {
		raceRelease(unsafe.Pointer(&t.raceDone))
		raceReleaseMerge(unsafe.Pointer(&raceEnd))
	}
	t.raceOff()
}

// raceSync performs the releases (release) or the acquires of op, as the
// table of package trace says (trace.SyncOf). The detector sees an
// operation before it runs, so it keeps the addresses, not the finer
// orders (trace.Finer), and acquires whether or not the operation will
// succeed (trace.Sync.IfOK).
func (t *Thread) raceSync(op trace.Op, release bool) {
	e := t.e
	s, ok := trace.SyncOf(op.Class, op.Kind, op.Arg)
	if !ok {
		return
	}
	addrs := s.Acquire
	if release {
		addrs = s.Release
	}
	if addrs&trace.SyncCases != 0 {
		for _, c := range op.Cases {
			e.raceSyncObj(trace.ClassChan, c.Kind, c.Obj, 0, release)
		}
	}
	if addrs&trace.SyncThread != 0 && op.Arg >= 0 && int(op.Arg) < len(e.threads) {
		raceAcquire(unsafe.Pointer(&e.threads[op.Arg].raceDone))
	}
	e.raceSyncAddrs(addrs, op.Obj, op.Arg, release)
}

// raceSyncObj performs the releases or the acquires of an operation of
// kind k on object id of class c, with argument arg.
func (e *Exec) raceSyncObj(c trace.Class, k trace.Kind, id trace.ObjectID, arg int64, release bool) {
	s, ok := trace.SyncOf(c, k, arg)
	if !ok {
		return
	}
	addrs := s.Acquire
	if release {
		addrs = s.Release
	}
	e.raceSyncAddrs(addrs, id, arg, release)
}

// raceSyncAddrs releases to (release) or acquires from addresses addrs
// of object id, whose operation has argument arg: the object's header is
// its main address (trace.SyncObj), the byte after it its second
// (trace.SyncAux), and the header of the object arg names is SyncArg.
func (e *Exec) raceSyncAddrs(addrs trace.SyncAddr, id trace.ObjectID, arg int64, release bool) {
	if id < 0 || int(id) >= len(e.objs) {
		return
	}
	sync := func(p unsafe.Pointer) {
		if release {
			raceReleaseMerge(p)
		} else {
			raceAcquire(p)
		}
	}
	a := unsafe.Pointer(e.objs[id])
	if addrs&trace.SyncArg != 0 && arg >= 0 && int(arg) < len(e.objs) {
		sync(unsafe.Pointer(e.objs[arg])) // the Cond's mutex, as Unlock and Lock
	}
	if addrs&trace.SyncObj != 0 {
		sync(a)
	}
	if addrs&trace.SyncAux != 0 {
		sync(unsafe.Add(a, 1))
	}
}

// pick returns the thread to run next, by the strategy (pickNext). In
// weft test -race's builds the dispatcher runs the strategy, t waiting
// (onDispatcher). If the execution ended meanwhile, it unwinds t, or, if
// t is exiting, returns nil.
func (t *Thread) pick() *Thread {
	e := t.e
	if !RaceHide {
		if t.young() {
			return t.pickYoung()
		}
		return e.pickNext()
	}
	var next *Thread
	if !t.onDispatcher(func() { next = e.pickNext() }) {
		if t.exiting {
			return nil
		}
		t.raceUnwind()
		panic(unwindSignal{})
	}
	return next
}

// onDispatcher runs f on the dispatcher while t, the running thread,
// waits, if t is the calling goroutine's thread in weft test -race's
// builds; otherwise it runs f. Weft's state that f touches is then
// touched by one goroutine only: what the race detector would see of it
// when touched by the threads, which it sees unordered, is not only the
// instrumentation weft's packages are built without but the runtime's
// own checks (of maps, of copies of slices of pointers). A panic of f is
// t's. It reports false if the execution ended meanwhile (f has not run).
func (t *Thread) onDispatcher(f func()) bool {
	e := t.e
	if !RaceHide || t.g != getg() {
		f()
		return true
	}
	shown := t.raceHide()
	e.request, e.requestPanic = f, nil
	ok := t.yield(e.decide())
	e.running.Store(t.g)
	if !ok || e.aborting.Load() {
		return false
	}
	t.raceRestore(shown)
	if p := e.requestPanic; p != nil {
		e.requestPanic = nil
		panic(p)
	}
	return true
}

// runRequest runs the function a thread gave onDispatcher, on the
// dispatcher, keeping its panic for the thread.
func (e *Exec) runRequest() {
	defer func() {
		if p := recover(); p != nil {
			e.requestPanic = p
		}
	}()
	f := e.request
	e.request = nil
	f()
}

// Hidden runs f on the dispatcher while the running thread waits, in
// weft test -race's builds, if the caller is that thread (onDispatcher;
// package shim); otherwise it runs f.
func (e *Exec) Hidden(f func()) { e.hidden(f) }

// hidden runs f as onDispatcher does for the running thread, if the
// caller is it, unwinding the thread if the execution ended.
func (e *Exec) hidden(f func()) {
	t := e.cur
	if !RaceHide || t == nil {
		f()
		return
	}
	if !t.onDispatcher(f) {
		t.raceUnwind()
		panic(unwindSignal{})
	}
}

// decide returns the marker a thread yields to ask the dispatcher to run
// a function (onDispatcher).
func (e *Exec) decide() *Thread {
	if e.decideMark == nil {
		e.decideMark = &Thread{e: e, id: trace.NoThread}
	}
	return e.decideMark
}
