// This file implements monitors with condition variables, under the
// signal-and-continue (SC) and signal-and-urgent-wait (SU) disciplines of
// Lei and Carver 2006, §2.4.
//
// The model. A monitor's Obj holds whether a thread is inside (locked) and
// which (owner), its discipline (cap: 1 for SU), and one FIFO queue of
// waiters (queue) for all its condition variables, each entry tagged with its
// condition's number (Op.Arg of the operations), so that each condition's
// waiters are in FIFO order; SU's urgent queue is in the same list, tagged
// urgent. Entering, waiting and signalling are steps:
//
//   - Enter (KindMEnter) is enabled iff the monitor is free; it occupies it.
//     A monitor is not reentrant: entering it twice deadlocks.
//   - Wait(c) (KindMWait) enqueues the thread on c and releases the monitor.
//     Its pending operation becomes KindMReenter (Arg c).
//   - Exit (KindMExit) releases the monitor.
//   - SC: Signal(c) (KindMSignal) marks the first waiter on c signalled and
//     the signaller continues inside; SignalAll(c) (KindMSignalAll) marks all
//     of them. A signalled thread's Reenter is enabled iff the monitor is
//     free: it competes with Enters, as the paper's re-entry call does.
//   - SU: Signal(c) with a waiter on c hands the monitor to the first one
//     (owner changes, the monitor stays occupied), and the signaller waits in
//     the urgent queue: its pending operation becomes KindMReenter (Arg
//     urgent). Releasing an SU monitor (Exit or Wait) hands it to the first
//     urgent thread if there is one, before any Enter can take it. An SU
//     Reenter is enabled iff the monitor was handed to the thread; it never
//     competes (the paper does not even model it as an event). SignalAll is
//     not part of SU.
//   - Signal with no waiter on c does nothing, in both disciplines.
//   - Exit, Wait and Signal by a thread that is not inside the monitor are
//     failures of kind Panic, after their step.
//
// FIFO queues of threads blocked in Enter (Lei and Carver 2006, §2.4) are subsumed as for
// semaphores (semaphore.go): a blocked Enter is not a step, and any enabled
// one may go first, a superset of the FIFO orders. The condition and urgent
// queues are FIFO, since their entries are steps.
//
// Dependence: every pair of operations on one monitor is dependent.

package engine

import (
	"fmt"

	"github.com/weft-go/weft/trace"
)

func init() {
	enabledWhen(trace.ClassMonitor, trace.KindMEnter, func(_ *Exec, t *Thread) int32 { return b2i(!t.obj.monitorBusy()) })
	// SU: the monitor was handed to the thread; SC: a signalled thread
	// competes for the free monitor.
	enabledWhen(trace.ClassMonitor, trace.KindMReenter, func(_ *Exec, t *Thread) int32 {
		if o := t.obj; o.su() {
			return b2i(o.insideBy(t.id))
		}
		return b2i(t.wokenBy != 0 && !t.obj.monitorBusy())
	})
}

// monitorBusy reports whether a thread is inside monitor o; insideBy,
// whether thread p is.
func (o *Obj) monitorBusy() bool              { return o.locked }
func (o *Obj) insideBy(p trace.ThreadID) bool { return o.locked && o.owner == p }

// urgent tags SU's urgent queue in a monitor's queue of waiters.
const urgent = -1

// su reports whether monitor o signals and urgently waits.
func (o *Obj) su() bool { return o.cap == 1 }

// monitor registers monitor o on its first use in the execution, with the SU
// discipline if su.
func (t *Thread) monitor(o *Obj, su bool) {
	if o.serial != t.e.serial {
		t.e.touch(o, trace.ClassMonitor)
		if su {
			o.cap = 1
			t.e.tr.Objects[o.id].Cap = 1
		}
	}
}

// inside fails the running operation (begun and not ended) if t is not inside
// monitor o.
func (t *Thread) inside(o *Obj, what string) {
	if o.insideBy(t.id) {
		return
	}
	t.end(0, false)
	t.fail(trace.Panic, fmt.Sprintf("weft: monitor %s by %s, which is not inside the monitor", what, t.label()))
}

// MEnter enters monitor o (SU if su), blocking while another thread is inside.
func (t *Thread) MEnter(o *Obj, su bool) {
	t.monitor(o, su)
	t.begin(trace.Op{Kind: trace.KindMEnter, Class: trace.ClassMonitor, Obj: o.id}, o)
	o.locked, o.owner = true, t.id
	t.end(0, true).Src = o.rel
}

// MExit leaves monitor o.
func (t *Thread) MExit(o *Obj, su bool) {
	t.monitor(o, su)
	t.begin(trace.Op{Kind: trace.KindMExit, Class: trace.ClassMonitor, Obj: o.id}, o)
	t.inside(o, "Exit")
	t.e.release(o)
	// Event.Value: the urgent thread the monitor went to (OK), if any.
	if o.locked {
		t.end(uint64(o.owner), true)
		return
	}
	t.end(0, false)
}

// release frees monitor o, or hands an SU monitor to its first urgent
// waiter, by the step about to be recorded.
func (e *Exec) release(o *Obj) {
	for i, w := range o.queue {
		if w.cond == urgent {
			o.queue = append(o.queue[:i], o.queue[i+1:]...)
			o.owner, o.hand = w.tid, e.next()
			return
		}
	}
	o.locked, o.owner, o.rel = false, trace.NoThread, e.next()
}

// MWait waits on condition c of monitor o until signalled, and is back inside
// when it returns.
func (t *Thread) MWait(o *Obj, su bool, c int) {
	t.monitor(o, su)
	t.begin(trace.Op{Kind: trace.KindMWait, Class: trace.ClassMonitor, Obj: o.id, Arg: int64(c)}, o)
	t.inside(o, "Wait")
	o.queue = append(o.queue, waiter{tid: t.id, cond: int64(c)})
	t.e.release(o)
	t.end(0, true)
	t.reenter(o, int64(c))
}

// reenter is the step that brings a signalled thread back inside monitor o.
func (t *Thread) reenter(o *Obj, c int64) {
	t.begin(trace.Op{Kind: trace.KindMReenter, Class: trace.ClassMonitor, Obj: o.id, Arg: c}, o)
	src := t.wokenBy
	if o.su() {
		src = o.hand
	}
	t.wokenBy = 0
	o.locked, o.owner = true, t.id
	t.end(0, true).Src = src
}

// MSignal signals condition c of monitor o: see the model above.
func (t *Thread) MSignal(o *Obj, su bool, c int) {
	e := t.e
	t.monitor(o, su)
	t.begin(trace.Op{Kind: trace.KindMSignal, Class: trace.ClassMonitor, Obj: o.id, Arg: int64(c)}, o)
	t.inside(o, "Signal")
	i := o.waiter(int64(c))
	if i < 0 {
		t.end(0, false)
		return
	}
	w := o.queue[i].tid
	o.queue = append(o.queue[:i], o.queue[i+1:]...)
	if !o.su() {
		e.threads[w].wokenBy = e.next()
		t.end(uint64(w), true)
		return
	}
	o.owner, o.hand = w, e.next()
	o.queue = append(o.queue, waiter{tid: t.id, cond: urgent})
	t.end(uint64(w), true)
	t.reenter(o, urgent)
}

// MSignalAll signals every waiter on condition c of SC monitor o.
func (t *Thread) MSignalAll(o *Obj, su bool, c int) {
	e := t.e
	t.monitor(o, su)
	t.begin(trace.Op{Kind: trace.KindMSignalAll, Class: trace.ClassMonitor, Obj: o.id, Arg: int64(c)}, o)
	t.inside(o, "SignalAll")
	if o.su() {
		t.end(0, false)
		t.fail(trace.Panic, "weft: SignalAll on an SU monitor: signal-and-urgent-wait hands the monitor to one waiter at a time")
	}
	n := 0
	by := e.next()
	for _, w := range o.queue {
		if w.cond == int64(c) {
			e.threads[w.tid].wokenBy = by
			n++
		}
	}
	o.queue = deleteCond(o.queue, int64(c))
	t.end(uint64(n), n > 0)
}

// deleteCond removes the waiters on condition c from q, keeping the order.
func deleteCond(q []waiter, c int64) []waiter {
	k := 0
	for _, w := range q {
		if w.cond != c {
			q[k] = w
			k++
		}
	}
	return q[:k]
}

// waiter returns the index of the first waiter on condition c, or -1.
func (o *Obj) waiter(c int64) int {
	for i, w := range o.queue {
		if w.cond == c {
			return i
		}
	}
	return -1
}

// MWaiters returns the number of threads waiting on condition c of monitor
// o; the caller must be inside it, where no other thread changes the queue.
func (t *Thread) MWaiters(o *Obj, su bool, c int) int {
	t.monitor(o, su)
	if !o.insideBy(t.id) {
		t.fail(trace.Panic, fmt.Sprintf("weft: monitor condition Len by %s, which is not inside the monitor", t.label()))
	}
	n := 0
	for _, w := range o.queue {
		if w.cond == int64(c) {
			n++
		}
	}
	return n
}
