// This file implements counting and binary semaphores (Lei and Carver 2006, §2.3).
//
// The model. A semaphore's Obj holds its value (n), set from the initial value
// on its first use in each execution.
//
//   - Counting: P (KindP) is enabled iff n > 0 and decrements; V (KindV) is
//     always enabled and increments. The semaphore invariant (initial + V's
//     completed >= P's completed) holds by construction.
//   - Binary (ClassBinarySemaphore, value 0 or 1): P is enabled iff n == 1,
//     V iff n == 0, so completed P's and V's alternate, starting with P
//     (initial value 1) or V (initial value 0).
//
// The paper's semaphores keep FIFO queues of blocked callers. Here a call
// that blocks is not a step (only its completion is), so there is no arrival
// order to keep: when several blocked P's (or binary V's) become enabled,
// each of them may complete first. This explores a superset of the FIFO
// behaviours, which is every FIFO behaviour under some order of arrival, and
// the same completion sequences (Lei and Carver 2006, §3: SYN-sequences record
// completions).
//
// Synchronisation pairs (package model): a P takes the oldest unit, an
// initial one or the one the earliest V not yet taken made, and is paired
// with that V (trace.Event.Src).
//
// Dependence (Lei and Carver 2006, §7, P/V reduction): two V's of a counting semaphore
// commute, and a V commutes with a P when the value is positive (package
// model's dependency test finds them commuting); trace's relation does not
// use it, and orders every pair of operations on one semaphore.

package engine

import "github.com/weft-go/weft/trace"

func init() {
	for _, c := range []trace.Class{trace.ClassSemaphore, trace.ClassBinarySemaphore} {
		enabledWhen(c, trace.KindP, func(_ *Exec, t *Thread) int32 { return b2i(t.obj.semValue() > 0) })
	}
	enabledWhen(trace.ClassBinarySemaphore, trace.KindV, func(_ *Exec, t *Thread) int32 { return b2i(t.obj.semValue() < 1) })
	enabledWhen(trace.ClassSemaphore, trace.KindV, one) // it never blocks
}

// semValue returns semaphore o's value.
func (o *Obj) semValue() int64 { return o.n }

// semaphore registers semaphore o of class c, with initial value init on its
// first use in the execution (recorded in trace.ObjectInfo.Cap).
func (t *Thread) semaphore(o *Obj, c trace.Class, init int) {
	if o.serial != t.e.serial {
		t.e.touch(o, c)
		o.n, o.units = int64(init), int64(init)
		t.e.tr.Objects[o.id].Cap = o.n
	}
}

// P performs P on semaphore o of class c (ClassSemaphore or
// ClassBinarySemaphore) whose initial value is init. It takes the oldest
// unit: an initial one, or the one the earliest V not yet taken made, with
// which it synchronises.
func (t *Thread) P(o *Obj, c trace.Class, init int) {
	t.semaphore(o, c, init)
	t.begin(trace.Op{Kind: trace.KindP, Class: c, Obj: o.id}, o)
	o.n--
	var src int32
	switch {
	case o.units > 0:
		o.units--
	case len(o.queue) > 0:
		src = int32(o.queue[0].cond)
		o.queue = o.queue[:copy(o.queue, o.queue[1:])]
	}
	t.end(uint64(o.semValue()), true).Src = src
}

// V performs V on semaphore o of class c whose initial value is init.
func (t *Thread) V(o *Obj, c trace.Class, init int) {
	t.semaphore(o, c, init)
	t.begin(trace.Op{Kind: trace.KindV, Class: c, Obj: o.id}, o)
	o.n++
	o.queue = append(o.queue, waiter{cond: int64(t.e.next())})
	t.end(uint64(o.semValue()), true)
}
