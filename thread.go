// This file implements T, the handle a test body gets, and starting and
// joining threads.

package weft

import (
	"fmt"
	"time"

	"github.com/weft-go/weft/internal/engine"
	"github.com/weft-go/weft/solver"
	"github.com/weft-go/weft/trace"
)

// T is the handle of one execution of a test body. It starts threads and
// reports failures. Only the body and the threads it starts may use it.
// Besides weft's own Assert and Fail, it has testing.T's methods for test
// helpers, with their meanings inside one execution (Errorf, Fatalf, Log,
// Cleanup, Helper, ...): a helper that takes an interface of some of them
// takes a *T.
type T struct {
	name string // the test's name (Name)
	// probe says to count, in the first execution, the goroutines the
	// body starts outside weft's control (uncontrolled.go); probed that
	// it was done.
	probe, probed bool
}

// newT returns the T of the executions of an exploration with c.
func newT(c *config) *T { return &T{name: c.testName} }

// Thread is a thread started by T.Go; Join waits for it.
type Thread struct {
	t *engine.Thread
}

// cur returns the running thread, or panics with a clear message when a weft
// operation is used outside weft.Check.
func cur() *engine.Thread {
	t := engine.Current()
	if t == nil {
		panic("weft: a weft operation was used outside an execution: call it from a function run by weft.Check or weft.Explore, " +
			"or from a thread started with w.Go (a goroutine started with a go statement must not use weft objects: use w.Go)")
	}
	return t
}

// Go starts a new thread running f, like a go statement. Starting a thread is
// not a scheduling point: the new thread runs its local code up to its first
// weft operation before Go returns.
func (w *T) Go(f func()) *Thread { return Go(f) }

// Go starts a new thread running f, as w.Go does, from the running thread
// of an execution: code under test can start threads without a *T. Called
// outside an execution, it panics with an explanation.
func Go(f func()) *Thread {
	return &Thread{t: cur().Go(f)}
}

// GoNamed is Go for a thread named name in reports: its steps, the
// threads a deadlock or leak leaves blocked, and the failures it causes
// show it as "T1(name)" rather than "T1".
func (w *T) GoNamed(name string, f func()) *Thread { return GoNamed(name, f) }

// GoNamed is w.GoNamed for code under test that has no *T, as Go is
// w.Go's.
func GoNamed(name string, f func()) *Thread {
	return &Thread{t: cur().GoNamed(name, f)}
}

// Join blocks until th has finished.
func (th *Thread) Join() {
	cur().Join(th.t)
}

// Assert fails the execution with the message format (formatted with args,
// as fmt.Sprintf) if cond is false. go vet's printf check checks its
// arguments, as it does t.Errorf's.
//
// In a symbolic trace (con2) the assertion is also a branch, whose
// condition is the constant cond: a strategy that covers branch sides
// then knows that the failing side exists, though not what it depends on.
func (w *T) Assert(cond bool, format string, args ...any) {
	if t := engine.Current(); t != nil && t.Symbolic() {
		t.Branch(trace.BranchEvent{Cond: solver.Bool(cond), Taken: cond, Check: true})
	}
	if !cond {
		w.Fail(format, args...)
	}
}

// Fail fails the execution with the message format (formatted with args, as
// fmt.Sprintf; without args, format is the message as it is). It does not
// return. go vet's printf check checks its arguments.
func (w *T) Fail(format string, args ...any) {
	// format is not assigned to: go vet's printf check takes Fail, and so
	// Assert, for a wrapper of fmt.Sprintf only if it forwards its
	// parameters untouched.
	msg := format
	if len(args) > 0 {
		msg = fmt.Sprintf(format, args...)
	}
	cur().Fail(trace.Assertion, msg)
}

// Sleep blocks the calling thread for d of virtual time. Virtual time moves
// only when every thread is blocked, as in testing/synctest, or at any
// step (WithTime).
func (w *T) Sleep(d time.Duration) { cur().Sleep(int64(d)) }

// Now returns the virtual time since the execution started: a step of its
// own when time moves at any step (WithTime), whose result depends on
// whether the clock advanced before.
func (w *T) Now() time.Duration { return time.Duration(cur().Now()) }
