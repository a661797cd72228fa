// Tests of the timeout inside an execution: it interrupts a long one.

package weft_test

import (
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
