// Package context is weft's stand-in for the standard library's package
// context, with the same API. weft test rewrites the imports of "context"
// in the packages under test to this package, so that cancellation,
// deadlines and Done channels are steps weft schedules.
//
// Context, CancelFunc and CancelCauseFunc are the standard library's types
// (aliases), and Canceled and DeadlineExceeded its errors: errors.Is and ==
// work as with package context, and a Context made here can be passed to
// any code that takes a context.Context. Background, TODO, WithValue and
// WithoutCancel are the standard library's functions.
//
// Inside a weft execution, WithCancel, WithCancelCause, WithDeadline,
// WithDeadlineCause, WithTimeout, WithTimeoutCause and AfterFunc make
// contexts of this package: a Done channel that weft closes (a Go channel,
// mapped to a weft channel as every channel of the rewritten code is), a
// weft mutex around the error and the children, and for a deadline a timer
// of package std/time on virtual time. Canceling a context cancels its
// children, as in package context; AfterFunc's function runs in a
// goroutine of its own once its context is canceled. A parent of the
// program's own Context type whose Done channel the execution made (a
// mock clock's deadline context) is watched as package context watches
// it, by a goroutine that waits for it or the child to be done (for it
// or stop, with AfterFunc). A context made outside the execution
// (t.Context(), one made before the exploration) can be a parent: its
// deadline and values are seen, and its cancellation if it happened
// before the child was made, not during the execution (its Done channel
// is a real one, which weft does not watch).
//
// Outside an execution each function is the standard library's.
package context
