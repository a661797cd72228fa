// This file implements condition variables, with sync.Cond's semantics.
//
// The model. A Cond's Obj holds its waiters in a FIFO queue (Go's notify list
// is FIFO by ticket). With a Mutex as its Locker:
//
//   - Wait is one step (KindWait on the Cond, always enabled): it enqueues the
//     thread and unlocks the mutex; an unlocked mutex is Go's fatal error, an
//     UnlockOfUnlocked failure after the step. The thread's pending operation
//     becomes KindRelock on the Cond (Op.Arg: the mutex's ObjectID), enabled
//     iff it was signalled and the mutex is unlocked; it locks the mutex.
//   - Signal (KindSignal) wakes the first waiter, if any (Event.Value: its
//     ThreadID, OK: whether there was one, 0 if not); Broadcast (KindBroadcast) wakes
//     all of them (Event.Value: how many). Neither needs the lock.
//
// With another Locker, Wait is Go's sequence split the same way: a KindWait
// step that only enqueues, L.Unlock(), a KindRelock step (Op.Arg -1) enabled
// iff signalled, L.Lock(). The fused form with a Mutex has the same
// behaviours: a Signal between Go's enqueue and unlock, or a Lock by another
// thread between the wake-up and the relock, is equivalent to one of the
// orders explored.
//
// Dependence: Wait, Signal and Broadcast on one Cond are dependent (the queue);
// Wait and Relock also access the mutex (Relock's Op.Arg).

package engine

import "github.com/weft-go/weft/trace"

func init() {
	// A signalled waiter reacquires its mutex; with another Locker (no
	// obj2) it only waits for the signal.
	enabledWhen(trace.ClassCond, trace.KindRelock, func(_ *Exec, t *Thread) int32 {
		return b2i(t.wokenBy != 0 && (t.obj2 == nil || !t.obj2.mutexHeld()))
	})
}

// CondWait waits on Cond o whose Locker is mutex m: see the model above.
func (t *Thread) CondWait(o, m *Obj) {
	e := t.e
	e.touch(o, trace.ClassCond)
	e.touch(m, trace.ClassMutex)
	t.begin(trace.Op{Kind: trace.KindWait, Class: trace.ClassCond, Obj: o.id, Arg: int64(m.id)}, o)
	ok := m.mutexHeld()
	o.queue = append(o.queue, waiter{tid: t.id})
	m.hold(trace.NoThread)
	t.end(0, ok)
	if !ok {
		t.fail(trace.UnlockOfUnlocked, "fatal error: sync: unlock of unlocked mutex")
	}
	m.rel = int32(len(e.tr.Events))
	t.obj2 = m
	t.begin(trace.Op{Kind: trace.KindRelock, Class: trace.ClassCond, Obj: o.id, Arg: int64(m.id)}, o)
	m.hold(t.id)
	t.end(0, true).Src = t.wokenBy
	t.wokenBy = 0
}

// CondEnqueue is the first step of a Wait on Cond o with a Locker other
// than a Mutex: it enqueues the thread, which then unlocks the Locker and
// calls CondAwait.
func (t *Thread) CondEnqueue(o *Obj) {
	t.e.touch(o, trace.ClassCond)
	t.begin(trace.Op{Kind: trace.KindWait, Class: trace.ClassCond, Obj: o.id, Arg: -1}, o)
	o.queue = append(o.queue, waiter{tid: t.id})
	t.end(0, true)
}

// CondAwait blocks until the thread, enqueued on Cond o, is signalled.
func (t *Thread) CondAwait(o *Obj) {
	t.e.touch(o, trace.ClassCond)
	t.begin(trace.Op{Kind: trace.KindRelock, Class: trace.ClassCond, Obj: o.id, Arg: -1}, o)
	t.end(0, true).Src = t.wokenBy
	t.wokenBy = 0
}

// CondSignal wakes the first waiter of Cond o, if any.
func (t *Thread) CondSignal(o *Obj) {
	e := t.e
	e.touch(o, trace.ClassCond)
	t.begin(trace.Op{Kind: trace.KindSignal, Class: trace.ClassCond, Obj: o.id}, o)
	if len(o.queue) == 0 {
		t.end(0, false)
		return
	}
	w := o.queue[0].tid
	o.queue = o.queue[:copy(o.queue, o.queue[1:])]
	e.threads[w].wokenBy = e.next()
	t.end(uint64(w), true)
}

// CondBroadcast wakes every waiter of Cond o.
func (t *Thread) CondBroadcast(o *Obj) {
	e := t.e
	e.touch(o, trace.ClassCond)
	t.begin(trace.Op{Kind: trace.KindBroadcast, Class: trace.ClassCond, Obj: o.id}, o)
	n := len(o.queue)
	by := e.next()
	for _, w := range o.queue {
		e.threads[w.tid].wokenBy = by
	}
	o.queue = o.queue[:0]
	t.end(uint64(n), n > 0)
}
