// This file tests virtual time: Sleep, timers and After (harness in
// primitives_test.go).

package weft_test

import (
	"path/filepath"
	"runtime"
	"strings"
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

// TestTimerAsTime checks the rules NewTimer, After, Stop and Reset share
// with package time's (Go 1.23 and later), and with each other: a
// duration of 0 or less fires at once, After(d) fires as NewTimer(d)
// does, a fired but unreceived timer is still armed for Stop and Reset,
// and the channel is receive-only.
func TestTimerAsTime(t *testing.T) {
	for _, c := range []struct {
		name string
		body func(w *weft.T)
		kind trace.FailureKind // the failure expected, or 0 for none
		msg  string            // its message
	}{
		{"negative fires at once", func(w *weft.T) {
			v := weft.NewTimer(-5).C.Recv()
			w.Assert(v == 0 && w.Now() == 0, "NewTimer(-5) fired at %v with %v", w.Now(), v)
			v = weft.After(-5).Recv()
			w.Assert(v == 0 && w.Now() == 0, "After(-5) fired at %v with %v", w.Now(), v)
		}, 0, ""},
		{"After as NewTimer", func(w *weft.T) {
			w.Sleep(3)
			a, b := weft.After(10), weft.NewTimer(10).C
			x, y := a.Recv(), b.Recv()
			w.Assert(x == 13 && y == 13 && w.Now() == 13, "After gave %v, NewTimer %v, at %v", x, y, w.Now())
			z := w.After(4).Recv()
			w.Assert(z == 17, "w.After gave %v", z)
		}, 0, ""},
		{"fired unreceived is armed", func(w *weft.T) {
			tm := weft.NewTimer(1)
			w.Sleep(10)
			w.Assert(tm.Reset(1), "Reset of a fired, unreceived timer reported it stopped")
			v := tm.C.Recv()
			w.Assert(v == 11, "after Reset(1) at 10 the timer gave %v", v)
			w.Assert(!tm.Reset(5), "Reset of a received timer reported it armed")
			w.Assert(tm.Stop(), "Stop of a reset timer reported it stopped")
			w.Assert(!tm.Reset(5), "Reset of a stopped timer reported it armed")
		}, 0, ""},
		{"send", func(w *weft.T) { weft.NewTimer(10).C.Send(1) },
			trace.Panic, "weft: send on a timer's channel C: only the timer sends on it (time.Timer's C is receive-only)"},
		{"close", func(w *weft.T) { w.After(10).Close() },
			trace.Panic, "weft: close of a timer's channel C: only the timer sends on it (time.Timer's C is receive-only)"},
		{"select send", func(w *weft.T) {
			c := weft.After(10)
			weft.Select(weft.OnSend(c, 1, nil), weft.OnDefault(nil))
		}, trace.Panic, "weft: send on a timer's channel C: only the timer sends on it (time.Timer's C is receive-only)"},
		{"zero Timer", func(w *weft.T) {
			var tm weft.Timer
			tm.Stop()
		}, trace.Panic, "panic: weft: Timer.Stop called on a Timer not made by weft.NewTimer"},
	} {
		t.Run(c.name, func(t *testing.T) {
			r, err := weft.Explore(c.body, weft.NoReplayFiles())
			if err != nil {
				t.Fatal(err)
			}
			if c.kind == 0 {
				if r.Failed() || r.Executions != 1 || r.Complete != 1 {
					t.Fatalf("%d executions, %d complete, failures %v; want 1 complete", r.Executions, r.Complete, r.FailureCounts)
				}
				return
			}
			if len(r.Failures) != 1 || r.Failures[0].Kind != c.kind || r.Failures[0].Thread != 0 {
				t.Fatalf("failures %v; want one %v in T0", r.FailureCounts, c.kind)
			}
			if msg, _, _ := strings.Cut(r.Failures[0].Message, "\n"); msg != c.msg {
				t.Errorf("message %q, want %q", msg, c.msg)
			}
		})
	}
}

// TestTimerReport: a receive from a timer's channel is shown without a
// partner (the timer's thread is weft's), at the user's line.
func TestTimerReport(t *testing.T) {
	r := explore(t, func(w *weft.T) {
		v := w.After(10).Recv()
		w.Fail("fired with %v", v)
	}, weft.NoReplayFiles())
	if len(r.Failures) != 1 || len(r.Failures[0].Steps) != 1 {
		t.Fatalf("failures %v; want one, of one step", r.FailureCounts)
	}
	s := r.Failures[0].Steps[0]
	if s.Op != "recv timer#0 = 10ns" || s.Partner != trace.NoThread || filepath.Base(s.File) != "timer_sem_test.go" || s.Line != 217 {
		t.Errorf("step %+v; want recv timer#0 = 10ns with no partner at timer_sem_test.go:217", s)
	}
}
