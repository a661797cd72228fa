// This file states, in one place per primitive, when a pending operation is
// enabled and how many alternatives it has.

package engine

import (
	"github.com/weft-go/weft/strategy"
	"github.com/weft-go/weft/trace"
)

// alts returns the number of alternatives of t's pending operation in the
// current state: 0 if it is blocked.
func (e *Exec) alts(t *Thread) int32 {
	o := t.obj
	switch t.op.Kind {
	case trace.KindNone:
		return 0
	case trace.KindLock:
		if o.class == trace.ClassRWMutex {
			if t.op.Arg == rwAnnounced {
				// A writer that announced itself waits for the readers
				// to leave (rwmutex.go).
				return b2i(o.n == 0)
			}
			// A writer first needs the writer slot: no writer holds or
			// announced.
			return b2i(!o.locked && o.writers == 0)
		}
		return b2i(!o.locked)
	case trace.KindRLock:
		// A writer that holds the lock or announced itself blocks new
		// readers (Go's RWMutex).
		return b2i(!o.locked && o.writers == 0)
	case trace.KindRelock:
		// A signalled Cond waiter reacquires its mutex (cond.go); with
		// another Locker (no obj2) it only waits for the signal.
		return b2i(t.wokenBy != 0 && (t.obj2 == nil || !t.obj2.locked))
	case trace.KindWait, trace.KindMWait:
		// Wait is the step that releases and enqueues; it is always enabled
		// (an unlocked mutex is checked when it runs).
		return 1
	case trace.KindWGWait:
		return b2i(o.n == 0)
	case trace.KindOnceDo:
		// Do waits while another thread runs the function (once.go).
		return b2i(!o.locked)
	case trace.KindP:
		return b2i(o.n > 0)
	case trace.KindV:
		if o.class == trace.ClassBinarySemaphore {
			return b2i(o.n < 1)
		}
		return 1
	case trace.KindMEnter:
		return b2i(!o.locked)
	case trace.KindMReenter:
		// SU: the monitor was handed to the thread; SC: a signalled thread
		// competes for the free monitor (monitor.go).
		if o.su() {
			return b2i(o.locked && o.owner == t.id)
		}
		return b2i(t.wokenBy != 0 && !o.locked)
	case trace.KindJoin:
		return b2i(e.threads[t.op.Arg].done)
	case trace.KindAwait:
		if t.cond != nil {
			// w.Await: its condition holds now (await.go).
			return e.condAlts(t)
		}
		// A loop that yields: a write of a variable it waits on since
		// the thread's last load of it (await.go).
		for _, r := range t.await {
			if r.o.rel != r.rel {
				return 1
			}
		}
		return 0
	case trace.KindSleep:
		return b2i(e.now >= t.deadline)
	case trace.KindAdvance:
		return e.clockAlts(t)
	case trace.KindSend:
		return sendAlts(o)
	case trace.KindRecv:
		return e.recvAlts(o, t.id)
	case trace.KindSelect:
		var n int32
		for _, c := range t.sel {
			n += e.caseAlts(c, t.id)
		}
		if n == 0 && t.op.Arg == 1 {
			return 1 // default
		}
		return n
	}
	// Every other operation (loads and stores, unlocks, signals, Add, Close,
	// Len, inputs, ...) never blocks.
	return 1
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
		return b2i(o.n < o.cap)
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
		return b2i(o.n > 0 || o.closed)
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
	if s.tid == o.owner && !(o.locked && e.now >= o.when) {
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

func b2i(b bool) int32 {
	if b {
		return 1
	}
	return 0
}

// Alternative implements strategy.Describer: what alternative a of thread
// p's pending operation is in the current state, resolved as the operation
// resolves it when chosen (SelectBegin, Partner).
func (e *Exec) Alternative(p trace.ThreadID, a int32) strategy.Alternative {
	none := strategy.Alternative{Case: -1, Partner: trace.NoThread, PartnerCase: -1}
	if int(p) >= len(e.threads) {
		return none
	}
	t := e.threads[p]
	switch t.op.Kind {
	case trace.KindRecv:
		return e.recvAlternative(t, t.obj, a, -1)
	case trace.KindSelect:
		for i, c := range t.sel {
			n := e.caseAlts(c, t.id)
			if a < n {
				if c.send {
					return strategy.Alternative{Case: int32(i), Partner: trace.NoThread, PartnerCase: -1}
				}
				return e.recvAlternative(t, c.obj, a, int32(i))
			}
			a -= n
		}
	}
	return none
}

// recvAlternative describes alternative a of a receive by t on channel o,
// select case cas (-1 for a plain receive).
func (e *Exec) recvAlternative(t *Thread, o *Obj, a, cas int32) strategy.Alternative {
	alt := strategy.Alternative{Case: cas, Partner: trace.NoThread, PartnerCase: -1}
	if o == nil || o.cap > 0 || o.closed {
		return alt
	}
	s := o.out[t.Partner(o, a)]
	alt.Partner, alt.PartnerCase = s.tid, s.cas
	return alt
}
