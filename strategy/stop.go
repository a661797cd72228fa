// This file implements Stop, through which the driver tells a strategy
// (Stoppable) that the exploration must stop.

package strategy

import (
	"context"
	"time"
)

// pollEvery is how many calls of Stop.Poll make one look at the clock and
// the stop channel: a look costs a few tens of nanoseconds, a call a
// counter increment.
const pollEvery = 128

// Stop says whether a bound of the exploration has passed: a deadline (the
// timeout) or the close of a channel (a context's Done, an interrupt). A
// nil *Stop never stops. Once it has reported a stop it keeps reporting
// it. It is not safe for concurrent use: each strategy has its own.
type Stop struct {
	deadline time.Time
	done     <-chan struct{}
	n        uint32
	fired    bool
	ctx      context.Context
	cancel   context.CancelFunc
}

// NewStop returns a Stop that stops at deadline (none if zero) or when done
// is closed (never if nil).
func NewStop(deadline time.Time, done <-chan struct{}) *Stop {
	return &Stop{deadline: deadline, done: done}
}

// Poll reports whether the exploration must stop. It is cheap enough for
// the inner loops of an analysis: it looks at the clock and the channel
// once every few hundred calls only, so a loop whose every iteration is
// long should call Now instead.
func (s *Stop) Poll() bool {
	// Small enough to be inlined: the loops that call it are hot.
	if s == nil {
		return false
	}
	if s.n++; s.n < pollEvery {
		return s.fired
	}
	return s.look()
}

// look is Poll's look at the clock and the channel, every pollEvery calls.
//
//go:noinline
func (s *Stop) look() bool {
	s.n = 0
	return s.Now()
}

// Now reports whether the exploration must stop, looking at the clock and
// the channel at once.
func (s *Stop) Now() bool {
	if s == nil {
		return false
	}
	if !s.fired {
		s.fired = !s.deadline.IsZero() && !time.Now().Before(s.deadline) || s.closed()
	}
	return s.fired
}

// Fired reports whether Poll or Now has reported a stop.
func (s *Stop) Fired() bool { return s != nil && s.fired }

// Closed reports whether the stop channel is closed (the context or an
// interrupt, not the deadline, stops the exploration).
func (s *Stop) Closed() bool { return s != nil && s.closed() }

func (s *Stop) closed() bool {
	select {
	case <-s.done:
		return true
	default:
		return false
	}
}

// Context returns a context that is done when the exploration must stop,
// for the calls that take one (a solver's Check). Release frees it.
func (s *Stop) Context() context.Context {
	if s == nil {
		return context.Background()
	}
	if s.ctx == nil {
		ctx, cancel := context.Background(), context.CancelFunc(func() {})
		if !s.deadline.IsZero() {
			ctx, cancel = context.WithDeadline(ctx, s.deadline)
		}
		if s.done != nil {
			ctx, cancel = withDone(ctx, cancel, s.done)
		}
		s.ctx, s.cancel = ctx, cancel
	}
	return s.ctx
}

// withDone returns a child of ctx canceled when done is closed too, and
// the function that cancels it and calls cancel.
func withDone(ctx context.Context, cancel context.CancelFunc, done <-chan struct{}) (context.Context, context.CancelFunc) {
	inner, cancelInner := context.WithCancel(ctx)
	go func() {
		select {
		case <-done:
		case <-inner.Done():
		}
		cancelInner()
	}()
	return inner, func() { cancelInner(); cancel() }
}

// Release frees what Context allocated; the driver calls it once the
// exploration has ended.
func (s *Stop) Release() {
	if s != nil && s.cancel != nil {
		s.cancel()
	}
}
