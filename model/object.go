// This file defines an object's abstract state and dispatches an event to
// the primitive's own apply (table.go).

package model

import "github.com/weft-go/weft/trace"

// Object is the abstract state of one shared object. The fields used depend
// on its class (the table in the package doc).
type Object struct {
	Class trace.Class
	// Cap is trace.ObjectInfo.Cap: a channel's capacity, a monitor's
	// discipline (1: SU), a semaphore's initial value.
	Cap int64
	// Locked: a Mutex or an RWMutex's writer is held, a monitor is
	// occupied, a Once's function runs, a timer is armed.
	Locked bool
	// Closed: a channel is closed.
	Closed bool
	// Done: a Once's function has run; an RWMutex has seen an RUnlock by
	// a thread that held no read lock (no RUnlock of it is balanced any
	// more).
	Done bool
	// Ticker: a timer is a ticker's (trace.ObjectInfo.Ticker), whose
	// deadline no longer moves time once the test body has returned.
	Ticker bool
	// Owner is the thread inside a monitor, or running a Once's function.
	Owner trace.ThreadID
	// N is the number of readers of an RWMutex, a WaitGroup's counter, a
	// semaphore's value, the length of a channel's buffer.
	N int64
	// Writers is the number of writers of an RWMutex that announced
	// themselves and wait for the readers to leave (0 or 1).
	Writers int32
	// Value is a variable's value (its encoding, trace.Event.Value).
	Value uint64
	// Summed reports that the variable's last write applied was an add
	// that commutes with others (trace.AddOnly): applied out of the
	// execution's order, Value need not be the variable's value.
	Summed bool
	// When is a timer's deadline.
	When int64
	// Init is the number of a semaphore's initial units not yet taken.
	Init int64
	// Rel is the index of the event others synchronise with: a variable's
	// last write, a mutex's, RWMutex writer's or monitor's last release, the
	// Add that last brought a WaitGroup to zero, the end of a Once's
	// function, a channel's close (NoEvent if none). RRel is an RWMutex's
	// last RUnlock; Hand the event that handed an SU monitor to its owner.
	Rel, RRel, Hand int32
	// Queue lists waiting threads in FIFO order: a Cond's and a monitor's
	// waiters (and SU's urgent ones), an RWMutex's readers with their
	// counts of read locks; a variable's readers with the last write each
	// read (By), for awaits.
	Queue []Waiter
	// Buf lists the values in a buffered channel, oldest first, and a
	// semaphore's units made by V's, in the order they are taken.
	Buf []Msg
}

// Waiter is an entry of an object's queue: a thread waiting on condition
// Cond (a monitor's condition number, Urgent for SU's urgent queue; 0 for
// a Cond), and the event that woke it (NoEvent while it waits). For an
// RWMutex, Cond is the number of read locks the thread holds.
type Waiter struct {
	Thread trace.ThreadID
	Cond   int64
	By     int32
}

// Msg is a value in a channel's buffer (or a semaphore's unit) and the
// event that put it there.
type Msg struct {
	Event int32
	Value uint64
}

// Reset sets o to the initial state of an object described by info,
// keeping its memory.
func (o *Object) Reset(info *trace.ObjectInfo) {
	q, b := o.Queue[:0], o.Buf[:0]
	*o = Object{Class: info.Class, Cap: info.Cap, Owner: trace.NoThread,
		Rel: NoEvent, RRel: NoEvent, Hand: NoEvent, Queue: q, Buf: b}
	if p := primitiveOf(info.Class); p != nil && p.reset != nil {
		p.reset(o, info)
	}
}

// copyFrom makes o a copy of p, reusing the memory of o.
func (o *Object) copyFrom(p *Object) {
	q, b := append(o.Queue[:0], p.Queue...), append(o.Buf[:0], p.Buf...)
	*o = *p
	o.Queue, o.Buf = q, b
}

// Apply applies to o, object id, what executed event e, of index i, did to
// it (e touches o: see Touched). As State.Apply, it takes e's recorded
// outcome as given.
func (o *Object) Apply(id trace.ObjectID, e *trace.Event, i int32) {
	if m := opOf(&e.Op); m.applyArg != nil && trace.ObjectID(e.Op.Arg) == id {
		m.applyArg(o, e, i) // a second object the operation changes
		return
	}
	if p := primitiveOf(o.Class); p != nil && p.apply != nil {
		p.apply(o, e, i)
	}
}

// waiting returns the index in o's queue of the first thread waiting (not
// woken) on condition c, or -1.
func (o *Object) waiting(c int64) int {
	for i := range o.Queue {
		if w := &o.Queue[i]; w.Cond == c && w.By < 0 {
			return i
		}
	}
	return -1
}

// entry returns the index in o's queue of thread p's entry, or -1.
func (o *Object) entry(p trace.ThreadID) int {
	for i := range o.Queue {
		if o.Queue[i].Thread == p {
			return i
		}
	}
	return -1
}

// remove removes entry i of o's queue, keeping the order.
func (o *Object) remove(i int) {
	o.Queue = append(o.Queue[:i], o.Queue[i+1:]...)
}
