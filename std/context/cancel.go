// This file implements the cancelable contexts that WithCancel, WithDeadline
// and their variants make inside an execution, and AfterFunc's.

package context

import (
	"time"

	"github.com/weft-go/weft"
	"github.com/weft-go/weft/internal/shim"
	"github.com/weft-go/weft/std/rt"
	wtime "github.com/weft-go/weft/std/time"
)

// ctxKey is the key under which a cancelCtx's Value returns itself, so that
// Cause and the children find it under the contexts that wrap it.
var ctxKey int

// canceler is a child a cancelCtx cancels: a context, or an AfterFunc.
type canceler interface {
	cancel(removeFromParent bool, err, cause error)
}

// cancelCtx is a context that can be canceled, with an optional deadline.
type cancelCtx struct {
	parent   Context
	done     chan struct{}
	mu       weft.Mutex // guards what follows
	err      error
	cause    error
	children children
	// owner is the cancelCtx that holds this one among its children.
	owner *cancelCtx
	// The deadline, and the timer that cancels the context at it.
	deadline    time.Time
	hasDeadline bool
	timer       *wtime.Timer
}

// newCancelCtx returns a cancelable child of parent, canceled at once if
// parent is.
func newCancelCtx(parent Context) *cancelCtx {
	if parent == nil {
		panic("cannot create context from nil parent")
	}
	c := &cancelCtx{parent: parent, done: rt.MakeChan(make(chan struct{}))}
	if p, ok := parent.Value(&ctxKey).(*cancelCtx); ok {
		c.owner = p
		p.adopt(c)
	} else if err := parent.Err(); err != nil {
		c.cancel(false, err, Cause(parent))
	} else if done := parent.Done(); watchable(done) {
		// The child is canceled with the parent, unless it is first.
		whenDone(done, "ctx.Done()", c.done, func() { c.cancel(false, parent.Err(), Cause(parent)) })
	}
	return c
}

// watchable reports whether done, the Done channel of a Context of the
// program's own type, was made by the execution, so that a goroutine of
// it may wait for it.
func watchable(done <-chan struct{}) bool {
	return done != nil && shim.Inside(shim.ChanPointer(done))
}

// whenDone starts a goroutine that runs f once done, a watchable Done
// channel, is closed, unless quit, called quitName in reports, is closed
// first: package context's goroutine for a parent of another type than
// its own.
func whenDone(done <-chan struct{}, quitName string, quit chan struct{}, f func()) {
	rt.Go(func() {
		if rt.Select(false, rt.OfRecv("parent.Done()", done).RecvCase(), rt.Of(quitName, quit).RecvCase()) == 0 {
			f()
		}
	})
}

// adopt makes child a child of c, or cancels it at once if c is canceled.
func (c *cancelCtx) adopt(child canceler) {
	c.mu.Lock()
	if c.err != nil {
		err, cause := c.err, c.cause
		c.mu.Unlock()
		child.cancel(false, err, cause)
		return
	}
	c.children.add(child)
	c.mu.Unlock()
}

// remove removes child from c's children.
func (c *cancelCtx) remove(child canceler) {
	c.mu.Lock()
	c.children.remove(child)
	c.mu.Unlock()
}

// cancel closes c's Done channel, cancels its children and stops its
// timer; it removes c from its parent's children if asked. A cause of nil
// is err.
func (c *cancelCtx) cancel(removeFromParent bool, err, cause error) {
	if !shim.Active() {
		return // after the execution (a cleanup): the context is gone
	}
	if cause == nil {
		cause = err
	}
	c.mu.Lock()
	if c.err != nil {
		c.mu.Unlock()
		return // already canceled
	}
	c.err, c.cause = err, cause
	rt.Of("ctx.Done()", c.done).Close()
	for _, child := range c.children.all() {
		if child != nil {
			child.cancel(false, err, cause)
		}
	}
	if c.timer != nil {
		c.timer.Stop()
		c.timer = nil
	}
	c.mu.Unlock()
	if removeFromParent && c.owner != nil {
		c.owner.remove(c)
	}
}

// cancelCall is the cancel function of c: cancel, whose steps reports show
// as one.
func (c *cancelCtx) cancelCall(err, cause error) {
	shim.BeginCall("cancel ctx")
	defer shim.EndCall()
	c.cancel(true, err, cause)
}

// Deadline returns c's deadline, or its parent's.
func (c *cancelCtx) Deadline() (time.Time, bool) {
	if c.hasDeadline {
		return c.deadline, true
	}
	return c.parent.Deadline()
}

// Done returns the channel that is closed when c is canceled.
func (c *cancelCtx) Done() <-chan struct{} { return c.done }

// Err returns nil until c is canceled, then Canceled or DeadlineExceeded.
func (c *cancelCtx) Err() error {
	if !shim.Active() {
		return c.err // after the execution: no thread changes it
	}
	shim.BeginCall("ctx.Err()")
	defer shim.EndCall()
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.err
}

// Value returns c itself for ctxKey, and the parent's value otherwise.
func (c *cancelCtx) Value(key any) any {
	if key == &ctxKey {
		return c
	}
	return c.parent.Value(key)
}

// String names the context as package context does.
func (c *cancelCtx) String() string {
	if c.hasDeadline {
		return "context.WithDeadline(" + c.deadline.String() + ")"
	}
	return "context.WithCancel"
}

// afterFunc is the registration of AfterFunc's function with a context.
type afterFunc struct {
	f      func()
	parent *cancelCtx
	// quit, for a context of the program's type, wakes the goroutine
	// that waits for it when stop keeps f from starting.
	quit chan struct{}
	mu   weft.Mutex
	done bool // f was started, or stop kept it from starting
}

// cancel starts f in a goroutine of its own, unless stop came first.
func (a *afterFunc) cancel(_ bool, _, _ error) {
	a.mu.Lock()
	started := !a.done
	a.done = true
	a.mu.Unlock()
	if started {
		rt.Go(a.f)
	}
}

// stop keeps f from starting, and reports whether it did.
func (a *afterFunc) stop() bool {
	shim.BeginCall("stop (context.AfterFunc)")
	defer shim.EndCall()
	a.mu.Lock()
	stopped := !a.done
	a.done = true
	a.mu.Unlock()
	if stopped && a.parent != nil {
		a.parent.remove(a)
	}
	if stopped && a.quit != nil {
		rt.Of("stop", a.quit).Close()
	}
	return stopped
}
