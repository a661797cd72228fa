// This file defines visible operations: their kinds and the pending operation
// of a thread.

package trace

import (
	"strconv"
	"time"
)

// Kind is the kind of a visible operation.
type Kind uint8

// The kinds of visible operations. A kind's meaning depends on the class of the
// object it touches where the class says more (Lock on a Mutex or on an
// RWMutex's writer side).
const (
	KindNone Kind = iota
	// Variables.
	KindLoad
	KindStore
	KindAdd  // atomic add: read-modify-write
	KindSwap // atomic swap: read-modify-write
	KindCAS  // compare-and-swap: read, and a write when it succeeds
	// Mutex and RWMutex.
	KindLock
	KindUnlock
	KindTryLock
	KindRLock
	KindRUnlock
	// Cond: Wait releases the mutex and waits; Relock reacquires it once
	// signalled.
	KindWait
	KindRelock
	KindSignal
	KindBroadcast
	// WaitGroup: Add (and Done, a negative Add) and Wait.
	KindWGAdd
	KindWGWait
	// Once: OnceDo enters Do; OnceDone ends the run of its function.
	KindOnceDo
	KindOnceDone
	// Channels.
	KindSend
	KindRecv
	KindClose
	KindLen
	KindSelect
	// Semaphores.
	KindP
	KindV
	// Monitors: Enter and Exit of a monitor method, Wait and Signal on one of
	// its condition variables (Op.Arg), Reenter after a signal (SC).
	KindMEnter
	KindMExit
	KindMWait
	KindMSignal
	KindMSignalAll
	KindMReenter
	// Virtual time: Sleep blocks until a deadline; TimerStop cancels a timer.
	KindSleep
	KindTimerStop
	// Threads.
	KindJoin
	// Inputs and symbolic branches (concolic testing).
	KindInput
	KindBranch
	// Await is the step of a thread whose condition (w.Await) holds, one
	// event reading the variables its evaluations loaded (Op.Cases,
	// KindLoad cases); Op.Arg is 0. With Op.Arg AwaitYield, it is the
	// pending operation of a busy-wait loop (w.Yield) whose turn only
	// read those variables: never enabled, it blocks the thread for good
	// (an execution left with it ends as a deadlock, a leak, or assumed
	// away if another thread wrote one of them since).
	KindAwait
	// Virtual time when it may move at any step (ClassClock): Now reads the
	// clock (Op.Arg NowArms when the step also arms a deadline: a Sleep's
	// start, a timer's creation); Advance, the step of weft's clock
	// thread, moves it to the earliest deadline after it (Op.Arg, the
	// deadline it moves to when pending; Op.Cases, as KindRecv cases, the
	// channels of the timers it makes due; Event.Value, the new time).
	KindNow
	KindAdvance
	numKinds
)

// NumKinds is the number of operation kinds: every Kind is less, so that
// a table of the kinds is an array of NumKinds entries.
const NumKinds = int(numKinds)

// NowArms is the Op.Arg of a KindNow step that arms a deadline (a Sleep's
// start, a timer's creation): it writes TimeObject, where a plain read of
// the clock (Op.Arg 0) reads it.
const NowArms = 1

// AwaitYield is the Op.Arg of the KindAwait pending operation of a
// busy-wait loop that called w.Yield (0: w.Await).
const AwaitYield = 1

var kindNames = [...]string{
	"none", "load", "store", "add", "swap", "cas",
	"lock", "unlock", "trylock", "rlock", "runlock",
	"wait", "relock", "signal", "broadcast",
	"wg.add", "wg.wait", "once.do", "once.done",
	"send", "recv", "close", "len", "select",
	"P", "V",
	"menter", "mexit", "mwait", "msignal", "msignalall", "mreenter",
	"sleep", "timer.stop", "join", "input", "branch", "await",
	"now", "advance",
}

func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "kind(" + strconv.Itoa(int(k)) + ")"
}

// Valid reports whether k is the kind of a visible operation: one of the
// constants above other than KindNone.
func (k Kind) Valid() bool { return k > KindNone && k < numKinds }

// ParseKind returns the kind named s, as printed by Kind.String.
func ParseKind(s string) (Kind, bool) {
	for i, n := range kindNames {
		if n == s {
			return Kind(i), true
		}
	}
	return KindNone, false
}

// Case is one case of a select: a send or a receive on a channel. Obj is
// NoObject for a nil channel, which is never ready.
type Case struct {
	Kind Kind // KindSend or KindRecv
	Obj  ObjectID
}

// Op is a visible operation: what a thread is about to do (its pending
// operation) or what it did (an Event's operation).
type Op struct {
	Kind  Kind
	Class Class
	Obj   ObjectID
	// Arg is the kind's argument: the delta of a WaitGroup Add, the size
	// of the variable's integer type for an add whose result is unused
	// (AddOnly; 0 for an Add), the
	// condition variable of a monitor Wait or Signal, the target thread of a
	// Join, the deadline of a Sleep, a select's default flag (1 if it has a
	// default case), the encoded value a CompareAndSwap expects.
	Arg int64
	// Cases are a select's cases, in the order the program gave them; for
	// an await (KindAwait), the variables it waits on, as KindLoad cases.
	Cases []Case
}

func (o Op) String() string { return o.Text(ObjectID.String) }

// Text describes o as String does, with its objects named by name (such
// as Trace.ObjectName).
func (o Op) Text(name func(ObjectID) string) string {
	if o.Kind == KindNone {
		return "none"
	}
	s := o.Kind.String()
	if AddOnly(o) {
		s = "addonly"
	}
	if o.Kind == KindAdvance {
		// The virtual time it moves to, since the execution started.
		return s + " to " + time.Duration(o.Arg).String()
	}
	if o.Kind == KindAwait {
		if o.Arg == AwaitYield {
			s = "yield"
		}
		s += "("
		for i, c := range o.Cases {
			if i > 0 {
				s += ", "
			}
			s += name(c.Obj)
		}
		return s + ")"
	}
	if o.Kind == KindSelect {
		s += "("
		for i, c := range o.Cases {
			if i > 0 {
				s += ", "
			}
			s += c.Kind.String() + " " + name(c.Obj)
		}
		if o.Arg == 1 {
			if len(o.Cases) > 0 {
				s += ", "
			}
			s += "default"
		}
		return s + ")"
	}
	if o.Obj != NoObject {
		s += " " + name(o.Obj)
	}
	return s
}

// Accesses reports the objects an operation touches: its object, or for a
// select, an await or an advance of the clock the objects of all its cases.
func (o Op) Accesses(yield func(ObjectID) bool) {
	if o.Kind == KindSelect || o.Kind == KindAwait || o.Kind == KindAdvance {
		for _, c := range o.Cases {
			if c.Obj != NoObject && !yield(c.Obj) {
				return
			}
		}
		return
	}
	if o.Obj != NoObject {
		yield(o.Obj)
	}
}
