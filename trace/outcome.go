// This file defines how an execution ends and the kinds of failure.

package trace

// Status is how an execution ended.
type Status uint8

// The statuses of an execution.
const (
	// Complete: every thread finished.
	Complete Status = iota
	// Failed: the execution found a failure; see FailureKind.
	Failed
	// Cut: the strategy ended the execution early (for instance because a
	// sleep set blocked it). Not a failure.
	Cut
	// Assumed: a thread's assumption (w.Assume) did not hold, which ends
	// the execution in the local code of its last step (End.Thread): the
	// program declared such executions out of scope. Or (End.Thread
	// NoThread) no thread could move, and a thread blocked in a busy-wait
	// loop (w.Yield) would take another turn: a write followed the
	// failed turn's loads, so the turn's reversal with it is another
	// execution's. Not a failure.
	Assumed
)

func (s Status) String() string {
	switch s {
	case Complete:
		return "complete"
	case Failed:
		return "failed"
	case Cut:
		return "cut"
	case Assumed:
		return "assumed"
	}
	return "status?"
}

// FailureKind classifies a failure.
type FailureKind uint8

// The failure kinds. Their String forms are stable: they appear in reports,
// JSON output and replay files.
const (
	NoFailure FailureKind = iota
	// Assertion: w.Assert failed or w.Fail was called.
	Assertion
	// Panic: a thread panicked with a value of the program's own.
	Panic
	// Deadlock: no thread is enabled, some are blocked, and the test body has
	// not returned.
	Deadlock
	// Leak: the test body returned, and other threads stay blocked forever.
	Leak
	// Livelock: the execution hit the step bound; possibly a livelock, never
	// a pass.
	Livelock
	// SendOnClosed, CloseOfClosed, CloseOfNil: the panics of Go's channels.
	SendOnClosed
	CloseOfClosed
	CloseOfNil
	// UnlockOfUnlocked: unlocking an unlocked Mutex or RWMutex (a fatal
	// error in Go).
	UnlockOfUnlocked
	// NegativeWaitGroup: a WaitGroup counter went below zero.
	NegativeWaitGroup
	// DivideByZero: an integer division by zero in concolic arithmetic.
	DivideByZero
	// Goexit: the body's thread called runtime.Goexit (t.FailNow,
	// t.SkipNow) instead of returning; in another thread, runtime.Goexit
	// ends the thread after its deferred calls, as Go ends a goroutine.
	Goexit
	// Nondeterminism: the test body did not repeat itself under the same
	// schedule and inputs (a replay diverged).
	Nondeterminism
	// Blocked: a thread blocked outside weft's control (a real mutex, I/O,
	// time.Sleep) and did not reach its next operation within the watchdog
	// delay.
	Blocked
	// Internal: a bug of weft itself, never the program's.
	Internal
	// Misuse: weft's API used in a way no execution can follow: a
	// goroutine that is not a thread of the execution (started with a go
	// statement instead of w.Go) used a weft object, or an object made
	// outside the test body was kept from one execution to the next or
	// shared by explorations that run at the same time. The failure's
	// message says which.
	Misuse
	// DataRace: two accesses to a variable, at least one a write and one
	// not atomic, that no synchronisation orders (WithRaces; package
	// internal/races).
	DataRace
	// WaitGroupMisuse: an Add with a positive delta from a counter of
	// zero, and a Wait of the same WaitGroup, that no synchronisation but
	// the WaitGroup's own orders (Go's sync.WaitGroup rule; package
	// internal/races).
	WaitGroupMisuse
	numFailureKinds
)

var failureNames = [...]string{
	"none", "assertion", "panic", "deadlock", "leak", "livelock",
	"send on closed channel", "close of closed channel", "close of nil channel",
	"unlock of unlocked mutex", "negative WaitGroup counter", "integer divide by zero",
	"goexit", "nondeterminism", "blocked outside weft", "weft internal error",
	"misuse", "data race", "WaitGroup misuse",
}

func (k FailureKind) String() string {
	if int(k) < len(failureNames) {
		return failureNames[k]
	}
	return "failure?"
}

// ParseFailureKind returns the kind whose String is s.
func ParseFailureKind(s string) (FailureKind, bool) {
	for i, n := range failureNames {
		if n == s {
			return FailureKind(i), true
		}
	}
	return NoFailure, false
}

// FailureKinds lists every failure kind, in order.
func FailureKinds() []FailureKind {
	ks := make([]FailureKind, 0, numFailureKinds-1)
	for k := Assertion; k < numFailureKinds; k++ {
		ks = append(ks, k)
	}
	return ks
}

// End is how an execution ended: its status and, when it failed, the kind of
// failure, the thread that failed (NoThread for deadlocks and leaks) and a
// message.
type End struct {
	Status  Status
	Kind    FailureKind
	Thread  ThreadID
	Message string
}

// InStep reports whether the execution ended in the local code of its last
// step, with other threads possibly able to move: a failure (not a
// deadlock or a leak, where none could) or an assumption that did not hold
// (Assumed, with a thread). The strategies that reason about the steps
// such an end prevented treat both alike.
func (e End) InStep() bool {
	if e.Status == Assumed {
		return e.Thread != NoThread
	}
	return e.Status == Failed && e.Kind != Deadlock && e.Kind != Leak
}
