// This file implements the functions of package context: the standard
// library's outside an execution, and this package's cancelable contexts
// inside one.

package context

import (
	"context"
	"time"

	"github.com/weft-go/weft/internal/shim"
	"github.com/weft-go/weft/std/rt"
	wtime "github.com/weft-go/weft/std/time"
)

// The types of package context.
type (
	Context         = context.Context
	CancelFunc      = context.CancelFunc
	CancelCauseFunc = context.CancelCauseFunc
)

// The errors of package context.
var (
	Canceled         = context.Canceled
	DeadlineExceeded = context.DeadlineExceeded
)

// Background is context.Background.
func Background() Context { return context.Background() }

// TODO is context.TODO.
func TODO() Context { return context.TODO() }

// WithValue is context.WithValue.
func WithValue(parent Context, key, val any) Context { return context.WithValue(parent, key, val) }

// WithoutCancel is context.WithoutCancel.
func WithoutCancel(parent Context) Context { return context.WithoutCancel(parent) }

// WithCancel is context.WithCancel.
func WithCancel(parent Context) (Context, CancelFunc) {
	if !shim.Active() {
		return context.WithCancel(parent)
	}
	shim.BeginCall("context.WithCancel")
	defer shim.EndCall()
	c := newCancelCtx(parent)
	return c, func() { c.cancelCall(Canceled, nil) }
}

// WithCancelCause is context.WithCancelCause.
func WithCancelCause(parent Context) (Context, CancelCauseFunc) {
	if !shim.Active() {
		return context.WithCancelCause(parent)
	}
	shim.BeginCall("context.WithCancelCause")
	defer shim.EndCall()
	c := newCancelCtx(parent)
	return c, func(cause error) { c.cancelCall(Canceled, cause) }
}

// WithDeadline is context.WithDeadline: inside an execution, the deadline
// is on virtual time.
func WithDeadline(parent Context, d time.Time) (Context, CancelFunc) {
	return withDeadline("context.WithDeadline", parent, d, nil)
}

// WithDeadlineCause is context.WithDeadlineCause.
func WithDeadlineCause(parent Context, d time.Time, cause error) (Context, CancelFunc) {
	return withDeadline("context.WithDeadlineCause", parent, d, cause)
}

// withDeadline is WithDeadlineCause, whose steps reports show as one,
// labelled label (the function the program called).
func withDeadline(label string, parent Context, d time.Time, cause error) (Context, CancelFunc) {
	if !shim.Active() {
		return context.WithDeadlineCause(parent, d, cause)
	}
	shim.BeginCall(label)
	defer shim.EndCall()
	if cur, ok := parent.Deadline(); ok && cur.Before(d) {
		return WithCancel(parent) // the parent's deadline comes first
	}
	c := newCancelCtx(parent)
	c.deadline, c.hasDeadline = d, true
	cancel := func() { c.cancelCall(Canceled, nil) }
	dur := wtime.Until(d)
	if dur <= 0 {
		c.cancel(true, DeadlineExceeded, cause)
		return c, cancel
	}
	c.mu.Lock()
	if c.err == nil {
		// At the instant d: time may have moved since Until.
		c.timer = wtime.AfterFuncAt(d, "deadline of ctx", func() { c.cancel(true, DeadlineExceeded, cause) })
	}
	c.mu.Unlock()
	return c, cancel
}

// WithTimeout is context.WithTimeout: WithDeadline(parent, Now().Add(timeout)),
// on virtual time inside an execution.
func WithTimeout(parent Context, timeout time.Duration) (Context, CancelFunc) {
	return withDeadline("context.WithTimeout", parent, wtime.Now().Add(timeout), nil)
}

// WithTimeoutCause is context.WithTimeoutCause.
func WithTimeoutCause(parent Context, timeout time.Duration, cause error) (Context, CancelFunc) {
	return withDeadline("context.WithTimeoutCause", parent, wtime.Now().Add(timeout), cause)
}

// Cause is context.Cause: the cause a context of this package was canceled
// with, or context.Cause's answer for the standard library's.
func Cause(c Context) error {
	if cc, ok := c.Value(&ctxKey).(*cancelCtx); ok {
		shim.BeginCall("context.Cause")
		defer shim.EndCall()
		cc.mu.Lock()
		defer cc.mu.Unlock()
		return cc.cause
	}
	return context.Cause(c)
}

// AfterFunc is context.AfterFunc: inside an execution, with a context of
// this package, f runs in a goroutine of its own once ctx is canceled;
// stop reports whether it kept f from being started.
func AfterFunc(ctx Context, f func()) (stop func() bool) {
	if !shim.Active() {
		return context.AfterFunc(ctx, f)
	}
	shim.BeginCall("context.AfterFunc")
	defer shim.EndCall()
	a := &afterFunc{f: f}
	parent, ok := ctx.Value(&ctxKey).(*cancelCtx)
	if !ok {
		switch done := ctx.Done(); {
		case ctx.Err() != nil:
			a.cancel(false, ctx.Err(), nil)
		case watchable(done):
			// f starts once ctx is done, unless stop is first.
			a.quit = rt.MakeChan(make(chan struct{}))
			whenDone(done, "stop", a.quit, func() { a.cancel(false, nil, nil) })
		}
		// Otherwise not canceled during the execution (see the package
		// doc): f runs only if ctx already is.
		return a.stop
	}
	a.parent = parent
	parent.adopt(a)
	return a.stop
}
