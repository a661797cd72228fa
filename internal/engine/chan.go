// This file implements the untyped part of channels and select: pending
// sends, partners and the resolution of a select's alternative.

package engine

import (
	"slices"

	"github.com/weft-go/weft/trace"
)

func init() {
	// A timer's channel is a channel (timer.go): the runtime gives its
	// receives and sends Class ClassChan, a trace may say ClassTimer.
	for _, c := range []trace.Class{trace.ClassChan, trace.ClassTimer} {
		enabledWhen(c, trace.KindSend, func(_ *Exec, t *Thread) int32 { return sendAlts(t.obj) })
		enabledWhen(c, trace.KindRecv, func(e *Exec, t *Thread) int32 { return e.recvAlts(t.obj, t.id) })
	}
	enabledWhen(trace.ClassChan, trace.KindSelect, (*Exec).selectAlts)
}

// chanLen returns the number of values in channel o's buffer.
func (o *Obj) chanLen() int64 { return o.n }

// selectAlts is the number of alternatives of t's pending select: those of
// its cases, or its default if none is ready.
func (e *Exec) selectAlts(t *Thread) int32 {
	var n int32
	for _, c := range t.sel {
		n += e.caseAlts(c, t.id)
	}
	if n == 0 && t.op.Arg == 1 {
		return 1 // default
	}
	return n
}

// sendAlts is the number of alternatives of a send on channel o (nil for a
// nil channel, which blocks forever). A send on an unbuffered channel is
// completed by a receiver, never by the sender itself.
func sendAlts(o *Obj) int32 {
	switch {
	case o == nil:
		return 0
	case o.closed:
		return 1 // it panics
	case o.cap > 0:
		return b2i(o.chanLen() < o.cap)
	}
	return 0
}

// recvAlts is the number of alternatives of a receive on channel o by thread
// self: one per sender it can meet on an unbuffered channel.
func (e *Exec) recvAlts(o *Obj, self trace.ThreadID) int32 {
	switch {
	case o == nil:
		return 0
	case o.cap > 0:
		return b2i(o.chanLen() > 0 || o.closed)
	case o.closed:
		return 1
	}
	var n int32
	for _, s := range o.out {
		if e.offered(o, s, self) {
			n++
		}
	}
	return n
}

// offered reports whether pending send s on unbuffered channel o can meet a
// receive by thread self: a send of another thread, except a timer's send,
// offered from its deadline on while the timer is armed (timer.go), and a
// send case of a select with default when the receive is a case of one too.
// A select with default never waits, so it meets only a partner that waits:
// two of them never meet (Go: the first to arrive finds no partner and takes
// its default).
func (e *Exec) offered(o *Obj, s sendEntry, self trace.ThreadID) bool {
	if s.tid == self {
		return false
	}
	if s.tid == o.owner && !(o.timerArmed() && e.now >= o.when) {
		return false
	}
	return s.cas < 0 || !e.nonBlocking(self) || !e.nonBlocking(s.tid)
}

// nonBlocking reports whether thread p's pending operation is a select with
// a default case.
func (e *Exec) nonBlocking(p trace.ThreadID) bool {
	op := &e.threads[p].op
	return op.Kind == trace.KindSelect && op.Arg == 1
}

// caseAlts is the number of alternatives of one select case.
func (e *Exec) caseAlts(c selCase, self trace.ThreadID) int32 {
	if c.send {
		return sendAlts(c.obj)
	}
	return e.recvAlts(c.obj, self)
}

// selCase is one case of a pending select: its channel (nil for a nil
// channel) and its direction.
type selCase struct {
	obj  *Obj
	send bool
}

// Chan registers channel o with capacity c and reports whether this was its
// first use in the execution (the typed channel then resets its buffer).
func (t *Thread) Chan(o *Obj, capacity int) (fresh bool) {
	fresh = t.Register(o, trace.ClassChan)
	if fresh {
		o.cap = int64(capacity)
		t.e.tr.Objects[o.id].Cap = o.cap
		if capacity > 0 {
			o.more() // the sources of the values in the buffer (Push)
		}
	}
	return fresh
}

// AddSend records a pending send of thread t on channel o for select case cas
// (-1 for a plain send); it returns the index at which the typed channel must
// insert the value.
func (t *Thread) AddSend(o *Obj, cas int32) int {
	i, _ := slices.BinarySearchFunc(o.out, sendEntry{tid: t.id, cas: cas}, cmpEntry)
	o.out = slices.Insert(o.out, i, sendEntry{tid: t.id, cas: cas})
	return i
}

// RemoveSend removes thread t's pending send for case cas from channel o and
// returns its index, or -1.
func (t *Thread) RemoveSend(o *Obj, cas int32) int {
	i, ok := slices.BinarySearchFunc(o.out, sendEntry{tid: t.id, cas: cas}, cmpEntry)
	if !ok {
		return -1
	}
	o.out = slices.Delete(o.out, i, i+1)
	return i
}

func cmpEntry(a, b sendEntry) int {
	if a.tid != b.tid {
		return int(a.tid - b.tid)
	}
	return int(a.cas - b.cas)
}

// Partner returns the index in o's pending sends of alternative k of a
// receive by t on unbuffered channel o: the k-th sender other than t.
func (t *Thread) Partner(o *Obj, k int32) int {
	for i, s := range o.out {
		if !t.e.offered(o, s, t.id) {
			continue
		}
		if k == 0 {
			return i
		}
		k--
	}
	panic("weft internal error: a receive's partner is not pending")
}

// Meet completes the rendezvous of receiver t with the pending send at index
// i of o's sends (already read by the typed channel, and removed here). It
// records the event ev's partner, lets the sender run its local code up to
// its next operation, and returns when control is back with t.
func (t *Thread) Meet(o *Obj, i int, ev *trace.Event) {
	s := o.out[i]
	o.out = slices.Delete(o.out, i, i+1)
	u := t.e.threads[s.tid]
	ev.Partner, ev.PartnerCase, ev.PartnerOp = u.id, s.cas, u.op
	u.op, u.obj = trace.Op{}, nil
	u.completed, u.completedCase = true, s.cas
	u.returnTo = t
	if u.id == o.owner {
		o.arm(false, o.When()) // a timer fired: it is disarmed (timer.go)
	}
	t.handTo(u)
}

// Completed reports whether t's pending send was completed by a receiver, and
// which select case it was; it resets the flag. A completed send is done:
// the caller returns to the program's code.
func (t *Thread) Completed() (bool, int32) {
	c, k := t.completed, t.completedCase
	if c {
		t.completed = false
		t.e.publish()
	}
	return c, k
}

// SendBegin announces a plain send on channel o (nil: a nil channel) and
// returns when it is chosen or a receiver has met it. It reports whether a
// receiver met it; otherwise the caller performs the send into the buffer
// (or panics, if the channel is closed).
func (t *Thread) SendBegin(o *Obj) (met bool) {
	if o == nil {
		t.BlockForever(trace.KindSend)
	}
	t.begin(trace.Op{Kind: trace.KindSend, Class: trace.ClassChan, Obj: o.id}, o)
	met, _ = t.Completed()
	return met
}

// RecvBegin announces a plain receive on channel o and returns the chosen
// alternative when it is chosen.
func (t *Thread) RecvBegin(o *Obj) int32 {
	if o == nil {
		t.BlockForever(trace.KindRecv)
	}
	return t.begin(trace.Op{Kind: trace.KindRecv, Class: trace.ClassChan, Obj: o.id}, o)
}

// ChanOp announces an operation on channel o that never blocks (Close, Len).
func (t *Thread) ChanOp(o *Obj, k trace.Kind) {
	t.begin(trace.Op{Kind: k, Class: trace.ClassChan, Obj: o.id}, o)
}

// Closed reports whether channel o is closed; Len and Cap its length and
// capacity.
func (o *Obj) Closed() bool                   { return o.closed }
func (o *Obj) Len() int                       { return int(o.chanLen()) }
func (o *Obj) Cap() int                       { return int(o.cap) }
func (o *Obj) Buffered() bool                 { return o.cap > 0 }
func (o *Obj) SendIndex(i int) trace.ThreadID { return o.out[i].tid }

// Push adds a value to buffered channel o, sent by the step t is about to
// record: the receive that takes the value synchronises with that step.
func (t *Thread) Push(o *Obj) {
	o.n++
	o.queue = append(o.queue, waiter{cond: int64(t.e.next())})
}

// Pop takes the oldest value of buffered channel o and returns the source
// (trace.Event.Src) of the send it came from.
func (o *Obj) Pop() int32 {
	o.n--
	if len(o.queue) == 0 {
		return 0
	}
	src := int32(o.queue[0].cond)
	o.queue = o.queue[:copy(o.queue, o.queue[1:])]
	return src
}

// CloseChan closes channel o by the step t is about to record.
func (t *Thread) CloseChan(o *Obj) { o.closed, o.rel = true, t.e.next() }

// CloseSrc returns the source (trace.Event.Src) of the close of channel o,
// which a step that finds it closed synchronises with.
func (o *Obj) CloseSrc() int32 { return o.rel }

// SelectCase describes one case of a select to the runtime: its channel (nil
// for a nil channel) and direction.
type SelectCase struct {
	Obj  *Obj
	Send bool
}

// SelectBegin announces a select with the given cases and returns the case
// taken (-1 for default) and its alternative, when the thread is chosen. If
// a receiver met one of its send cases, met is true and the case is that
// send. The caller has registered the values of its send cases with AddSend.
func (t *Thread) SelectBegin(cases []SelectCase, hasDefault bool) (cas int, k int32, met bool) {
	e := t.e
	t.sel = t.sel[:0]
	lo := len(e.cases)
	for _, c := range cases {
		id := trace.NoObject
		if c.Obj != nil {
			id = c.Obj.id
		}
		kind := trace.KindRecv
		if c.Send {
			kind = trace.KindSend
		}
		e.cases = append(e.cases, trace.Case{Kind: kind, Obj: id})
		t.sel = append(t.sel, selCase{obj: c.Obj, send: c.Send})
	}
	op := trace.Op{Kind: trace.KindSelect, Class: trace.ClassChan, Obj: trace.NoObject, Cases: e.cases[lo:len(e.cases):len(e.cases)]}
	if hasDefault {
		op.Arg = 1
	}
	alt := t.begin(op, nil)
	if ok, c := t.Completed(); ok {
		return int(c), 0, true
	}
	for i, c := range t.sel {
		n := e.caseAlts(c, t.id)
		if alt < n {
			return i, alt, false
		}
		alt -= n
	}
	return -1, 0, false
}

// EndSelect records the executed select, which took case cas.
func (t *Thread) EndSelect(cas int, value uint64, ok bool) *trace.Event {
	ev := t.record(value, ok)
	ev.Case = int32(cas)
	t.sel = t.sel[:0]
	t.e.publish()
	return ev
}

// EndOp records an executed channel operation and returns its event, so that
// a receive can add its partner.
func (t *Thread) EndOp(value uint64, ok bool) *trace.Event { return t.end(value, ok) }
