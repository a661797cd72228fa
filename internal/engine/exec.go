// This file implements one execution: its setup, the choice of the next
// thread, its end and the unwinding of its goroutines.

package engine

import (
	"fmt"
	"slices"
	"sync/atomic"
	"time"

	"github.com/weft-go/weft/strategy"
	"github.com/weft-go/weft/trace"
)

// Config bounds and instruments an execution.
type Config struct {
	// MaxSteps bounds the steps of an execution; hitting it is reported as a
	// possible livelock. Zero means DefaultMaxSteps.
	MaxSteps int
	// Watchdog is how long a thread may run without reaching its next
	// scheduling point. Zero means DefaultWatchdog.
	Watchdog time.Duration
	// CaptureSources records the call site of every operation (slower; used
	// to write reports).
	CaptureSources bool
	// Deadline, if not zero, interrupts an execution that is still running
	// then: it is checked at scheduling points, every deadlineEvery steps,
	// and by the watchdog, every poll; the execution ends as cut with
	// Interrupted true, at its next scheduling point or, if its running
	// thread reaches none within a poll, abandoned to that thread
	// (Abandoned true too).
	Deadline time.Time
	// Stop, if not nil, interrupts an execution that is still running
	// when it is closed, as Deadline does (a canceled context's Done).
	Stop <-chan struct{}
	// Time is when virtual time may move (clock.go): TimeWhenBlocked,
	// the zero value, or TimeAnyStep.
	Time TimeMode
	// Names, if not nil, are naming tables shared with other Execs that
	// explore the same test body at the same time (parallel workers); nil
	// gives the Exec tables of its own.
	Names *Names
	// Seed is the seed of the program's random numbers and of the order
	// of its ranges over maps in each execution (Exec.Seed); with
	// VarySeed, execution n of the Exec draws from a seed mixed from Seed
	// and n instead, recorded in its trace (trace.Trace.Seed).
	Seed     int64
	VarySeed bool
	// Epoch is the instant of the wall clock, in Unix nanoseconds, that
	// virtual time 0 stands for (epoch.go; std/time's Now): NextEpoch at
	// the start of the exploration. Zero means DefaultEpoch.
	Epoch int64
	// IgnoreLeak, if not nil, says which leaked threads do not count, by
	// the function (as runtime.Frame.Function names it) in which each is
	// blocked, the first outside weft's own code: an execution whose body
	// returned while only such threads stay blocked completes instead of
	// failing with a leak, as goleak's IgnoreTopFunction. Setting it
	// records the call site of every operation, as CaptureSources does
	// for the steps' values too.
	IgnoreLeak func(function string) bool
}

// deadlineEvery is how many steps pass between two checks of the deadline:
// reading the clock at every step would cost more than a step.
const deadlineEvery = 256

// Defaults for Config.
const (
	DefaultMaxSteps = 100_000
	DefaultWatchdog = 10 * time.Second
)

// serials numbers executions process-wide, so that an object reused across
// executions of different Execs is still registered afresh. An Exec takes
// serialBlock numbers at a time (nextSerial): the workers of a parallel
// exploration would otherwise write the counter in turn at every
// execution.
var serials atomic.Uint64

// serialBlock is how many serials an Exec takes from serials at a time.
const serialBlock = 1 << 10

// nextSerial returns the serial of e's next execution.
func (e *Exec) nextSerial() uint64 {
	if e.serialNext == e.serialEnd {
		e.serialEnd = serials.Add(serialBlock)
		e.serialNext = e.serialEnd - serialBlock
	}
	e.serialNext++
	return e.serialNext
}

// execIDs numbers naming tables (Names) process-wide: the internal keys an
// Exec gives carry its tables' id (Names.newCanonKey), so an object that
// outlives an exploration keeps a key no other exploration gives.
var execIDs atomic.Uint64

// Exec runs executions, one at a time. An Exec is reused across executions to
// keep its memory.
type Exec struct {
	cfg            Config
	captureSources bool
	// captureCallers records each thread's call site at each operation
	// (captureSources, or Config.IgnoreLeak).
	captureCallers bool
	// values holds, when capturing, the values of the steps whose
	// primitive noted one (NoteValue), by step.
	values []any
	// calls holds, when capturing, the call of a stand-in each step
	// belongs to (calls.go); callSeq numbers the calls.
	calls   []callNote
	callSeq uint32
	// origins maps the objects that stand for what code outside weft's
	// control made to where (outside.go).
	origins map[*Obj]string
	strat   strategy.Strategy
	// symbolic reports that the strategy asked for a symbolic trace
	// (strategy.SymbolicTracer): the execution records Trace.Accesses.
	symbolic bool
	// branchPCs caches the program's call site of a symbolic branch by the
	// return addresses on top of the stack (input.go).
	branchPCs map[[branchFrames]uintptr]uintptr
	serial    uint64
	// serialNext is the last serial given of those taken, up to serialEnd.
	serialNext, serialEnd uint64
	// runs counts the Exec's executions; seed is the current one's
	// (Config.Seed).
	runs uint64
	seed int64

	threads []*Thread
	// pool holds every thread the Exec has made, each with its coroutine
	// (thread.go): execution i's thread n is pool[n].
	pool   []*Thread
	watch  *time.Timer // the watchdog (wait)
	closed bool
	// The dispatcher (dispatch.go): the work it is given, its answer to
	// Close, whether it is doing the driver's work, the state of the
	// execution, how far its unwinding went.
	cmds  chan func()
	acks  chan struct{}
	onD   bool         // the dispatcher is running the driver's work
	state atomic.Int32 // stateIdle, stateRunning or stateAbandoned
	// tag stands for the Exec in the objects that outlive its executions
	// (Obj.user), without keeping the Exec's memory alive.
	tag *execTag
	// running is the goroutine (getg) of the thread that runs now, 0
	// between executions (misuse.go); misuse is the report of the first
	// operation of a goroutine that was not a weft thread, that one of
	// e's threads started (or one of its parallel workers' threads, while
	// e runs), until TakeMisuse takes it.
	running atomic.Uintptr
	// active says the Exec holds a slot of active (misuse.go).
	active atomic.Bool
	// threadGs marks the goroutines that run its threads (misuse.go).
	threadGs goroutineMarks
	// keys holds the keys of threads and created objects the shared
	// tables (names) gave: a key, once given, is the name's for good,
	// and looking it up here takes no lock, which the workers of a
	// parallel exploration would take in turn.
	keys struct {
		threads map[[2]uint32]uint32
		objects map[[2]uint32]keyCanon
	}
	misuse   atomic.Pointer[string]
	unwindAt atomic.Int32 // 1 + the thread being unwound, 0 before
	view     strategy.State
	tr       trace.Trace
	objs     []*Obj       // the objects of the execution, by ObjectID
	cases    []trace.Case // arena of the select and await cases of the execution's events
	// evalReads is the arena of the loads of trace.Trace.Evals.
	evalReads []trace.EvalRead
	cur       *Thread
	live      int
	now       int64 // virtual time, in nanoseconds
	// clock is the clock thread when time moves at any step (clock.go),
	// nil until a step arms a deadline; clockCases is the scratch space of
	// its pending advance's cases, clockPending those cases in cases.
	clock                    *Thread
	clockCases, clockPending []trace.Case
	// fair is the bookkeeping of the fairness rule (fair.go).
	fair fairState
	// The view's bookkeeping (view.go): the threads to recompute, the
	// watchers of each object and of each thread's end, the enabled set
	// as bits, the threads fairness hid, the events and the time the view
	// accounts for, whether every thread must be recomputed, and how many
	// threads are enabled.
	dirty              []*Thread
	watchObj, watchThr [][]watch
	bits               []uint64
	hiddenTh           []*Thread
	// changed lists the threads whose entry in the view may have changed
	// since the strategy's last Choose (strategy.State.Changed).
	changed []trace.ThreadID
	// lastView is the view of the last Choose, for checkChanged.
	lastView []strategy.Thread
	viewSeen int
	viewNow  int64
	viewFull bool
	// viewSmall: no watchers, at most smallView threads; smallDirty and
	// smallVolatile, bit i for thread i, are the threads a small view
	// recomputes (fillSmall): those marked, and those whose pending
	// operation may block.
	viewSmall                 bool
	smallDirty, smallVolatile uint64
	enabledN                  int

	bodyReturned bool
	ended        bool
	interrupted  bool // the deadline ended the execution (Interrupted)
	// due is set by the driver when it sees the deadline passed, or Stop
	// closed, while an execution runs (wait): pickNext then ends the
	// execution at its next step.
	due atomic.Bool
	// aborting is written by the driver too, when it abandons the
	// execution (watchdog.go), and read by threads that come back.
	aborting atomic.Bool
	endState trace.End
	done     chan struct{}
	// progress counts publications (publish, dispatch.go): the watchdog
	// watches it, and its increments order the writes of an execution
	// before the driver's reads of them.
	progress atomic.Int64
	// raceBegin is the address of the driver's clock before the
	// exploration (racesync.go).
	raceBegin byte
	// shim is the state of package shim for e's executions.
	shim any
	// atEnd are the functions to run when the current execution has
	// ended (AtEnd).
	atEnd []func()
	// atClose are the functions to run when e is closed (AtClose).
	atClose []func()
	// atReturn are the functions the test body's thread runs when the
	// body has returned (AtBodyReturn).
	atReturn []func()
	// user is the state package weft's T keeps for e's executions (its
	// errors, logs and cleanups).
	user any
	// spawned counts the goroutines e created for its threads
	// (newCoroutine, letGo), written by the dispatcher and read by the
	// threads (Spawned).
	spawned atomic.Int64
	// decideMark, request and requestPanic: a thread's request that the
	// dispatcher run a function, and the function's panic (onDispatcher,
	// racesync.go).
	decideMark   *Thread
	request      func()
	requestPanic any
	// aside is what a young thread asks the dispatcher to do (young.go):
	// pick the next thread, whose answer is picked, or register
	// asideObj as asideClass.
	aside      uint8
	picked     *Thread
	asideObj   *Obj
	asideClass trace.Class
	// names are the naming tables of threads and objects (names.go),
	// shared with the Execs of parallel workers; adopted is how much of
	// their log of key merges e has applied.
	names   *Names
	adopted int
	// Object keys (object.go): e's view of the keys merged into older
	// ones; keyUse[i] is the serial of the last execution that registered
	// an object with the key of index i among those of e's names (ownKey).
	kmerged map[uint64]uint64
	keyUse  []uint64
	// lastSrc is the source of each thread's last event among the first
	// lastScan of execution lastSerial (lastOf, for Joins).
	lastSrc    []int32
	lastScan   int
	lastSerial uint64
}

// NewExec returns an Exec with the given configuration.
func NewExec(cfg Config) *Exec {
	if cfg.MaxSteps <= 0 {
		cfg.MaxSteps = DefaultMaxSteps
	}
	if cfg.Watchdog <= 0 {
		cfg.Watchdog = DefaultWatchdog
	}
	e := &Exec{cfg: cfg, done: make(chan struct{}, 1), names: cfg.Names, tag: new(execTag)}
	if e.names == nil {
		e.names = NewNames()
	}
	e.names.mu.Lock()
	e.names.execs++
	e.names.mu.Unlock()
	return e
}

// Serial returns the number of the execution, unique in the process: state
// kept outside the execution's objects (the tables of package std/rt) is
// stale when the serial it was made in is not the current one.
func (e *Exec) Serial() uint64 { return e.serial }

// Seed returns the seed of the program's random numbers and map orders in
// the current execution (Config.Seed, Config.VarySeed), and marks it used
// in the execution's trace (trace.Trace.SeedUsed).
func (e *Exec) Seed() int64 {
	e.tr.SeedUsed = true
	return e.seed
}

// ShimState returns the state package shim keeps for e's executions, which
// only their running thread touches.
func (e *Exec) ShimState() *any { return &e.shim }

// Spawned returns how many goroutines e has created for the threads of
// its executions, since NewExec: the rest of those the process created
// while an execution ran are the program's own, or another's.
func (e *Exec) Spawned() int64 { return e.spawned.Load() }

// AtEnd runs f when the current execution has ended, every thread
// finished or unwound, before Run returns: package shim undoes there what
// the execution did to memory that outlives it. It is not run for an
// execution the driver abandoned, whose goroutine blocked outside weft's
// control may still use that memory.
func (e *Exec) AtEnd(f func()) { e.atEnd = append(e.atEnd, f) }

// AtClose runs f when e is closed, after its last execution, unless that
// execution was abandoned: package shim gives memory that outlives the
// executions the state the last one left there.
func (e *Exec) AtClose(f func()) { e.atClose = append(e.atClose, f) }

// AtBodyReturn registers f to run in the test body's thread, in the
// execution under way, once the body has returned normally (not on a
// panic or a failure), before the thread ends: f may take steps. The
// functions run in the order they were registered.
func (e *Exec) AtBodyReturn(f func()) { e.atReturn = append(e.atReturn, f) }

// UserState returns the state package weft's T keeps for e's executions,
// which, like ShimState, tells its execution by Serial.
func (e *Exec) UserState() *any { return &e.user }

// Trace returns the trace of the last execution. It is valid until the next
// Run.
func (e *Exec) Trace() *trace.Trace { return &e.tr }

// Abandoned reports that a goroutine of the last execution blocked outside
// weft's control and could not be unwound: the Exec must not be used again.
func (e *Exec) Abandoned() bool { return e.state.Load() == stateAbandoned }

// Run runs one execution of body under strategy s and returns how it ended.
// The trace stays available through Trace until the next Run. Called from
// work given to Batch, it runs on the dispatcher; if the driver abandoned
// the execution meanwhile (Abandoned), the caller must return at once.
func (e *Exec) Run(s strategy.Strategy, body func(), capture bool) trace.End {
	if !e.onD {
		var end trace.End
		if !e.Batch(func() { end = e.Run(s, body, capture) }) {
			return e.endState
		}
		return end
	}
	if e.state.Load() == stateAbandoned {
		return trace.End{Status: trace.Failed, Kind: trace.Blocked, Thread: trace.NoThread}
	}
	e.strat = s
	e.symbolic = symbolicTrace(s)
	e.captureSources = capture || e.cfg.CaptureSources
	e.captureCallers = e.captureSources || e.cfg.IgnoreLeak != nil
	e.values = e.values[:0]
	clear(e.atEnd)
	e.atEnd = e.atEnd[:0]
	e.calls, e.callSeq = e.calls[:0], 0
	clear(e.origins)
	e.serial = e.nextSerial()
	e.threads = e.threads[:0]
	e.tr.Reset()
	e.runs++
	e.seed = e.cfg.Seed
	if e.cfg.VarySeed {
		e.seed = int64(trace.Mix(uint64(e.cfg.Seed) ^ trace.Mix(e.runs)))
	}
	e.tr.Seed = e.seed
	clear(e.objs)
	e.objs = e.objs[:0]
	e.cases = e.cases[:0]
	e.evalReads = e.evalReads[:0]
	e.view.Trace = &e.tr
	e.view.Alternatives = e
	e.live, e.now, e.clock, e.clockPending = 0, 0, nil, nil
	e.fair.reset()
	e.resetView()
	e.bodyReturned, e.ended, e.interrupted = false, false, false
	clear(e.atReturn)
	e.atReturn = e.atReturn[:0]
	e.aborting.Store(false)
	e.endState = trace.End{}
	main := e.newThread(trace.NoThread, body)
	e.cur = main
	e.unwindAt.Store(0)
	e.progressed()
	e.state.Store(stateRunning)
	e.tag.running.Store(true)
	e.execute(main)
	e.tag.running.Store(false)
	if !e.state.CompareAndSwap(stateRunning, stateIdle) {
		// The driver abandoned the execution: nothing of it is ours.
		return trace.End{Status: trace.Failed, Kind: trace.Blocked, Thread: trace.NoThread}
	}
	e.running.Store(0)
	e.cur = nil
	for _, f := range e.atEnd {
		f()
	}
	e.finalOps()
	e.adoptMerges()
	return e.endState
}

// symbolicTrace reports whether strategy s asks for a symbolic trace
// (strategy.SymbolicTracer), found as strategy.As finds it. Its type
// assertions name their interfaces, so that each has the cache the
// compiler gives such an assertion: As's, through a type parameter, look
// the strategy's type up in the runtime's table at every execution, and
// missed the cache there.
func symbolicTrace(s strategy.Strategy) bool {
	for s != nil {
		if st, ok := s.(strategy.SymbolicTracer); ok {
			return st.SymbolicTrace()
		}
		w, ok := s.(strategy.Wrapper)
		if !ok {
			break
		}
		s = w.Unwrap()
	}
	return false
}

// finalOps records each thread's pending operation at the end.
func (e *Exec) finalOps() {
	e.tr.Final = slices.Grow(e.tr.Final[:0], len(e.threads))
	for _, t := range e.threads {
		e.tr.Final = append(e.tr.Final, t.op)
	}
}

// Capturing reports whether the execution records call sites and values
// for a report (Run's capture).
func (t *Thread) Capturing() bool { return t.e.captureSources }

// NoteValue records v as the value of the thread's last step, for a
// report; call it only when Capturing.
func (t *Thread) NoteValue(v any) {
	e := t.e
	k := len(e.tr.Events) - 1
	if k < 0 {
		return
	}
	for len(e.values) <= k {
		e.values = append(e.values, nil)
	}
	e.values[k] = v
}

// StepValue returns the value noted for step k of the last execution
// (NoteValue), if any.
func (e *Exec) StepValue(k int) (any, bool) {
	if k < 0 || k >= len(e.values) || e.values[k] == nil {
		return nil, false
	}
	return e.values[k], true
}

// PendingSite returns the call site of thread p's pending operation in the
// last execution, as a return address for UserFrame, when the execution
// captured sources (Run's capture); ok is false if p finished, is weft's
// own (a timer's thread) or no site was captured.
func (e *Exec) PendingSite(p trace.ThreadID) (pc uintptr, ok bool) {
	if int(p) >= len(e.threads) {
		return 0, false
	}
	t := e.threads[p]
	if t.done || t.daemon || t.caller == 0 {
		return 0, false
	}
	return t.caller, true
}

// Daemon reports whether thread p of the last execution is weft's own: a
// timer's (timer.go), which reports do not show as a thread of the program.
func (e *Exec) Daemon(p trace.ThreadID) bool {
	return p >= 0 && int(p) < len(e.threads) && e.threads[p].daemon
}

// ThreadName returns the name the program gave thread p of the last
// execution (GoNamed), or "" if it gave none or p did not run.
func (e *Exec) ThreadName(p trace.ThreadID) string {
	if p < 0 || int(p) >= len(e.threads) {
		return ""
	}
	return e.threads[p].name
}

// Live returns the number of threads of the current execution that have
// not finished, the test body's included and weft's own (timers, the
// clock) left out: the goroutines of the program's the execution runs.
func (e *Exec) Live() int { return e.live }

// Interrupted reports whether Config.Deadline or Config.Stop ended the
// last execution (which then ended as cut, or was abandoned to a thread
// that reached no scheduling point: Abandoned): it is no execution of the
// program's.
func (e *Exec) Interrupted() bool { return e.interrupted }

// EndState returns how the last execution ended.
func (e *Exec) EndState() trace.End { return e.endState }

// newThread adds a thread started by parent to run f, from the pool. The
// thread runs when control is handed to it.
func (e *Exec) newThread(parent trace.ThreadID, f func()) *Thread {
	id := trace.ThreadID(len(e.threads))
	var t *Thread
	if int(id) < len(e.pool) && !e.pool[id].dead {
		t = e.pool[id]
		// What the thread keeps across executions, then the rest zeroed
		// in place (a composite literal that reads t is built aside and
		// copied).
		g, goid, resume, stop, yield := t.g, t.goid, t.resume, t.stop, t.yield
		sel, await, waits, ignoring, picks := t.sel[:0], t.await[:0], t.waits[:0], t.raceIgnoring, t.picks
		*t = Thread{}
		t.e, t.id, t.g, t.goid, t.resume, t.stop, t.yield = e, id, g, goid, resume, stop, yield
		t.sel, t.await, t.waits, t.raceIgnoring, t.picks = sel, await, waits, ignoring, picks
	} else {
		t = &Thread{e: e, id: id}
		if int(id) < len(e.pool) {
			e.pool[id] = t
		} else {
			e.pool = append(room(e.pool), t)
		}
		e.newCoroutine(t)
	}
	t.fn = f
	t.yieldAt, t.lastYield = -1, -1
	t.serial = e.serial
	if id < 64 {
		t.seenBit = 1 << uint(id)
	}
	if parent != trace.NoThread {
		p := e.threads[parent]
		t.key = e.threadKey(p.key, p.spawns)
		p.spawns++
	}
	e.threads = append(room(e.threads), t)
	e.markDirty(t)
	e.live++
	e.tr.Threads = append(room(e.tr.Threads), trace.ThreadInfo{Parent: parent, Step: int32(len(e.tr.Events)) - 1, Branch: int32(len(e.tr.Branches))})
	if n := len(e.tr.Events); n > 0 && parent != trace.NoThread {
		e.tr.Events[n-1].Spawned++
	}
	return t
}

// room returns s with room for one more element: it doubles the capacity
// of a full slice, where append would grow a long one by a quarter at a
// time (an execution with many threads or objects copies each list of
// them a few times, not tens of times).
func room[S ~[]E, E any](s S) S {
	if len(s) == cap(s) {
		s = slices.Grow(s, max(len(s), 16))
	}
	return s
}

// threadKey returns the stable name of child number i of the thread named
// parent (the test body is 0), interned across executions.
func (e *Exec) threadKey(parent uint32, i int32) (key uint32) {
	if RaceHide {
		e.hidden(func() { key = e.threadKeyNow(parent, i) })
		return key
	}
	return e.threadKeyNow(parent, i)
}

// threadKeyNow is threadKey, on the calling goroutine.
func (e *Exec) threadKeyNow(parent uint32, i int32) uint32 {
	k := [2]uint32{parent, uint32(i)}
	if RaceHide {
		return e.names.threadKey(k, parent, i) // under the lock (create)
	}
	if v, ok := e.keys.threads[k]; ok {
		return v
	}
	v := e.names.threadKey(k, parent, i)
	if e.keys.threads == nil {
		e.keys.threads = make(map[[2]uint32]uint32)
	}
	e.keys.threads[k] = v
	return v
}

// threadKey returns the key of thread i started by the thread of key
// parent, k being the two, from the shared tables, under their lock.
func (n *Names) threadKey(k [2]uint32, parent uint32, i int32) uint32 {
	n.mu.Lock()
	defer n.mu.Unlock()
	if v, ok := n.tkeys[k]; ok {
		return v
	}
	if n.tkeys == nil {
		n.tkeys = make(map[[2]uint32]uint32)
	}
	// Interned by its canonical hash, which an imported binding
	// (Names.Import) may have interned already.
	v := n.internThread(mix(mix(n.threadHash(parent), hashThread), uint64(i)))
	n.tkeys[k] = v
	return v
}

// pastDeadline reports whether the deadline has passed or Stop is
// closed.
func (e *Exec) pastDeadline() bool {
	if !e.cfg.Deadline.IsZero() && time.Now().After(e.cfg.Deadline) {
		return true
	}
	select {
	case <-e.cfg.Stop:
		return true
	default:
		return false
	}
}

// pickNext asks the strategy for the next thread. It returns nil if the
// execution ended instead (deadlock, leak, step bound, cut).
func (e *Exec) pickNext() *Thread {
	if n := len(e.tr.Events); e.due.Load() || n%deadlineEvery == deadlineEvery-1 && e.pastDeadline() {
		e.interrupted = true
		e.finish(trace.End{Status: trace.Cut, Thread: trace.NoThread})
		return nil
	}
	if len(e.tr.Events) >= e.cfg.MaxSteps {
		e.finish(trace.End{Status: trace.Failed, Kind: trace.Livelock, Thread: trace.NoThread,
			Message: fmt.Sprintf("the execution reached the step bound (%d steps) without ending: a possible livelock; raise the bound with MaxSteps / -max-steps if the program is just long", e.cfg.MaxSteps)})
		return nil
	}
	for {
		enabled := e.fillView()
		if !e.fair.on && e.clock == nil && len(e.dirty) == 0 {
			// fairView's common case, at every step of a small view: no
			// yield yet, no clock thread, no list of recomputed threads.
			e.fair.seen = len(e.tr.Events)
		} else {
			enabled = e.fairView(enabled)
		}
		if enabled != 0 {
			break
		}
		if e.ended {
			return nil // the fairness rule ran a spinner's turn out
		}
		if t := e.wokenSpinner(); t != nil {
			// Go's time moves only when every goroutine is blocked: t is
			// not (Yield).
			e.assumeTurn(t, "no other thread can move")
			return nil
		}
		if e.advanceTime() {
			continue
		}
		if e.live == 0 {
			// Every thread but daemons finished, and the clock reached
			// its last deadline (clock.go).
			e.finish(trace.End{Status: trace.Complete, Thread: trace.NoThread})
			return nil
		}
		e.noneEnabled()
		return nil
	}
	e.view.Changed = e.changed
	if CheckView {
		e.checkChanged()
	}
	c := e.strat.Choose(&e.view)
	e.view.Changed = nil
	if c.Thread == trace.NoThread {
		e.finish(trace.End{Status: trace.Cut, Thread: trace.NoThread})
		return nil
	}
	// Unsigned, a negative thread or alternative is out of range too.
	if uint(c.Thread) >= uint(len(e.threads)) || uint32(c.Alt) >= uint32(e.view.Threads[c.Thread].Alts) {
		e.finish(trace.End{Status: trace.Failed, Kind: trace.Internal, Thread: trace.NoThread,
			Message: fmt.Sprintf("weft internal error: the strategy chose %v alternative %d at step %d, which is not enabled", c.Thread, c.Alt, len(e.tr.Events))})
		return nil
	}
	// The threads whose bits may have changed since the last step are
	// those the view lists as changed.
	e.tr.AddEnabledSet(e.bits[:(len(e.threads)+63)/64], e.changed)
	e.changed = e.changed[:0]
	if CheckView {
		e.checkRecorded()
	}
	u := e.threads[c.Thread]
	u.alt = c.Alt
	e.fair.alts = e.view.Threads[c.Thread].Alts
	return u
}

// noneEnabled ends an execution in which no thread can move and no
// thread blocked in a loop that yields would take another turn (pickNext
// assumes such executions away): a deadlock, or a leak if the test body
// has returned.
func (e *Exec) noneEnabled() {
	msg := ""
	for _, t := range e.threads {
		switch {
		case t.done || t.daemon:
		case t.op.Kind == trace.KindAwait:
			msg += fmt.Sprintf("\n\t%s blocked in %s", t.label(), e.describe(t.op))
		default:
			msg += fmt.Sprintf("\n\t%s blocked on %s", t.label(), e.describe(t.op))
		}
	}
	if e.bodyReturned && e.leaksIgnored() {
		e.finish(trace.End{Status: trace.Complete, Thread: trace.NoThread})
		return
	}
	if e.endBlockedOutside(msg) {
		return
	}
	if e.bodyReturned {
		e.finish(trace.End{Status: trace.Failed, Kind: trace.Leak, Thread: trace.NoThread,
			Message: "the test body returned while other threads stay blocked forever:" + msg})
		return
	}
	e.finish(trace.End{Status: trace.Failed, Kind: trace.Deadlock, Thread: trace.NoThread,
		Message: "no thread can move:" + msg})
}

// describe names an operation for messages, with object names.
func (e *Exec) describe(op trace.Op) string {
	if op.Kind == trace.KindAwait {
		return e.describeAwait(op)
	}
	if op.Kind == trace.KindJoin && op.Arg >= 0 && int(op.Arg) < len(e.threads) {
		return "join " + e.threads[op.Arg].label()
	}
	return op.Text(e.tr.ObjectName)
}

// finish ends the execution; the first end wins. From now on every weft
// operation unwinds its thread. The dispatcher learns of the end when the
// thread that ended the execution parks or returns, and unwinds the others.
func (e *Exec) finish(end trace.End) {
	if e.ended {
		return
	}
	e.ended = true
	e.endState = end
	e.aborting.Store(true)
	e.publish()
}

// fail ends the execution with a failure of thread t and unwinds t.
func (t *Thread) fail(kind trace.FailureKind, msg string) {
	t.e.failNoPark(t, kind, msg)
	panic(failSignal{})
}

// failNoPark records a failure of thread t and ends the execution.
func (e *Exec) failNoPark(t *Thread, kind trace.FailureKind, msg string) {
	e.finish(trace.End{Status: trace.Failed, Kind: kind, Thread: t.id, Message: msg})
}

// Fail ends the execution with a failure of the running thread; it does not
// return.
func (t *Thread) Fail(kind trace.FailureKind, msg string) { t.fail(kind, msg) }

// Close stops the coroutines the Exec keeps between executions, and its
// dispatcher. Of an abandoned Exec, the dispatcher stops them if the thread
// that blocked outside weft's control ever returns.
func (e *Exec) Close() {
	if e.closed {
		return
	}
	e.closed = true
	if !e.Abandoned() {
		for _, f := range e.atClose {
			f()
		}
	}
	if e.cmds == nil {
		return
	}
	close(e.cmds)
	if !e.Abandoned() {
		<-e.acks
	}
}

// leaksIgnored reports whether every thread left blocked is one that
// Config.IgnoreLeak ignores, by the function it is blocked in.
func (e *Exec) leaksIgnored() bool {
	if e.cfg.IgnoreLeak == nil {
		return false
	}
	for _, t := range e.threads {
		if t.done || t.daemon {
			continue
		}
		if t.caller == 0 || !e.cfg.IgnoreLeak(UserFrame(t.caller).Function) {
			return false
		}
	}
	return true
}
