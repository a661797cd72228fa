package context_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/weft-go/weft"
	"github.com/weft-go/weft/internal/stdtest"
	wcontext "github.com/weft-go/weft/std/context"
	"github.com/weft-go/weft/std/rt"
	wtime "github.com/weft-go/weft/std/time"
)

// TestCancel checks that canceling a context closes its Done channel and
// its children's, under a value context too, with their errors and
// causes; a child made of a canceled parent is canceled at once.
func TestCancel(t *testing.T) {
	var got string
	r := stdtest.Explore(t, func() {
		errStop := errors.New("stop")
		parent, cancel := wcontext.WithCancelCause(context.Background())
		child, cancelChild := wcontext.WithCancel(wcontext.WithValue(parent, "k", "v"))
		defer cancelChild()
		cancel(errStop)
		rt.OfRecv("", child.Done()).Recv()
		late, cancelLate := wcontext.WithCancel(parent)
		defer cancelLate()
		got = strings.Join([]string{
			errString(parent.Err()), errString(wcontext.Cause(parent)),
			errString(child.Err()), errString(wcontext.Cause(child)), child.Value("k").(string),
			errString(late.Err()), errString(wcontext.Cause(late)),
		}, " ")
	})
	want := "context canceled stop context canceled stop v context canceled stop"
	if r.Failed() || r.Executions != 1 || got != want {
		t.Errorf("%d executions, failures %v, got %q; want 1, none, %q", r.Executions, r.Failures, got, want)
	}
}

// errString returns err's message.
func errString(err error) string {
	if err == nil {
		return "nil"
	}
	return err.Error()
}

// TestWorker checks a goroutine that waits for cancellation: one
// execution, as the worker's receive can only follow the cancel's close.
func TestWorker(t *testing.T) {
	r := stdtest.Explore(t, func() {
		ctx, cancel := wcontext.WithCancel(context.Background())
		done := rt.MakeChan(make(chan error))
		rt.Go(func() {
			rt.OfRecv("", ctx.Done()).Recv()
			rt.Of("", done).Send(ctx.Err())
		})
		cancel()
		if err := rt.Of("", done).Recv(); err != context.Canceled {
			panic(err)
		}
	})
	if r.Failed() || r.Executions != 1 {
		t.Errorf("%d executions, failures %v; want 1 and none", r.Executions, r.Failures)
	}
}

// TestDeadline checks WithTimeout and WithDeadline on virtual time: Done
// is closed at the deadline with DeadlineExceeded, a later deadline than
// the parent's is the parent's, and canceling first stops the timer. The
// goroutines that wait for the two timers select between the timer and
// its Stop: optimal tries their other cases, once before an earlier event
// too (its model does not know whether a timer is due), and cuts those 4
// executions.
func TestDeadline(t *testing.T) {
	var got string
	r := stdtest.Explore(t, func() {
		start := wtime.Now()
		ctx, cancel := wcontext.WithTimeout(context.Background(), time.Second)
		defer cancel()
		later, cancelLater := wcontext.WithDeadline(ctx, wtime.Now().Add(time.Hour))
		defer cancelLater()
		d, _ := later.Deadline()
		rt.OfRecv("", later.Done()).Recv()
		early, cancelEarly := wcontext.WithTimeoutCause(context.Background(), time.Minute, errors.New("slow"))
		cancelEarly()
		got = strings.Join([]string{d.Sub(start).String(), wtime.Since(start).String(),
			errString(ctx.Err()), errString(later.Err()), errString(early.Err()), errString(wcontext.Cause(early))}, " ")
		wtime.Sleep(time.Hour)
	})
	want := "1s 1s context deadline exceeded context deadline exceeded context canceled context canceled"
	if r.Failed() || r.Executions != 5 || r.Cut != 4 || got != want {
		t.Errorf("%d executions (%d cut), failures %v, got %q; want 5 (4 cut), none, %q", r.Executions, r.Cut, r.Failures, got, want)
	}
}

// TestAfterFunc checks that AfterFunc's function runs in a goroutine of
// its own once the context is canceled, and not after stop.
func TestAfterFunc(t *testing.T) {
	var got string
	r := stdtest.Explore(t, func() {
		ctx, cancel := wcontext.WithCancel(context.Background())
		ran := rt.MakeChan(make(chan string, 2))
		wcontext.AfterFunc(ctx, func() { rt.Of("", ran).Send("ran") })
		stop := wcontext.AfterFunc(ctx, func() { rt.Of("", ran).Send("stopped one ran") })
		stopped := stop()
		cancel()
		got = rt.Of("", ran).Recv()
		if stopped && !stop() {
			got += " stopped"
		}
	})
	if r.Failed() || r.Executions != 1 || got != "ran stopped" {
		t.Errorf("%d executions, failures %v, got %q; want 1, none, %q", r.Executions, r.Failures, got, "ran stopped")
	}
}

// TestOutsideExecution checks the functions outside an execution: the
// standard library's.
func TestOutsideExecution(t *testing.T) {
	ctx, cancel := wcontext.WithTimeout(context.Background(), time.Hour)
	cancel()
	<-ctx.Done()
	if ctx.Err() != wcontext.Canceled {
		t.Errorf("Err() = %v, want Canceled", ctx.Err())
	}
}

// TestDeadlineAnyStep checks, with time that moves at any step, that a
// context's timer fires at its deadline, although the clock may advance
// (to a timer's earlier deadline) between the reading of the time and the
// arming of the context's timer: Done is closed at the deadline in every
// execution, since no later deadline can move the clock past it first.
func TestDeadlineAnyStep(t *testing.T) {
	late := map[time.Duration]int{}
	r := stdtest.Explore(t, func() {
		wtime.NewTimer(100 * time.Millisecond) // a deadline before the context's
		ctx, cancel := wcontext.WithTimeout(context.Background(), time.Second)
		defer cancel()
		rt.OfRecv("", ctx.Done()).Recv()
		d, _ := ctx.Deadline()
		late[wtime.Since(d)]++
	}, weft.WithTime(weft.TimeAnyStep), weft.KeepGoing())
	if r.Failed() || r.Executions != 5 || r.Cut != 0 || len(late) != 1 || late[0] != r.Executions {
		t.Errorf("%d executions (%d cut), failures %v, Done closed after the deadline by %v; want 5 (none cut), none, all at the deadline", r.Executions, r.Cut, r.Failures, late)
	}
}

// TestChildrenOrder checks that a canceled context cancels its children in
// one order in every execution: a parent of eight children, whose locks
// the execution has used, is canceled, then two goroutines send on a channel, in 2 executions that repeat the
// cancel. A range over a map of the children canceled them in an order
// that differed from one execution to the next, which the determinism
// check reported as a body that is not deterministic.
func TestChildrenOrder(t *testing.T) {
	for range 5 {
		r := stdtest.Explore(t, func() {
			parent, cancel := wcontext.WithCancel(context.Background())
			var cancels []context.CancelFunc
			for range 8 {
				child, c := wcontext.WithCancel(parent)
				_ = child.Err() // its lock is the execution's object from here
				cancels = append(cancels, c)
			}
			cancel()
			stdtest.TwoExecutions()
			for _, c := range cancels {
				c()
			}
		})
		if r.Failed() || r.Executions != 2 {
			t.Fatalf("%d executions, failures %v; want 2, none", r.Executions, r.Failures)
		}
	}
}
