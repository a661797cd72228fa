// Tests of the timeout and of the context inside an execution: they
// interrupt a long one.

package weft_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/weft-go/weft"
)

// TestTimeoutInterruptsAnExecution: one execution of ten million steps
// takes far longer than the timeout; the timeout interrupts it at a
// scheduling point, so it does not end and nothing was explored.
func TestTimeoutInterruptsAnExecution(t *testing.T) {
	const steps = 10_000_000
	ran := 0
	long := func(w *weft.T) {
		var x weft.Var[int]
		for i := range steps {
			ran = i + 1
			x.Store(i)
		}
	}
	r, err := weft.Explore(long, weft.WithTimeout(20*time.Millisecond), weft.WithMaxSteps(2*steps), weft.NoReplayFiles())
	if !errors.Is(err, weft.ErrNoExecution) || r != nil {
		t.Fatalf("Explore = %+v, %v; want ErrNoExecution", r, err)
	}
	if ran >= steps || ran%256 != 0 {
		t.Errorf("the body ran %d of its %d stores; want it interrupted at a check of the deadline (every 256 steps)", ran, steps)
	}
}

// TestTimeoutKeepsWhatRan: executions that ended before the timeout count,
// the interrupted one does not, and the exploration is not exhausted.
func TestTimeoutKeepsWhatRan(t *testing.T) {
	const steps = 10_000_000
	execs := 0
	body := func(w *weft.T) {
		execs++
		var x weft.Var[int]
		n := 1
		if execs > 1 {
			n = steps // the second execution is long
		}
		w.Go(func() { x.Store(1) })
		for i := range n {
			x.Store(i)
		}
	}
	r, err := weft.Explore(body, weft.WithTimeout(20*time.Millisecond), weft.WithMaxSteps(2*steps), weft.NoReplayFiles())
	if err != nil {
		t.Fatal(err)
	}
	if r.Executions != 1 || r.Complete != 1 || !r.TimedOut || r.Exhausted || execs != 2 {
		t.Errorf("executions %d (complete %d), timed out %v, exhausted %v, bodies run %d; want 1 (1), true, false, 2",
			r.Executions, r.Complete, r.TimedOut, r.Exhausted, execs)
	}
}

// TestContextStopsAnExecution: canceling the context of WithContext stops
// the exploration inside a long execution, which counts for nothing; the
// executions that ended before count, and the Result says Canceled.
func TestContextStopsAnExecution(t *testing.T) {
	const steps = 10_000_000
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	execs := 0
	ran := 0
	body := func(w *weft.T) {
		execs++
		var x weft.Var[int]
		n := 1
		if execs > 1 {
			n = steps // the second execution is long: it cancels, and runs on
		}
		w.Go(func() { x.Store(1) })
		for i := range n {
			if i == 1000 {
				cancel()
			}
			ran = i + 1
			x.Store(i)
		}
	}
	r, err := weft.Explore(body, weft.WithContext(ctx), weft.WithMaxSteps(2*steps), weft.NoReplayFiles())
	if err != nil {
		t.Fatal(err)
	}
	if r.Executions != 1 || r.Complete != 1 || !r.Canceled || r.TimedOut || r.Exhausted || execs != 2 {
		t.Errorf("executions %d (complete %d), canceled %v, timed out %v, exhausted %v, bodies run %d; want 1 (1), true, false, false, 2",
			r.Executions, r.Complete, r.Canceled, r.TimedOut, r.Exhausted, execs)
	}
	if ran > 1000+256 {
		t.Errorf("the long execution ran %d stores after the cancel at store 1001; want it stopped at the next check (every 256 steps)", ran-1001)
	}
}

// TestContextDoneBeforeStart: an exploration whose context is done already
// runs nothing, says Canceled, and is no error.
func TestContextDoneBeforeStart(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	r, err := weft.Explore(func(w *weft.T) {}, weft.WithContext(ctx))
	if err != nil || r.Executions != 0 || !r.Canceled || r.Exhausted {
		t.Fatalf("Explore = %+v, %v; want no execution, canceled, no error", r, err)
	}
	//lint:ignore SA1012 a nil context on purpose: the option refuses it
	if _, err := weft.Explore(func(w *weft.T) {}, weft.WithContext(nil)); err == nil {
		t.Error("WithContext(nil): no error")
	}
}
