// This file defines events and the trace of a finished execution.

package trace

// Event is one executed step: a visible operation of one thread and, for a
// channel rendezvous, of its partner.
type Event struct {
	Thread ThreadID
	// Alt is the alternative the strategy chose among the enabled ones of
	// the thread's pending operation (a select case, a channel partner).
	Alt int32
	// Op is the pending operation the thread executed; for a select, the
	// whole select.
	Op Op
	// Case is the select case taken (-1 for default, or for an operation that
	// is not a select).
	Case int32
	// Partner is the other thread of a rendezvous on an unbuffered channel
	// (the sender, since the receiver executes it), or NoThread.
	Partner ThreadID
	// PartnerCase is the partner's select case, or -1, and PartnerOp the
	// partner's pending operation that the rendezvous completed.
	PartnerCase int32
	// Src is 1 + the index of the event this one synchronises with, 0 if
	// none: the other side of a synchronisation pair that is not a
	// rendezvous (Lei and Carver 2006, §3), as package model states per primitive (a
	// receive and the send whose value it took, a lock and the release
	// before it, ...). Use Source and SetSource.
	Src       int32
	PartnerOp Op
	// Value is the value read or written, for values that fit 64 bits
	// (integers, booleans); OK is a receive's ok result or whether a CAS or
	// TryLock succeeded.
	Value uint64
	OK    bool
	// SymValue reports that the value a write wrote (Value) carries an
	// expression over inputs (a concolic value that depends on them): with
	// other inputs, the same write writes another value.
	SymValue bool
	// Spawned is the number of threads the step started (in its local code
	// after the operation); they take the next ThreadIDs in order.
	Spawned int32
	// PC is the program counter of the operation's call site, recorded only
	// when the runtime captures sources (for reports).
	PC uintptr
}

// Source returns the index of the event e synchronises with (Src), or -1.
func (e *Event) Source() int { return int(e.Src) - 1 }

// ReadOnly reports whether e only read a variable: a load, or a
// compare-and-swap that failed (and so wrote nothing). A busy-wait loop's
// turn made of such steps is a failed check (w.Yield).
func (e *Event) ReadOnly() bool {
	return e.Op.Class == ClassVar && (e.Op.Kind == KindLoad || (e.Op.Kind == KindCAS && !e.OK))
}

// SetSource sets the index of the event e synchronises with (-1: none).
func (e *Event) SetSource(i int) {
	if i < 0 {
		e.Src = 0
		return
	}
	e.Src = int32(i + 1)
}

// ThreadInfo describes a thread of an execution.
type ThreadInfo struct {
	Parent ThreadID
	// Step is the index of the event whose local code started the thread, or
	// -1 for threads started before the first step.
	Step int32
	// Branch is the number of symbolic branches recorded before the thread
	// started (len(Trace.Branches) then): it orders the spawn among the
	// branches of the parent's local code, which share its step.
	Branch int32
}

// ObjectInfo describes a shared object of an execution.
type ObjectInfo struct {
	Class Class
	// Atomic marks a variable whose every access is atomic (an Int, a
	// variable marked with Var.SetAtomic): race checking never reports
	// two atomic accesses.
	Atomic bool
	// Ticker marks the channel of a ticker's timer (ClassTimer), which
	// the thread receiving a tick re-arms unless a Stop step stopped the
	// ticker. When time moves only when every thread is blocked, a
	// ticker's deadline no longer moves time once the test body (thread
	// 0) has finished.
	Ticker  bool
	Creator ThreadID // the thread that first used it
	Name    string   // the name the program gave it, if any
	// Cap is a channel's buffer capacity (0: unbuffered), which the
	// enabledness of its operations depends on; for a monitor, 1 if it
	// signals and urgently waits (SU), 0 if it signals and continues; for
	// a semaphore, its initial value.
	Cap int64
	// When is a timer's first deadline (virtual time): the channel of a
	// timer (ClassTimer) is armed from its creation until then.
	When int64
	// Init is a variable's value (its encoding, Event.Value) before its
	// first write: 0 but for a variable given a value with
	// Value.SetInitial (weft test's atomic words that hold one when the
	// execution first uses them).
	Init uint64
	// Key names the object across executions, where ObjectIDs (the order
	// of first use) change with the interleaving: an object made or named
	// outside the executions has a key of its own; one made by a
	// constructor in an execution is named after its creator; another
	// object that lives across executions keeps the key of its first
	// registration; one
	// created during the execution is named by each thread that touches it
	// in that thread's terms (its path of spawns, the index of the
	// announcement among the thread's, the object's place in it), and the
	// key is the one the runtime bound to the first of those names it met
	// (see Trace.Merged).
	Key uint64
}

// AwaitEval is an evaluation of the condition of a w.Await by thread
// Thread, pending as its step Step (counted from 0, as
// model.Thread.Steps): the variables it loaded, in order, with the values
// (their encodings, as Event.Value) it read, and whether it held. The
// condition is a function of those values: in any state where the
// variables hold them, it loads the same ones and gives the same answer.
// At is the number of events of the trace when it was evaluated: it read
// the state after them. The branches on inputs the evaluation took (each
// marked BranchEvent.InAwait) are Trace.Branches[BranchLo:BranchHi]: with
// them, the condition is a function of the values and of the inputs.
type AwaitEval struct {
	Thread             ThreadID
	Step               int32
	At                 int32
	OK                 bool
	Reads              []EvalRead
	BranchLo, BranchHi int32
}

// EvalRead is a load of an AwaitEval: variable Obj held Value.
type EvalRead struct {
	Obj   ObjectID
	Value uint64
}

// KeyMerge records that object key From names the same object as To.
type KeyMerge struct{ From, To uint64 }

// Trace is a finished execution. A Trace handed to a strategy is valid only
// during the call; the runtime reuses its memory.
type Trace struct {
	Events  []Event
	Threads []ThreadInfo
	Objects []ObjectInfo
	// Final is each thread's pending operation at the end (KindNone for a
	// thread that finished).
	Final []Op
	// Inputs and Branches are the inputs read and the symbolic branches
	// taken, in order (symbolic.go); they are not events.
	Inputs   []InputEvent
	Branches []BranchEvent
	// Accesses holds the symbolic side of the accesses to shared variables,
	// in step order, when the strategy asked for a symbolic trace
	// (strategy.SymbolicTracer); it is empty otherwise (symbolic.go).
	Accesses []SymAccess
	// Merged lists the keys the execution found to name one object: an
	// object created during the execution that threads reached for the
	// first time together here, having reached it apart, under two keys,
	// in earlier executions. The execution keeps the keys it used; later
	// ones use To for From.
	Merged []KeyMerge
	// Evals records each evaluation of the condition of a w.Await, which
	// leaves no event (trace.KindAwait): what it loaded and whether it
	// held. A strategy that asks whether an await is enabled in a state the
	// execution never reached (package model) finds the answer here when
	// an evaluation loaded the same values.
	Evals []AwaitEval
	// Seed is the seed of the program's random numbers and of the order
	// of its ranges over maps in the execution (the stand-ins of
	// math/rand and weft test's rewritten ranges draw from it); SeedUsed
	// reports that the execution read it (a replay token records it
	// then).
	Seed     int64
	SeedUsed bool
	// enabled holds, for each step, the set of threads enabled in the
	// state before it, as the changes from one step to the next
	// (enabled.go).
	enabled enabledLog
}

// Reset empties t for a new execution, keeping its memory.
func (t *Trace) Reset() {
	t.Events = t.Events[:0]
	t.Threads = t.Threads[:0]
	t.Objects = t.Objects[:0]
	t.Final = t.Final[:0]
	clear(t.Branches) // drop the terms, so the solver's interning can free them
	clear(t.Accesses)
	t.Inputs, t.Branches, t.Accesses = t.Inputs[:0], t.Branches[:0], t.Accesses[:0]
	t.Merged = t.Merged[:0]
	t.Evals = t.Evals[:0]
	t.Seed, t.SeedUsed = 0, false
	t.enabled.reset()
}

// PendingAt returns the pending operation of thread p in the state before step
// i: the operation of p's first event at or after i, or its final one. ok is
// false if p did not exist then.
func (t *Trace) PendingAt(i int, p ThreadID) (op Op, ok bool) {
	if int(p) >= len(t.Threads) || int(t.Threads[p].Step) >= i {
		return Op{}, false
	}
	for j := i; j < len(t.Events); j++ {
		e := &t.Events[j]
		if e.Thread == p {
			return e.Op, true
		}
		if e.Partner == p {
			return e.PartnerOp, true
		}
	}
	return t.Final[p], true
}
