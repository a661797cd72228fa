// This file implements the reader/writer mutex, with Go's semantics: a writer
// that waits for readers blocks new readers.
//
// The model. An RWMutex's Obj holds the number of active readers (n), whether
// a writer holds it (locked, owner) and how many writers announced themselves
// (writers, 0 or 1). sync.RWMutex's Lock first takes the writer slot (its
// internal mutex w), then announces itself (readerCount goes negative, so new
// RLocks block) and waits for the active readers to leave. Here:
//
//   - Lock is one step when no reader is active: enabled iff no writer holds
//     or announced (!locked && writers == 0); it takes the lock.
//   - When readers are active, that first step is the announce: it takes the
//     writer slot (writers = 1) and records a Lock event with OK false; the
//     thread's pending operation becomes a second Lock with Arg rwAnnounced,
//     enabled iff n == 0, which takes the lock (writers = 0, locked).
//   - RLock is enabled iff !locked && writers == 0; it adds a reader.
//   - RUnlock with no active reader and Unlock with no writer holding are
//     Go's fatal errors ("sync: RUnlock of unlocked RWMutex", "sync: Unlock
//     of unlocked RWMutex"): UnlockOfUnlocked failures, after their step.
//     An Unlock while a writer has only announced itself is reported too
//     (Go's check misses that case and corrupts the mutex).
//   - TryLock succeeds iff !locked && writers == 0 && n == 0; TryRLock iff
//     !locked && writers == 0 (recorded as KindTryLock with Arg tryRead).
//
// So T1 RLock; T2 Lock (announces, waits); T1 RLock again is a deadlock, as
// in Go. In Go, readers blocked by a writer get the lock when it unlocks,
// before the next writer; here the blocked RLock and the next writer's Lock
// are both enabled and both orders are explored. The extra order is the one Go
// shows when the reader's call arrives after the second writer's: arrival
// times are not steps, so this is a superset that contains Go's behaviours.
//
// Readers. Go's RWMutex does not tie a read lock to a goroutine: one may
// RLock and another RUnlock. The runtime counts, per thread, the read locks
// it took and has not released (held in the Obj's queue, which an RWMutex
// does not otherwise use), and whether an RUnlock by a thread that held none
// has succeeded in the execution (the Obj's done flag: a reader count was
// taken from other readers). An RUnlock is balanced
// (trace.RUnlockBalanced in its Op.Arg) when its thread holds a read lock
// and no such RUnlock came before: it cannot fail, whatever other readers
// do. The flag is stated when the RUnlock is announced and again when it
// runs; the first unbalanced RUnlock that succeeds clears it in the pending
// RUnlocks of the other threads.
//
// Dependence (trace/dependency.go, rwMode): RLocks, successful TryRLocks and
// balanced RUnlocks commute with each other; failed try-operations only
// read; every other pair of operations on one RWMutex is dependent.

package engine

import "github.com/weft-go/weft/trace"

func init() {
	enabledWhen(trace.ClassRWMutex, trace.KindLock, func(_ *Exec, t *Thread) int32 {
		if t.op.Arg == rwAnnounced {
			// A writer that announced itself waits for the readers to
			// leave.
			return b2i(t.obj.rwReaders() == 0)
		}
		// A writer first needs the writer slot: no writer holds or
		// announced.
		return b2i(!t.obj.rwWriter())
	})
	// A writer that holds the lock or announced itself blocks new readers
	// (Go's RWMutex).
	enabledWhen(trace.ClassRWMutex, trace.KindRLock, func(_ *Exec, t *Thread) int32 { return b2i(!t.obj.rwWriter()) })
}

// rwReaders returns the number of read locks RWMutex o has.
func (o *Obj) rwReaders() int64 { return o.n }

// rwWriter reports whether a writer holds RWMutex o or announced itself.
func (o *Obj) rwWriter() bool { return o.locked || o.writers > 0 }

// Op.Arg values of RWMutex operations.
const (
	rwAnnounced = 1                 // KindLock: the writer's second step, after its announce
	tryRead     = trace.TryRLockArg // KindTryLock: TryRLock
)

// RWLock locks RWMutex o for writing; see the model above.
func (t *Thread) RWLock(o *Obj) {
	t.e.touch(o, trace.ClassRWMutex)
	t.begin(trace.Op{Kind: trace.KindLock, Class: trace.ClassRWMutex, Obj: o.id}, o)
	if o.rwReaders() == 0 {
		o.hold(t.id)
		t.end(0, true).Src = max(o.rel, o.rrel)
		return
	}
	o.writers++
	t.end(uint64(o.n), false).Src = o.rel
	t.begin(trace.Op{Kind: trace.KindLock, Class: trace.ClassRWMutex, Obj: o.id, Arg: rwAnnounced}, o)
	o.writers--
	o.hold(t.id)
	t.end(0, true).Src = o.rrel
}

// RWUnlock unlocks RWMutex o for writing.
func (t *Thread) RWUnlock(o *Obj) {
	t.e.touch(o, trace.ClassRWMutex)
	t.begin(trace.Op{Kind: trace.KindUnlock, Class: trace.ClassRWMutex, Obj: o.id}, o)
	ok := o.mutexHeld()
	o.hold(trace.NoThread)
	t.end(0, ok)
	if ok {
		o.rel = int32(len(t.e.tr.Events))
	}
	if !ok {
		t.fail(trace.UnlockOfUnlocked, "fatal error: sync: Unlock of unlocked RWMutex")
	}
}

// RLock locks RWMutex o for reading.
func (t *Thread) RLock(o *Obj) {
	t.e.touch(o, trace.ClassRWMutex)
	t.begin(trace.Op{Kind: trace.KindRLock, Class: trace.ClassRWMutex, Obj: o.id}, o)
	o.n++
	o.addRead(t.id, 1)
	t.end(uint64(o.n), true).Src = o.rel
}

// RUnlock undoes one RLock of RWMutex o.
func (t *Thread) RUnlock(o *Obj) {
	t.e.touch(o, trace.ClassRWMutex)
	t.begin(trace.Op{Kind: trace.KindRUnlock, Class: trace.ClassRWMutex, Obj: o.id, Arg: o.balanced(t.id)}, o)
	t.op.Arg = o.balanced(t.id)
	ok := o.n > 0
	if ok {
		o.n--
		if o.addRead(t.id, -1) == 0 && !o.done {
			t.e.unbalance(o)
		}
	}
	t.end(uint64(o.n), ok)
	if ok {
		o.rrel = int32(len(t.e.tr.Events))
	}
	if !ok {
		t.fail(trace.UnlockOfUnlocked, "fatal error: sync: RUnlock of unlocked RWMutex")
	}
}

// balanced returns the Op.Arg of an RUnlock of RWMutex o by thread p in the
// current state: trace.RUnlockBalanced if p holds a read lock and no
// unbalanced RUnlock of o has succeeded, else 0.
func (o *Obj) balanced(p trace.ThreadID) int64 {
	if !o.done && o.reads(p) > 0 {
		return trace.RUnlockBalanced
	}
	return 0
}

// reads returns the number of read locks of RWMutex o that thread p took and
// has not released.
func (o *Obj) reads(p trace.ThreadID) int64 {
	for _, w := range o.queue {
		if w.tid == p {
			return w.cond
		}
	}
	return 0
}

// addRead adds d to the read locks of RWMutex o held by thread p and returns
// what it held before. An RUnlock by a thread that held none leaves its
// count at 0.
func (o *Obj) addRead(p trace.ThreadID, d int64) int64 {
	for i := range o.queue {
		if w := &o.queue[i]; w.tid == p {
			before := w.cond
			w.cond = max(before+d, 0)
			return before
		}
	}
	if d > 0 {
		o.queue = append(o.queue, waiter{tid: p, cond: d})
	}
	return 0
}

// unbalance records that an RUnlock of RWMutex o by a thread that held no
// read lock succeeded: from now on no RUnlock of o is balanced, and the
// pending ones of other threads say so.
//
//go:noinline
func (e *Exec) unbalance(o *Obj) {
	o.done = true
	e.viewFull = true // other threads' pending operations change
	for _, u := range e.threads {
		if u.obj == o && u.op.Kind == trace.KindRUnlock {
			u.op.Arg = 0
		}
	}
}

// RWTryLock locks RWMutex o for writing if no thread holds it in any mode
// and no writer waits, and reports whether it did.
func (t *Thread) RWTryLock(o *Obj) bool {
	t.e.touch(o, trace.ClassRWMutex)
	t.begin(trace.Op{Kind: trace.KindTryLock, Class: trace.ClassRWMutex, Obj: o.id}, o)
	ok := !o.rwWriter() && o.rwReaders() == 0
	if ok {
		o.hold(t.id)
	}
	if ev := t.end(0, ok); ok {
		ev.Src = max(o.rel, o.rrel)
	}
	return ok
}

// TryRLock locks RWMutex o for reading if no writer holds it or waits, and
// reports whether it did.
func (t *Thread) TryRLock(o *Obj) bool {
	t.e.touch(o, trace.ClassRWMutex)
	t.begin(trace.Op{Kind: trace.KindTryLock, Class: trace.ClassRWMutex, Obj: o.id, Arg: tryRead}, o)
	ok := !o.rwWriter()
	if ok {
		o.n++
		o.addRead(t.id, 1)
	}
	if ev := t.end(uint64(o.n), ok); ok {
		ev.Src = o.rel
	}
	return ok
}
