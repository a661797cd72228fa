// This file implements the panic guard around the strategy: a strategy's
// panic is weft's bug, not the program's, and the test body never sees it.

package weft

import (
	"errors"
	"fmt"
	"runtime/debug"

	"github.com/weft-go/weft/strategy"
	"github.com/weft-go/weft/trace"
)

// ErrInternal is wrapped by the error of an exploration that a bug in weft
// ended: a strategy panicked.
var ErrInternal = errors.New("weft internal error")

// guarded runs a strategy and catches its panics. Choose and Input run on
// the goroutine of a thread of the test body, inside a weft operation: a
// panic left to unwind there would be reported as the program's and could
// be stopped by a recover in the body. The guard recovers it where the
// strategy is called, records it, cuts the execution and ends the
// exploration; the driver reports it as an error wrapping ErrInternal,
// with the strategy's stack.
type guarded struct {
	inner strategy.Strategy
	name  string // the strategy's name, for the error
	execs int    // executions started
	err   error  // the panic, once caught
}

var _ strategy.Wrapper = (*guarded)(nil)

// guard wraps s, called name, in a panic guard.
func guard(s strategy.Strategy, name string) *guarded { return &guarded{inner: s, name: name} }

// Unwrap implements strategy.Wrapper.
func (g *guarded) Unwrap() strategy.Strategy { return g.inner }

// panicked returns the panic caught, as an error wrapping ErrInternal, or
// nil. (It is not called Err: that would hide the inner strategy's
// strategy.Failer from strategy.As.)
func (g *guarded) panicked() error { return g.err }

// caught records the panic value r of method at step (-1: between
// executions); it runs in a deferred call, so the stack is the panic's.
func (g *guarded) caught(method string, step int, r any) {
	where := fmt.Sprintf("in %s of execution %d", method, g.execs)
	if step >= 0 {
		where = fmt.Sprintf("in %s at step %d of execution %d", method, step+1, g.execs)
	}
	g.err = fmt.Errorf("%w: strategy %s panicked %s: %v\n\n%s\nThis is a bug in weft, not in the program under test: please report it with this message.",
		ErrInternal, g.name, where, r, debug.Stack())
}

// Next implements strategy.Strategy.
func (g *guarded) Next() (more bool) {
	if g.err != nil {
		return false
	}
	defer func() {
		if r := recover(); r != nil {
			g.caught("Next", -1, r)
			more = false
		}
	}()
	g.execs++
	return g.inner.Next()
}

// Choose implements strategy.Strategy; after a panic it cuts.
func (g *guarded) Choose(st *strategy.State) (c strategy.Choice) {
	if g.err != nil {
		return strategy.Cut
	}
	defer func() {
		if r := recover(); r != nil {
			g.caught("Choose", st.Step, r)
			c = strategy.Cut
		}
	}()
	return g.inner.Choose(st)
}

// Input implements strategy.Strategy; after a panic it gives the default
// value, and the next scheduling point cuts.
func (g *guarded) Input(st *strategy.State, in strategy.InputRequest) (v uint64) {
	if g.err != nil {
		return in.Default
	}
	defer func() {
		if r := recover(); r != nil {
			g.caught("Input", st.Step, r)
			v = in.Default
		}
	}()
	return g.inner.Input(st, in)
}

// Finish implements strategy.Strategy.
func (g *guarded) Finish(tr *trace.Trace, end trace.End) {
	if g.err != nil {
		return
	}
	defer func() {
		if r := recover(); r != nil {
			g.caught("Finish", -1, r)
		}
	}()
	g.inner.Finish(tr, end)
}
