// This file tests contexts whose parent is a Context of the program's own
// type, as package context propagates their cancellation.

package context_test

import (
	"context"
	"testing"

	"github.com/weft-go/weft"
	"github.com/weft-go/weft/internal/stdtest"
	wcontext "github.com/weft-go/weft/std/context"
	"github.com/weft-go/weft/std/rt"
)

// progCtx is a Context of the program's own type, as benbjohnson/clock's
// mock deadline contexts are: a Done channel the execution makes, and an
// error under a mutex.
type progCtx struct {
	context.Context
	done chan struct{}
	mu   weft.Mutex
	err  error
}

func newProgCtx() *progCtx {
	return &progCtx{Context: context.Background(), done: rt.MakeChan(make(chan struct{}))}
}

func (c *progCtx) Done() <-chan struct{} { return c.done }

func (c *progCtx) Err() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.err
}

func (c *progCtx) cancel() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.err = context.Canceled
	rt.Of("", c.done).Close()
}

// TestProgramParent checks that a child of a Context of the program's own
// type is canceled when its parent is, as package context does with a
// goroutine that waits for either to be done: the child's Done channel
// is closed, with the parent's error. Before, weft's contexts watched
// only parents of their own package, and the child waited for ever
// (benbjohnson/clock's TestMock_WithDeadlineLaterThanCurrent failed).
// When the child is canceled first, that goroutine ends: no leak.
// optimal's counts are pinned: one execution when the parent is canceled
// first (the goroutine's select waits for its close), three when the
// child is (the select takes the child's Done alone, or, once both are
// closed, either).
func TestProgramParent(t *testing.T) {
	for _, c := range []struct {
		name        string
		parentFirst bool
		executions  int
	}{{"parent canceled", true, 1}, {"child canceled", false, 3}} {
		var got error
		r := stdtest.Explore(t, func() {
			parent := newProgCtx()
			child, cancel := wcontext.WithCancel(parent)
			if c.parentFirst {
				parent.cancel()
				rt.OfRecv("", child.Done()).Recv()
				got = child.Err()
				cancel()
				return
			}
			cancel()
			got = child.Err()
			parent.cancel()
		})
		if r.Failed() || r.Executions != c.executions || got != context.Canceled {
			t.Errorf("%s: %d executions, failures %v, child's error %v; want %d, none, %v", c.name, r.Executions, r.Failures, got, c.executions, context.Canceled)
		}
	}
}

// TestProgramAfterFunc checks AfterFunc with a Context of the program's
// own type: the function runs once the context is canceled, and stop,
// called first, keeps it from running and ends the goroutine that waits
// for the context (no leak). Before, the function never ran. optimal's
// counts are pinned: three executions when stop comes first (the
// goroutine's select takes stop's close alone, or, once both are closed,
// either; the function runs in none).
func TestProgramAfterFunc(t *testing.T) {
	for _, c := range []struct {
		name       string
		stopFirst  bool
		executions int
		want       string
	}{{"canceled", false, 1, "ran"}, {"stopped", true, 3, "stopped"}} {
		var got string
		r := stdtest.Explore(t, func() {
			ctx := newProgCtx()
			ran := rt.MakeChan(make(chan string, 1))
			stop := wcontext.AfterFunc(ctx, func() { rt.Of("", ran).Send("ran") })
			if c.stopFirst {
				if stop() {
					got = "stopped"
				}
				ctx.cancel()
				return
			}
			ctx.cancel()
			got = rt.Of("", ran).Recv()
		})
		if r.Failed() || r.Executions != c.executions || got != c.want {
			t.Errorf("%s: %d executions, failures %v, got %q; want %d, none, %q", c.name, r.Executions, r.Failures, got, c.executions, c.want)
		}
	}
}
