// This file tests virtual time: Sleep, timers and After (harness in
// primitives_test.go).

package weft_test

import (
	"runtime"
	"testing"
	"time"

	"github.com/weft-go/weft"
	"github.com/weft-go/weft/trace"
)

func TestTimeSemantics(t *testing.T) {
	sleeper := func(w *weft.T, d time.Duration) func() {
		return func() {
			w.Sleep(d)
			now := w.Now()
			w.Assert(now == d, "woke at %v, want %v", now, d)
		}
	}
	// race: a sender sleeps d then sends on c; the body selects between c
	// and a timeout of 10.
	race := func(d time.Duration) func(w *weft.T) {
		return func(w *weft.T) {
			c := weft.MakeChan[int](0)
			w.Go(func() { w.Sleep(d); c.Send(1) })
			weft.Select(weft.OnRecv(c, nil), weft.OnRecv(w.After(10), func(v time.Duration, _ bool) {
				now := w.Now()
				w.Assert(v == 10 && now == 10, "timeout value %v at %v", v, now)
			}))
		}
	}
	l2, l2s := f(trace.Leak, 1, 2)
	l22, l22s := f(trace.Leak, 2, 2)
	dl1, dl1s := f(trace.Deadlock, 1, 1)
	dl0, dl0s := f(trace.Deadlock, 1, 0)
	runSemCases(t, []semCase{
		// Time moves only when every thread is blocked, to the earliest
		// deadline: T1 and T3 wake at 10 (2 orders), T2 at 20.
		{name: "sleepers", body: func(w *weft.T) {
			w.Go(sleeper(w, 10))
			w.Go(sleeper(w, 20))
			w.Go(sleeper(w, 10))
		}, execs: 2, complete: 2},
		{name: "sleep-0", body: func(w *weft.T) { sleeper(w, 0)() }, execs: 1, complete: 1},
		{name: "timer-fires", body: func(w *weft.T) {
			v := weft.NewTimer(10).C.Recv()
			now := w.Now()
			w.Assert(v == 10 && now == 10, "got %v at %v", v, now)
		}, execs: 1, complete: 1},
		// The sender wakes at 5 and its send is the only option: the
		// timeout never fires, and the armed timer does not make the
		// execution leak.
		{name: "select-before-timeout", body: race(5), execs: 1, complete: 1},
		// The timeout fires at 10 (the only option); the sender wakes at
		// 20 and blocks: a leak after the Select and the Sleep.
		{name: "select-timeout", body: race(20), execs: 1, fails: l2, steps: l2s},
		// Both at 10: the body's timeout first (then the sender leaks), or
		// the sender's Sleep first and then either case: 3, 2 leaks.
		{name: "select-tie", body: race(10), execs: 3, complete: 1, fails: l22, steps: l22s},
		// A stopped timer never fires and does not keep anything alive.
		{name: "stop", body: func(w *weft.T) {
			tm := weft.NewTimer(10)
			w.Assert(tm.Stop(), "Stop of an armed timer")
			w.Assert(!tm.Stop(), "Stop of a stopped timer")
			now := w.Now()
			w.Assert(now == 0, "time moved to %v", now)
		}, execs: 1, complete: 1},
		{name: "stopped-recv", body: func(w *weft.T) {
			tm := weft.NewTimer(10)
			tm.Stop()
			tm.C.Recv()
		}, execs: 1, fails: dl1, steps: dl1s},
		{name: "stop-after-recv", body: func(w *weft.T) {
			tm := weft.NewTimer(10)
			tm.C.Recv()
			w.Assert(!tm.Stop(), "Stop of a fired timer")
		}, execs: 1, complete: 1},
		// Go 1.23: a timer that fired but was not received is stopped by
		// Stop (true), and no stale value is received afterwards.
		{name: "no-stale-value", body: func(w *weft.T) {
			tm := weft.NewTimer(10)
			w.Sleep(20)
			w.Assert(tm.Stop(), "Stop of an unreceived timer")
			i := weft.Select(weft.OnRecv(tm.C, nil), weft.OnDefault(nil))
			w.Assert(i == 1, "a stale value after Stop")
		}, execs: 1, complete: 1},
		{name: "reset", body: func(w *weft.T) {
			tm := weft.NewTimer(10)
			w.Assert(tm.Reset(50), "Reset of an armed timer")
			v := tm.C.Recv()
			w.Assert(v == 50 && w.Now() == 50, "fired at %v", v)
			w.Assert(!tm.Reset(30), "Reset of a fired timer")
			v = tm.C.Recv()
			w.Assert(v == 80 && w.Now() == 80, "fired again at %v", v)
			tm.Stop()
			w.Assert(!tm.Reset(5), "Reset of a stopped timer")
			v = tm.C.Recv()
			w.Assert(v == 85, "fired at %v after a Stop and Reset", v)
		}, execs: 1, complete: 1},
		// A deadlock stays a deadlock with a timer around: time moves to
		// 10, nobody receives, nothing can move.
		{name: "deadlock-with-timer", body: func(w *weft.T) {
			weft.NewTimer(10)
			weft.MakeChan[int](0).Recv()
		}, execs: 1, fails: dl0, steps: dl0s},
		// An armed timer alone: the execution completes with no step.
		{name: "armed-at-end", body: func(w *weft.T) { weft.NewTimer(10) }, execs: 1, complete: 1},
		// A thread waiting on a timer after the body returned: time moves,
		// it receives, the execution completes.
		{name: "wait-after-body", body: func(w *weft.T) {
			tm := weft.NewTimer(10)
			w.Go(func() { tm.C.Recv() })
		}, execs: 1, complete: 1},
	})
}

// TestTimerGoroutines checks that the daemon threads of timers, armed,
// stopped or fired, are unwound at the end of each execution.
func TestTimerGoroutines(t *testing.T) {
	before := runtime.NumGoroutine()
	r, err := weft.Explore(func(w *weft.T) {
		a, b := weft.NewTimer(10), weft.NewTimer(20)
		b.Stop()
		w.Go(func() { a.C.Recv() })
		weft.NewTimer(5)
	}, weft.WithStrategy("random"), weft.WithSeed(1), weft.WithMaxRuns(2000), weft.KeepGoing())
	if err != nil {
		t.Fatal(err)
	}
	if r.Executions != 2000 || r.Complete != 2000 {
		t.Fatalf("%d executions, %d complete (%v); want 2000", r.Executions, r.Complete, r.FailureCounts)
	}
	if after := settle(before); after > before {
		t.Errorf("%d goroutines before, %d after", before, after)
	}
}
