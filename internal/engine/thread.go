// This file implements threads: their goroutines, scheduling points and the
// direct hand-off of control between them.

package engine

import (
	"fmt"
	"runtime"
	"slices"
	"strings"

	"github.com/weft-go/weft/trace"
)

// Thread is a thread of an execution: a goroutine under weft's control.
type Thread struct {
	// The fields a step reads or writes come first, in the Thread's first
	// three cache lines (spread over the Thread, a step touched seven).
	e   *Exec
	id  trace.ThreadID
	alt int32   // the alternative chosen for the pending operation
	g   uintptr // the goroutine of its coroutine (getg), which it keeps

	op   trace.Op // pending operation
	obj  *Obj     // the object the pending operation's enabledness reads
	obj2 *Obj     // a second one: the mutex a Cond waiter reacquires
	// returnTo is the thread to return control to after running local
	// code (partner handling, with completed below).
	returnTo *Thread
	caller   uintptr
	// seenBit is t's bit in the objects' seen (1<<id), 0 from thread 64
	// on, and serial its execution's (touch).
	seenBit, serial uint64
	// key is the thread's stable name (its path of spawns, interned by the
	// Exec); announces counts its begins and touches the objects it touched
	// for the first time since the last one (object keys: object.go).
	key       uint32
	announces uint32
	touches   uint32
	// vAlts is t's number of alternatives at the last scheduling point,
	// before fairness hid any (the view, view.go).
	vAlts int32
	// callDepth counts the calls of stand-ins the thread is in (calls.go),
	// callID and callLabel describe the outermost.
	callDepth int32
	// picks counts the decisions made on the coroutine's goroutine, which
	// the thread keeps across executions (pickYoung).
	picks int32
	done  bool
	// daemon marks a timer's thread: it never counts as live, blocked or
	// leaked, and the execution ends without it (timer.go).
	daemon  bool
	exiting bool // the thread's function has returned or is unwinding
	// inAwait marks the silent evaluation of an Await's condition
	// (await.go).
	inAwait bool
	// peeking marks a Yield after loads, the events peekFrom to peekTo,
	// whose turn t's next operation tells (Thread.peek); peekPC is the
	// Yield's call site, where t shows blocked if it blocks.
	peeking          bool
	peekFrom, peekTo int32
	peekPC           uintptr
	// yield, called from the thread's coroutine, hands control on (with
	// resume and stop below).
	yield func(*Thread) bool

	// goid is the goroutine's number, to find its stack (watchdog.go).
	goid int64
	sel  []selCase
	// The thread's coroutine (dispatch.go): resume runs it until it yields
	// the thread to run next (nil: none), stop ends it (and yield above).
	resume func() (*Thread, bool)
	stop   func()
	fn     func() // the function the coroutine runs next (nil: stop)
	dead   bool   // the coroutine has ended (runtime.Goexit)
	// partner handling: a thread whose pending send was completed by a
	// receiver (and returnTo above).
	completed     bool
	completedCase int32
	// wokenBy is the source (trace.Event.Src) of the Signal that woke a
	// Cond or SC monitor waiter, 0 while it waits (or waits for nothing).
	wokenBy  int32
	spawns   int32
	deadline int64
	// spawnPC is the call site that started the thread (w.Go, wg.Go),
	// recorded when sources are captured: the place shown for a step
	// whose call stack holds no frame of the program (the Done that
	// WaitGroup.Go runs when the function returns).
	spawnPC   uintptr
	creations uint32 // objects made by constructors (Create)
	callID    uint32 // (callDepth above)
	callLabel string

	// name is the name the program gave the thread (GoNamed), or "".
	name string
	// nextOrigin is where the next object the thread creates was made,
	// outside weft's control (outside.go).
	nextOrigin string

	// await lists the variables the thread's pending await waits on
	// (await.go), cond the condition of its pending w.Await (inAwait
	// above); yieldAt is the number of steps when the thread last called
	// Yield (-1: never), turnFrom when its last Await returned;
	// idleYields counts the Yields in a row with no step between
	// (await.go).
	await []awaitRead
	cond  func() bool
	waits []*Obj
	// steps counts the events t took part in among the first countedTo
	// of the execution (stepCount).
	steps, countedTo int32
	yieldAt          int32
	turnFrom         int32
	idleYields       int32
	// The fairness rule (fair.go): wanted marks a thread found enabled
	// since its last step, waited counts the yields of others since then,
	// tickSkips the ticks its selects received in a row while another
	// alternative was ready.
	// waitBase is the execution's count of yields when t became wanted
	// (waited is the count since); fairIn marks t as counted among the
	// enabled wanted threads.
	waitBase, tickSkips int32
	wanted, fairIn      bool
	// wokenAt is the execution's count of yields when t, blocked for
	// good in a loop that yields, was first found woken (-1: not yet).
	wokenAt int32
	// lastYield is the number of the thread's last yield among the
	// execution's (-1: none).
	lastYield int32
	// The view (view.go, and vAlts above): dirty marks t for
	// recomputation; watched and watchAnn say that t is registered on
	// the objects of its pending operation, announce number watchAnn.
	watchAnn uint32
	dirty    bool
	watched  bool
	// Clock polls (poll.go): polls counts t's reads of the clock in a
	// row with only steps that change nothing between (observes);
	// pollAnnounces and pollStep are announces and the number of steps
	// at the end of the last read;
	// reads counts t's reads, yieldReads what it was at t's last Yield;
	// pureReads counts the reads in a row with no step of t between them.
	polls             int32
	pollAnnounces     uint32
	pollStep          int32
	reads, yieldReads uint32
	pureReads         uint32

	// Race builds (racesync.go): whether the goroutine ignores its
	// synchronisation (kept across executions, as the goroutine is), the
	// operation whose acquires raceOn performs, the thread that started
	// t, and the addresses of t's clock for the threads it starts and for
	// a Join.
	raceIgnoring bool
	raceOp       trace.Op
	raceParent   *Thread
	raceSpawned  byte
	raceDone     byte
}

// ID returns the thread's identity.
func (t *Thread) ID() trace.ThreadID { return t.id }

// label names the thread for a person: its identity, with the name the
// program gave it in parentheses, as in "T1(producer)".
func (t *Thread) label() string { return ThreadLabel(t.id, t.name) }

// ThreadLabel names thread p, which the program named name (or not: ""),
// for a person: "T1", or "T1(producer)".
func ThreadLabel(p trace.ThreadID, name string) string {
	if name == "" {
		return p.String()
	}
	return p.String() + "(" + name + ")"
}

// Exec returns the execution the thread belongs to.
func (t *Thread) Exec() *Exec { return t.e }

// unwindSignal is the panic value that unwinds a parked goroutine at the end
// of an execution.
type unwindSignal struct{}

// failSignal is the panic value that stops a failing thread after its failure
// is recorded; it unwinds the thread like unwindSignal.
type failSignal struct{}

// coroutine is the body of pooled thread t's coroutine (dispatch.go): it
// runs the function of t in each execution that uses t, handing control on
// to the thread to run next when it returns, and waits in between, so that
// goroutines and their grown stacks outlive executions. It returns when the
// dispatcher stops it (Close) or finds no function to run.
func (e *Exec) coroutine(t *Thread) func(yield func(*Thread) bool) {
	return func(yield func(*Thread) bool) {
		t.yield = yield
		t.g, t.goid = getg(), goid()
		e.own(t.g)
		registerThread(t.goid, e)
		returned := false
		defer func() {
			if !returned && !t.dead {
				// A runtime.Goexit that resumed once run recovered the
				// panic that unwound t or stopped it at a failure (an
				// operation in a deferred call of the Goexit): the
				// coroutine would end, and iter.Pull pass the Goexit on
				// to the dispatcher. t hands control back for good
				// instead, as goexit does.
				t.goexit(nil)
			}
			t.raceShow()
			unregisterThread(t.goid)
			e.disown(t.g)
		}()
		t.raceOff()
		for {
			f := t.fn
			if f == nil {
				returned = true
				return
			}
			t.fn = nil
			if !yield(e.run(t, f)) {
				returned = true
				return
			}
		}
	}
}

// run runs f as thread t, once control has been handed to t, and unwinds
// t at the end of the execution. It returns the thread to hand control to
// when f returns, or nil if the execution ended.
func (e *Exec) run(t *Thread, f func()) (next *Thread) {
	normal := false
	e.running.Store(t.g)
	defer func() {
		r := recover()
		// The failure is recorded with t's synchronisation shown (the
		// pools of fmt), and then hidden (racesync.go).
		t.raceShow()
		defer t.raceExit()
		// From here on, t is not parked in weft: unwinding must not resume it.
		t.exiting = true
		if r == nil && !normal {
			// runtime.Goexit: the coroutine would end after this call, and
			// iter.Pull would pass the Goexit on to the dispatcher. Instead,
			// once the thread's end is recorded, it hands control to the
			// thread to run next (none: the execution ended) for good (see
			// goexit); the pool does not use it again.
			defer func() { t.goexit(next) }()
		}
		switch r.(type) {
		case unwindSignal, failSignal:
			return
		}
		if e.aborting.Load() {
			// Unwinding: the user's code recovered our signal and returned, or
			// panicked in a deferred call. Nothing of it counts any more.
			return
		}
		if r != nil {
			if f, ok := r.(goPanic); ok {
				e.failNoPark(t, f.kind, f.msg)
			} else {
				e.failNoPark(t, trace.Panic, fmt.Sprintf("panic: %v\n\n%s", r, stack()))
			}
			return
		}
		if !normal && t.id == 0 {
			// The body's own goroutine: t.FailNow or t.SkipNow of the test
			// that runs the exploration, called inside an execution.
			e.failNoPark(t, trace.Goexit, "the body called runtime.Goexit (t.FailNow, t.Fatal or t.SkipNow inside the body?); use w.Fail or w.Assert instead")
			return
		}
		// A thread that returned, or called runtime.Goexit, which ends it
		// after its deferred calls, as Go ends a goroutine.
		t.raceExit()
		next = e.exit(t) // nil: the execution ended
	}()
	if e.aborting.Load() {
		panic(unwindSignal{})
	}
	e.publish() // the coroutine's goroutine (t.goid), and the spawner's writes
	t.raceStart()
	f()
	if t.id == 0 {
		for i := 0; i < len(e.atReturn); i++ {
			e.atReturn[i]()
		}
	}
	normal = true
	return nil
}

// goexit hands control from thread t, which called runtime.Goexit, to
// next (nil: none, the execution ended), and parks t for good: the
// dispatcher goes on as if t had returned. The dispatcher lets the Goexit
// finish on a goroutine of its own (dispatch.go).
//
// t is marked dead here, at its last yield, not before: the decisions of
// weft test -race's builds, which run on the dispatcher, make t yield
// before (onDispatcher), and the dispatcher lets go of a dead thread's
// goroutine once it yields (letGo).
func (t *Thread) goexit(next *Thread) {
	t.dead = true
	t.raceOff()
	t.yield(next)
}

// stack returns the current goroutine's stack, without weft's own frames
// (userFrames).
func stack() string {
	buf := make([]byte, 16<<10)
	return userFrames(string(buf[:runtime.Stack(buf, false)]))
}

// userFrames returns the stack s (runtime.Stack's text of one goroutine)
// without the frames of weft's own code (isWeftFrame, isWeftFile): those
// of the engine that runs the thread and of the stand-ins, and the
// coroutine of iter.Pull that created its goroutine. The program's frames
// and the runtime's panic frame stay.
func userFrames(s string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) < 3 {
		return s
	}
	out := lines[:1:1] // goroutine N [running]:
	user := false
	for i := 1; i < len(lines); i += 2 {
		if i+1 == len(lines) || !strings.HasPrefix(lines[i+1], "\t") {
			out = append(out, lines[i]) // ...additional frames elided...
			i--
			continue
		}
		fn, place := lines[i], lines[i+1]
		name := strings.TrimPrefix(fn, "created by ")
		if j := strings.Index(name, " in goroutine "); j >= 0 {
			name = name[:j]
		}
		if j := strings.LastIndexByte(name, '('); j > 0 && strings.HasSuffix(name, ")") {
			name = name[:j]
		}
		file := strings.TrimPrefix(place, "\t")
		if j := strings.LastIndexByte(file, ':'); j > 0 {
			file = file[:j]
		}
		if isWeftFrame(name) || isWeftFile(file) || strings.HasPrefix(name, "iter.Pull") {
			continue
		}
		out = append(out, fn, place)
		if !strings.HasPrefix(fn, "panic(") {
			user = true
		}
	}
	if !user {
		return s // weft's own tests: every frame is weft's
	}
	return strings.Join(out, "\n") + "\n"
}

// park blocks t until control is handed to it, and unwinds it if the execution
// has ended meanwhile.
func (t *Thread) park() {
	shown := t.raceHide()
	ok := t.yield(nil)
	t.e.running.Store(t.g)
	if !ok || t.e.aborting.Load() {
		t.raceUnwind()
		panic(unwindSignal{})
	}
	t.raceRestore(shown)
}

// handTo passes control from t to u and parks t. It does not signal the
// driver as park does: the execution goes on in u, and reading its state
// after the hand-off would race with u.
func (t *Thread) handTo(u *Thread) {
	e := t.e
	e.cur = u
	shown := t.raceHide()
	e.progressed()
	// The dispatcher resumes u; t goes on when a thread hands control back
	// to it, or unwinds if the execution ended or the Exec is closed.
	ok := t.yield(u)
	e.running.Store(t.g)
	if !ok || e.aborting.Load() {
		t.raceUnwind()
		panic(unwindSignal{})
	}
	t.raceRestore(shown)
}

// begin announces t's pending operation op on object o and blocks until the
// strategy chooses t; it returns the chosen alternative. After begin the
// caller performs the operation and calls end (or a failure).
func (t *Thread) begin(op trace.Op, o *Obj) int32 {
	e := t.e
	if e.aborting.Load() {
		// The execution has ended: an operation in a deferred call of an
		// unwinding thread (Once.Do's end of the function) is no pending
		// operation of the trace (Trace.Final).
		panic(unwindSignal{})
	}
	if t.inAwait {
		// The condition of an Await, evaluated silently (await.go): a
		// load of a variable is no step.
		if op.Kind != trace.KindLoad || op.Class != trace.ClassVar {
			t.misusedAwait(op)
		}
		t.noteRead(o)
		return 0
	}
	if t.peeking {
		t.peek(op)
	}
	t.raceBegin(op)
	// Field by field, Kind apart from Class: op lives in its spill slot,
	// written byte by byte, and a wider load across those bytes stalls on
	// store forwarding (a few nanoseconds per step).
	t.op.Kind = op.Kind
	t.op.Obj, t.op.Arg, t.op.Cases = op.Obj, op.Arg, op.Cases
	t.op.Class = op.Class
	t.obj = o
	t.announces++
	t.touches = 0
	e.markDirty(t)
	if e.captureCallers {
		t.caller = callerPC(t.spawnPC)
		if t.peekPC != 0 {
			t.caller, t.peekPC = t.peekPC, 0 // a loop's await, at its Yield
		}
	}
	if r := t.returnTo; r != nil {
		// t finished the local code of a step another thread started (a spawn
		// or a rendezvous): control goes back to that thread.
		t.returnTo = nil
		t.handTo(r)
	} else {
		var next *Thread
		if !RaceHide && t.picks >= youngPicks {
			next = e.pickNext() // pick's common case: no longer young
		} else {
			next = t.pick()
		}
		if next != t {
			if next == nil {
				t.park() // the execution ended; park unwinds
			}
			t.handTo(next)
		}
	}
	t.raceAcquire()
	return t.alt
}

// callerPC returns the program counter of the first frame outside weft's own
// packages: the user's call site. When every frame is weft's (the Done that
// WaitGroup.Go defers runs from weft's own closure, on weft's coroutine), it
// returns spawn, the call site that started the thread, or, if that is 0,
// the last frame of weft's API rather than the runtime's goexit.
func callerPC(spawn uintptr) uintptr {
	var pcs [16]uintptr
	n := runtime.Callers(3, pcs[:])
	frames := runtime.CallersFrames(pcs[:n])
	var api uintptr
	for {
		// A Frame's PC is its call instruction; the PC recorded is the
		// return address, which is what runtime.CallersFrames expects
		// (UserFrame): from the call instruction it would step back into
		// the instruction before, which may belong to another line or to
		// a function inlined there.
		f, more := frames.Next()
		if !isWeftFrame(f.Function) && !isWeftFile(f.File) {
			return f.PC + 1
		}
		if !strings.HasPrefix(f.Function, "runtime.") && !strings.HasPrefix(f.Function, "iter.") &&
			!strings.Contains(f.Function, "/internal/engine.") {
			api = f.PC + 1
		}
		if !more {
			if spawn != 0 {
				return spawn
			}
			return api
		}
	}
}

// UserFrame returns the frame of the program at pc, a call site recorded
// for an event (trace.Event.PC): the outermost of the frames inlined there
// that is not weft's own (a call of Chan.Recv inlined into the program's
// function shares its program counter with the call of RecvOK inside
// Recv).
func UserFrame(pc uintptr) runtime.Frame {
	frames := runtime.CallersFrames([]uintptr{pc})
	for {
		f, more := frames.Next()
		if !isWeftFrame(f.Function) && !isWeftFile(f.File) || !more {
			return f
		}
	}
}

// end records the event of t's executed operation and publishes it: the
// caller returns to the program's code. A caller that writes to the event
// afterwards calls record instead, and publishes when done.
func (t *Thread) end(value uint64, ok bool) *trace.Event {
	ev := t.record(value, ok)
	t.e.publish()
	return ev
}

// record records the event of t's executed operation.
func (t *Thread) record(value uint64, ok bool) *trace.Event {
	e := t.e
	n := len(e.tr.Events)
	if n == cap(e.tr.Events) {
		// Double: append grows large slices by a quarter, and an event is
		// large; copying them was much of a long execution.
		e.tr.Events = slices.Grow(e.tr.Events, max(64, n))
	}
	e.tr.Events = e.tr.Events[:n+1]
	// The event is written in place, field by field (see begin).
	ev := &e.tr.Events[n]
	*ev = trace.Event{}
	ev.Thread, ev.Alt = t.id, t.alt
	setOp(&ev.Op, &t.op)
	ev.Case, ev.Partner, ev.PartnerCase = -1, trace.NoThread, -1
	ev.Value, ev.OK, ev.PC = value, ok, t.caller
	if t.callDepth > 0 && e.captureCallers {
		t.noteCall(n)
	}
	t.op, t.obj, t.obj2 = trace.Op{}, nil, nil
	if n%progressEvery == progressEvery-1 {
		// A thread that runs many steps without handing control on (a
		// loop no other thread preempts) progresses too: the watchdog
		// must not take it for one blocked outside weft's control.
		e.progressed()
	}
	return ev
}

// progressEvery is the number of steps after which a thread that has not
// handed control on tells the watchdog that the execution progresses. Each
// step is weft's work too (the strategy's choice, which optimal makes
// among a thousand threads in milliseconds on a loaded machine), so that
// 1024 steps took the watchdog's 10s in a panjf2000/ants test whose pool
// has a thousand workers; an atomic add per 128 steps costs nothing
// measurable.
const progressEvery = 128

// next returns the source (trace.Event.Src) that names the next event
// recorded: a step that synchronises with it refers to it so.
func (e *Exec) next() int32 { return int32(len(e.tr.Events)) + 1 }

// setOp copies *src to *dst field by field. A whole-struct copy of an Op
// goes through overlapping 16-byte moves that stall on store forwarding
// when the source was just written: a few nanoseconds per step.
func setOp(dst, src *trace.Op) {
	dst.Kind, dst.Class, dst.Obj, dst.Arg, dst.Cases = src.Kind, src.Class, src.Obj, src.Arg, src.Cases
}

// exit ends thread t, whose function returned. It reports whether it handed
// control to another thread (otherwise the execution has ended).
func (e *Exec) exit(t *Thread) (next *Thread) {
	t.done = true
	t.op, t.obj = trace.Op{}, nil
	e.markDirty(t)
	e.live--
	if t.id == 0 {
		e.bodyReturned = true
	}
	if r := t.returnTo; r != nil {
		t.returnTo = nil
		e.cur = r
		return r
	}
	if e.live == 0 && (e.clock == nil || e.nextDeadline() < 0) {
		// With time at any step, the clock runs to its last deadline
		// first (clock.go).
		e.finish(trace.End{Status: trace.Complete, Thread: trace.NoThread})
		return nil
	}
	if next := t.pick(); next != nil {
		e.cur = next
		e.progressed()
		return next
	}
	return nil
}

// spawn starts a new thread running f; it runs to its first operation before
// spawn returns.
func (t *Thread) spawn(f func(), name string) *Thread {
	e := t.e
	if e.aborting.Load() {
		panic(unwindSignal{})
	}
	if t.inAwait {
		t.fail(trace.Panic, "weft: the condition of w.Await started a thread: it may only load variables")
	}
	if t.peeking {
		// A spawn after a Yield: the loads before were no loop's turn.
		t.peeking, t.peekPC = false, 0
		t.noteYield()
	}
	shown := t.raceSpawn()
	u := e.newThread(t.id, f)
	u.name = name
	u.raceParent = t
	if e.captureCallers {
		u.spawnPC = callerPC(t.spawnPC)
	}
	u.returnTo = t
	t.handTo(u)
	t.raceRestore(shown)
	return u
}

// RunsThread reports whether goroutine goid runs a thread of e's current
// execution that has not finished, other than weft's own (a timer's, the
// clock's): a goroutine of the program's, as a stack dump shows it.
func (e *Exec) RunsThread(goid int64) bool {
	for _, t := range e.threads {
		if t.goid == goid {
			return !t.done && !t.daemon
		}
	}
	return false
}
