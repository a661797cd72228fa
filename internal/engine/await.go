// This file implements awaits (trace.KindAwait) and assumptions. An await
// is w.Await, whose condition is evaluated by loads that are steps of their
// own, or a busy-wait loop that calls w.Yield. A thread whose condition was
// false, or whose loop went round with nothing but loads, would read the
// same values again and again until another thread writes one of the
// variables it read: it is blocked until then, and its loop contributes
// one trace, not one per turn (GenMC's await, Nidhugg's spin-assume). An
// assumption that does not hold ends the execution, as no failure.

package engine

import (
	"fmt"
	"strings"

	"github.com/weft-go/weft/trace"
)

// awaitRead is a variable an await waits on, and the write the thread's
// last load of it read (the variable's rel then: trace.Event.Src).
type awaitRead struct {
	o   *Obj
	rel int32
}

// Await blocks t until cond returns true. cond may only load variables:
// each load is a step. When it returns false, t blocks until another
// thread writes one of the variables it loaded, then evaluates cond again.
func (t *Thread) Await(cond func() bool) {
	if t.inAwait {
		t.fail(trace.Panic, "weft: w.Await in the condition of w.Await")
	}
	for {
		from := len(t.e.tr.Events)
		if t.evaluate(cond) {
			// Its loads are no turn of a loop that yields after it.
			t.turnFrom = int32(len(t.e.tr.Events))
			return
		}
		t.awaitReads(from)
		t.block(0)
	}
}

// evaluate runs an Await's condition.
func (t *Thread) evaluate(cond func() bool) bool {
	t.inAwait = true
	defer func() { t.inAwait = false }()
	return cond()
}

// awaitReads sets t.await to the variables t loaded in its steps from step
// from on, the evaluation of an Await's condition (begin and spawn made
// sure it did nothing else).
func (t *Thread) awaitReads(from int) {
	e := t.e
	t.await = t.await[:0]
	for i := from; i < len(e.tr.Events); i++ {
		if ev := &e.tr.Events[i]; ev.Thread == t.id {
			t.noteRead(ev)
		}
	}
}

// misusedAwait fails t, which announced op in the condition of an Await:
// only loads of variables may be there.
//
//go:noinline
func (t *Thread) misusedAwait(op trace.Op) {
	t.fail(trace.Panic, fmt.Sprintf("weft: the condition of w.Await did %s: it may only load variables", t.e.describe(op)))
}

// noteRead records load ev of t in t.await, replacing an earlier load of
// the same variable.
func (t *Thread) noteRead(ev *trace.Event) {
	o := t.e.objs[ev.Op.Obj]
	for i := range t.await {
		if t.await[i].o == o {
			t.await[i].rel = ev.Src
			return
		}
	}
	t.await = append(t.await, awaitRead{o, ev.Src})
}

// Yield ends a turn of a busy-wait loop. The turn is taken to be the loads
// (and failed compare-and-swaps, which only read) t made since its last
// step of another kind, its previous Yield or the
// return of its last Await, whichever came last: if there are some, t
// blocks until another thread writes one of their variables, as an Await
// whose condition made them. If t made no step at all since its previous
// Yield, the loop does nothing, and t blocks for good. Otherwise (its last
// step was not a load: the turn did more than read) Yield does nothing. A
// turn that read the clock only yields: the loop waits for time, which
// its reads move (poll.go).
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
	for ; last >= start; last-- {
		if ev := &e.tr.Events[last]; ev.Thread == t.id || ev.Partner == t.id {
			break
		}
	}
	t.await = t.await[:0]
	if prev >= 0 && last < prev {
		t.block(trace.AwaitYield) // nothing at all since the previous Yield
		return
	}
	lo := max(start, prev, int(t.turnFrom))
	for i := last; i >= lo; i-- {
		ev := &e.tr.Events[i]
		if ev.Thread != t.id && ev.Partner != t.id {
			continue
		}
		if ev.Thread != t.id || !ev.ReadOnly() {
			break
		}
		if o := e.objs[ev.Op.Obj]; !t.reading(o) {
			t.await = append(t.await, awaitRead{o, ev.Src})
		}
	}
	if len(t.await) > 0 {
		t.block(trace.AwaitYield)
		return
	}
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

// block makes t's pending operation an await on the variables of t.await
// (arg: trace.AwaitYield for a loop that yields) and returns once it has
// run, which another thread's write of one of them enables.
func (t *Thread) block(arg int64) {
	e := t.e
	lo := len(e.cases)
	for _, r := range t.await {
		e.cases = append(e.cases, trace.Case{Kind: trace.KindLoad, Obj: r.o.id})
	}
	op := trace.Op{Kind: trace.KindAwait, Class: trace.ClassThread, Obj: trace.NoObject, Arg: arg, Cases: e.cases[lo:len(e.cases):len(e.cases)]}
	t.begin(op, nil)
	t.await = t.await[:0]
	t.end(0, true)
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
