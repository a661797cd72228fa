// This file implements awaits (trace.KindAwait) and assumptions. An await
// is w.Await, one event: the evaluation of its condition that holds, made
// silently (its loads are no steps) whenever the variables it loaded
// change, the thread blocked while it is false; or a busy-wait loop that
// calls w.Yield, whose turns' loads are steps: a turn that only loaded,
// which the thread starts again, is a failed check, and its thread is
// blocked for good (Nidhugg's spin-assume, with GenMC's blocked threads). An assumption that does not
// hold ends the execution, as no failure.

package engine

import (
	"fmt"
	"slices"
	"strings"

	"github.com/weft-go/weft/trace"
)

func init() {
	enabledWhen(trace.ClassThread, trace.KindAwait, (*Exec).awaitAlts)
}

// awaitAlts is the number of alternatives of t's pending await: 1 if
// w.Await's condition holds now, or, for a loop that yields, if another
// thread wrote a variable it waits on since the thread's last load of it.
func (e *Exec) awaitAlts(t *Thread) int32 {
	if t.cond != nil {
		return e.condAlts(t)
	}
	return 0 // a loop that yields is blocked for good (Yield)
}

// woken reports whether t, blocked in a loop that yields, waits on a
// variable that another thread wrote since t's turn read it: in the
// program, t would take another turn.
func (t *Thread) woken() bool {
	for _, r := range t.await {
		if r.o.rel != r.rel {
			return true
		}
	}
	return false
}

// awaitRead is a variable an await waits on, and the write the thread's
// last load of it read (the variable's rel then: trace.Event.Src).
type awaitRead struct {
	o   *Obj
	rel int32
	val uint64 // the value a silent load read (Await)
}

// Await blocks t until cond returns true, as one event: the evaluation
// that returns true, which reads the variables it loaded (the op's
// KindLoad cases). cond is evaluated silently, its loads no steps: first
// by t itself, then whenever the strategy's view of t is recomputed
// (another thread wrote a variable the last evaluation loaded, view.go),
// on whichever goroutine runs the scheduler. While it returns false, t's
// pending await is blocked and leaves no event; once t is chosen it
// evaluates cond once more, in the state it was chosen in, and records the
// event.
func (t *Thread) Await(cond func() bool) {
	if t.inAwait {
		t.fail(trace.Panic, "weft: w.Await in the condition of w.Await")
	}
	e := t.e
	if e.aborting.Load() {
		panic(unwindSignal{})
	}
	// The first evaluation is t's own: a misuse or a panic of cond is
	// reported on t's goroutine.
	t.evaluate(cond)
	t.cond = cond
	t.waits = t.waits[:0]
	for _, r := range t.await {
		t.waits = append(t.waits, r.o)
	}
	t.begin(trace.Op{Kind: trace.KindAwait, Class: trace.ClassThread, Obj: trace.NoObject, Cases: t.awaitCases()}, nil)
	t.cond = nil
	if !t.evaluate(cond) {
		t.fail(trace.Internal, "weft internal error: the condition of w.Await was false when its thread ran")
	}
	// The event reads every variable an evaluation since the announce
	// loaded: in each state the thread waited in, its pending await read
	// those its evaluation there loaded, and a strategy that reverses a
	// race with a write of one of them finds the await enabled earlier.
	for _, r := range t.await {
		if !slices.Contains(t.waits, r.o) {
			t.waits = append(t.waits, r.o)
		}
	}
	lo := len(e.cases)
	for _, o := range t.waits {
		e.cases = append(e.cases, trace.Case{Kind: trace.KindLoad, Obj: o.id})
	}
	t.op.Cases = e.cases[lo:len(e.cases):len(e.cases)]
	t.await = t.await[:0]
	t.end(0, true)
	// The await is no turn of a loop that yields after it.
	t.turnFrom = int32(len(e.tr.Events))
}

// evaluate runs an Await's condition silently: its loads are no steps,
// and t.await lists the variables it loaded. The evaluation is recorded
// in the trace (trace.Trace.Evals) if it returns.
func (t *Thread) evaluate(cond func() bool) bool {
	t.await = t.await[:0]
	t.inAwait = true
	lo := int32(len(t.e.tr.Branches))
	ok := func() bool {
		defer func() { t.inAwait = false }()
		return cond()
	}()
	t.noteEval(ok, lo)
	return ok
}

// noteEval records t's evaluation of an Await's condition, which loaded
// the variables of t.await and branched on inputs from Trace.Branches[blo]
// on, in the trace.
func (t *Thread) noteEval(ok bool, blo int32) {
	e := t.e
	lo := len(e.evalReads)
	for _, r := range t.await {
		e.evalReads = append(e.evalReads, trace.EvalRead{Obj: r.o.id, Value: r.val})
	}
	e.tr.Evals = append(e.tr.Evals, trace.AwaitEval{Thread: t.id, Step: t.stepCount(), At: int32(len(e.tr.Events)), OK: ok,
		Reads: e.evalReads[lo:len(e.evalReads):len(e.evalReads)], BranchLo: blo, BranchHi: int32(len(e.tr.Branches))})
}

// stepCount returns the number of events t took part in (as the thread
// or as a rendezvous partner): its pending operation is its step of that
// number, counted from 0 (model.Thread.Steps).
func (t *Thread) stepCount() int32 {
	evs := t.e.tr.Events
	for ; int(t.countedTo) < len(evs); t.countedTo++ {
		if ev := &evs[t.countedTo]; ev.Thread == t.id || ev.Partner == t.id {
			t.steps++
		}
	}
	return t.steps
}

// loaded notes value, read by a silent load of variable o, in t.await.
func (t *Thread) loaded(o *Obj, value uint64) {
	for i := len(t.await) - 1; i >= 0; i-- {
		if t.await[i].o == o {
			t.await[i].val = value
			return
		}
	}
}

// awaitCases returns t.await as the KindLoad cases of an await, in the
// execution's arena.
func (t *Thread) awaitCases() []trace.Case {
	e := t.e
	lo := len(e.cases)
	for _, r := range t.await {
		e.cases = append(e.cases, trace.Case{Kind: trace.KindLoad, Obj: r.o.id})
	}
	return e.cases[lo:len(e.cases):len(e.cases)]
}

// condAlts returns the alternatives of t's pending w.Await: 1 if its
// condition holds now, evaluated on the calling goroutine as t's. The
// pending operation's cases are the variables the evaluations since its
// announce loaded (t.waits), and t watches each of them. A panic of the condition (which may load
// other variables in other states) makes the await enabled: t evaluates
// it again when it runs, and fails there, on its own goroutine.
func (e *Exec) condAlts(t *Thread) (n int32) {
	cur, running := e.cur, e.running.Load()
	e.cur = t
	g := getg()
	e.threadGs.add(g)
	e.running.Store(g)
	defer func() {
		e.cur = cur
		e.running.Store(running)
		t.inAwait = false
		if r := recover(); r != nil {
			if _, ok := r.(unwindSignal); ok {
				panic(r)
			}
			n = 1
		}
		if e.ended {
			return
		}
		// The pending await reads every variable an evaluation since
		// its announce loaded.
		grown := false
		for _, r := range t.await {
			if !slices.Contains(t.waits, r.o) {
				t.waits = append(t.waits, r.o)
				e.addWatch(t, r.o)
				grown = true
			}
		}
		if grown {
			lo := len(e.cases)
			for _, o := range t.waits {
				e.cases = append(e.cases, trace.Case{Kind: trace.KindLoad, Obj: o.id})
			}
			t.op.Cases = e.cases[lo:len(e.cases):len(e.cases)]
		}
	}()
	if t.evaluate(t.cond) {
		return 1
	}
	return 0
}

// misusedAwait fails t, which announced op in the condition of an Await:
// only loads of variables may be there.
//
//go:noinline
func (t *Thread) misusedAwait(op trace.Op) {
	t.fail(trace.Panic, fmt.Sprintf("weft: the condition of w.Await did %s: it may only load variables", t.e.describe(op)))
}

// noteRead records in t.await a silent load of variable o by the
// condition of an Await.
func (t *Thread) noteRead(o *Obj) {
	if !t.reading(o) {
		t.await = append(t.await, awaitRead{o: o, rel: o.rel})
	}
}

// MaxIdleYields is how many Yields in a row, with no step between, a
// thread may call before it is taken to loop on nothing but yields, and
// blocks for good. Fewer are one pause: runtime.Gosched called in a
// loop of its own, as a back-off that yields 1, 2, 4, ... times between
// two attempts, returns in Go whatever the count.
const MaxIdleYields = 1 << 12

// Yield ends a turn of a busy-wait loop. The turn is taken among the loads
// (and failed compare-and-swaps, which only read) t made since its last
// step of another kind, its previous Yield or the return of its last
// Await, whichever came last. If there are some, t's next operation tells
// whether they were a loop's turn (peek): if it does one of them again
// (the same kind, the same variable), the turn is the loads from that one
// on, a failed check, and t blocks for good on their variables
// (trace.AwaitYield, never enabled); otherwise the Yield only yields. An
// execution that ends with no thread able to move is then
// assumed away if another thread wrote one of them after t read it (t
// would take another turn, which the strategies reach as the reversal of
// the turn's loads with that write, in another execution), and is a
// deadlock or a leak otherwise (t would read the same values forever).
// If t made no step at all since its previous Yield, this Yield continues
// the pause the previous one made (a back-off that yields several times
// in a row) and does nothing, unless it is the MaxIdleYields-th in a row:
// then the loop does nothing but yield, and t blocks for good. Otherwise
// (its last step was not a load: the turn did more than read) Yield does
// nothing. A turn that read the clock only yields: the loop waits for
// time, which its reads move (poll.go).
func (t *Thread) Yield() {
	if t.inAwait {
		t.fail(trace.Panic, "weft: w.Yield in the condition of w.Await")
	}
	e := t.e
	n := len(e.tr.Events)
	prev := int(t.yieldAt)
	t.yieldAt = int32(n)
	if t.yieldPolled() {
		// The loop polls the clock (poll.go): it ends when time has
		// moved, not when a variable it loaded is written.
		t.await = t.await[:0]
		t.noteYield()
		return
	}
	start := int(e.tr.Threads[t.id].Step) + 1 // the thread's first step
	last := n - 1
	if prev >= 0 && n == prev {
		last = -1 // no step at all, of any thread, since the previous Yield
	}
	for ; last >= start; last-- {
		if ev := &e.tr.Events[last]; ev.Thread == t.id || ev.Partner == t.id {
			break
		}
	}
	t.await = t.await[:0]
	if prev >= 0 && last < prev {
		// Nothing at all since the previous Yield, which let t go on:
		// this one is part of the same pause (a back-off that yields
		// several times in a row), unless there are so many that only
		// yields are left in the loop.
		t.idleYields++
		if t.idleYields >= MaxIdleYields {
			t.block()
			return
		}
		t.noteYield()
		return
	}
	t.idleYields = 0
	lo := max(start, prev, int(t.turnFrom))
	first := -1
	for i := last; i >= lo; i-- {
		ev := &e.tr.Events[i]
		if ev.Thread != t.id && ev.Partner != t.id {
			continue
		}
		if ev.Thread != t.id || !ev.ReadOnly() {
			break
		}
		first = i
	}
	if first >= 0 {
		// Whether the loads were a turn of a loop is told by t's next
		// operation (peek).
		t.peeking, t.peekFrom, t.peekTo = true, int32(first), int32(last)
		if e.captureCallers {
			t.peekPC = callerPC(t.spawnPC)
		}
		return
	}
	t.noteYield()
}

// peek decides, at t's first operation op after a Yield that followed
// loads, whether those loads were a turn of a busy-wait loop: if op is a
// load or a compare-and-swap of a variable, as one of them (the kind and
// the object), the loop went round and the turn runs again from there,
// which is a failed check of the variables read from there to the Yield:
// t blocks for good (the loads before, in no turn, are not waited on).
// Otherwise (straight-line code that yields, or a turn that writes
// before its loads) the Yield only yielded.
func (t *Thread) peek(op trace.Op) {
	t.peeking = false
	e := t.e
	if op.Class == trace.ClassVar && (op.Kind == trace.KindLoad || op.Kind == trace.KindCAS) {
		for i := int(t.peekFrom); i <= int(t.peekTo); i++ {
			if ev := &e.tr.Events[i]; ev.Thread != t.id || ev.Op.Kind != op.Kind || ev.Op.Obj != op.Obj {
				continue
			}
			t.await = t.await[:0]
			for j := int(t.peekTo); j >= i; j-- { // the last read of each
				if ev := &e.tr.Events[j]; ev.Thread == t.id {
					if o := e.objs[ev.Op.Obj]; !t.reading(o) {
						t.await = append(t.await, awaitRead{o: o, rel: ev.Src})
					}
				}
			}
			t.block()
		}
	}
	t.peekPC = 0
	t.noteYield()
}

// reading reports whether t.await holds o.
func (t *Thread) reading(o *Obj) bool {
	for _, r := range t.await {
		if r.o == o {
			return true
		}
	}
	return false
}

// block makes t's pending operation the await of a loop that yields on
// the variables of t.await (trace.AwaitYield), which is never enabled: t
// parks until the execution ends and unwinds it.
func (t *Thread) block() {
	e := t.e
	lo := len(e.cases)
	for _, r := range t.await {
		e.cases = append(e.cases, trace.Case{Kind: trace.KindLoad, Obj: r.o.id})
	}
	op := trace.Op{Kind: trace.KindAwait, Class: trace.ClassThread, Obj: trace.NoObject, Arg: trace.AwaitYield, Cases: e.cases[lo:len(e.cases):len(e.cases)]}
	t.wokenAt = -1
	e.fair.spinners = append(e.fair.spinners, t)
	t.begin(op, nil)
	t.fail(trace.Internal, "weft internal error: the await of a busy-wait loop (w.Yield) ran")
}

// Assume ends the execution, as assumed away (trace.Assumed), unless cond
// holds: the program declared the executions where it does not out of
// scope. It does not return if cond is false.
func (t *Thread) Assume(cond bool) {
	if cond {
		return
	}
	t.e.finish(trace.End{Status: trace.Assumed, Thread: t.id, Message: "w.Assume: the assumption does not hold"})
	panic(failSignal{})
}

// describeAwait describes an await for messages: what it waits for.
func (e *Exec) describeAwait(op trace.Op) string {
	what := "w.Await"
	if op.Arg == trace.AwaitYield {
		what = "a busy-wait loop (w.Yield)"
	}
	if len(op.Cases) == 0 {
		return what + ", which reads no variable (it can never move)"
	}
	var names []string
	for _, c := range op.Cases {
		names = append(names, e.tr.ObjectName(c.Obj))
	}
	return what + ", waiting for a write of " + strings.Join(names, ", ")
}
