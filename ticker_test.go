// This file tests tickers and AfterFunc on virtual time (harness in
// primitives_test.go).

package weft_test

import (
	"maps"
	"testing"
	"time"

	"github.com/weft-go/weft"
	"github.com/weft-go/weft/trace"
)

func TestTickerSemantics(t *testing.T) {
	recvAt := func(w *weft.T, c *weft.Chan[time.Duration], want time.Duration) {
		v := c.Recv()
		w.Assert(v == want, "tick %v, want %v", v, want)
	}
	dl1, dl1s := f(trace.Deadlock, 1, 1)
	lk, lk0s := f(trace.Leak, 1, 0)
	lk9, lk9s := f(trace.Leak, 9, 6)
	runSemCases(t, []semCase{
		// Ticks come at each multiple of the period.
		{name: "ticks", body: func(w *weft.T) {
			tk := weft.NewTicker(10)
			for _, want := range []time.Duration{10, 20, 30} {
				recvAt(w, tk.C, want)
			}
			tk.Stop()
		}, execs: 1, complete: 1},
		// A slow receiver gets the tick that was due, and the next is the
		// first multiple of the period after the receive: 20 is dropped.
		{name: "drops", body: func(w *weft.T) {
			tk := weft.NewTicker(10)
			w.Sleep(25)
			recvAt(w, tk.C, 10)
			recvAt(w, tk.C, 30)
		}, execs: 1, complete: 1},
		// Reset makes the period 5, the next tick 5 after the Reset.
		{name: "reset", body: func(w *weft.T) {
			tk := weft.NewTicker(10)
			recvAt(w, tk.C, 10)
			tk.Reset(5)
			recvAt(w, tk.C, 15)
			recvAt(w, tk.C, 20)
		}, execs: 1, complete: 1},
		// A stopped ticker never ticks again: the receive blocks for ever.
		{name: "stopped", body: func(w *weft.T) {
			tk := weft.NewTicker(10)
			tk.Stop()
			tk.C.Recv()
		}, execs: 1, fails: dl1, steps: dl1s},
		// A goroutine reading the ticker for ever leaks once the body has
		// returned: the ticker's deadlines no longer move time, so its
		// first tick, at 10, never comes.
		{name: "reader-leaks", body: func(w *weft.T) {
			tk := weft.NewTicker(10)
			w.Go(func() {
				for {
					tk.C.Recv()
				}
			})
		}, execs: 1, fails: lk, steps: lk0s},
		// A tick due when the body returns is still received (the body's
		// wake-up at 10 and the tick race), and a sleep after the return
		// still moves time, to 25, making the tick at 20 due; the one at
		// 30 never comes (9 orders of the wake-ups, the receives and the
		// re-armings, each a leak).
		{name: "reader-after-return", body: func(w *weft.T) {
			tk := weft.NewTicker(10)
			w.Go(func() {
				for {
					tk.C.Recv()
				}
			})
			w.Go(func() { w.Sleep(25) })
			w.Sleep(10)
		}, execs: 9, fails: lk9, steps: lk9s},
		{name: "tick-nil", body: func(w *weft.T) {
			w.Assert(weft.Tick(0) == nil, "Tick(0) is not nil")
			recvAt(w, weft.Tick(7), 7)
		}, execs: 1, complete: 1},
		// A select on the ticker and a done channel sent at 10, the
		// instant of the first tick: the tick first (then done, whose
		// sender is enabled, before time moves to 20), or done first.
		{name: "select", body: func(w *weft.T) {
			tk := weft.NewTicker(10)
			done := weft.MakeChan[int](0)
			w.Go(func() { w.Sleep(10); done.Send(1) })
			ticks := weft.NewVar[int]("ticks")
			ticks.Store(0)
			for stopped := false; !stopped; {
				weft.Select(weft.OnRecv(tk.C, func(time.Duration, bool) { ticks.Store(ticks.Load() + 1) }),
					weft.OnRecv(done, func(int, bool) { tk.Stop(); stopped = true }))
			}
			n := ticks.Load()
			w.Assert(n <= 1, "%d ticks", n)
		}, execs: 6, complete: 6, finals: 2},
	})
}

func TestAfterFuncSemantics(t *testing.T) {
	runSemCases(t, []semCase{
		// f runs in a goroutine of its own at the deadline.
		{name: "fires", body: func(w *weft.T) {
			ran := weft.MakeChan[time.Duration](0)
			tm := weft.AfterFunc(10, func() { ran.Send(w.Now()) })
			w.Assert(tm.C == nil, "an AfterFunc timer has a channel")
			v := ran.Recv()
			w.Assert(v == 10, "ran at %v", v)
		}, execs: 1, complete: 1},
		// A stopped AfterFunc never runs its function.
		{name: "stopped", body: func(w *weft.T) {
			v := weft.NewVar[int]("ran")
			tm := weft.AfterFunc(10, func() { v.Store(1) })
			w.Assert(tm.Stop(), "Stop of an armed AfterFunc")
			w.Sleep(20)
			w.Assert(v.Load() == 0, "the function of a stopped AfterFunc ran")
		}, execs: 1, complete: 1},
		// Stop at the deadline races the firing: 0 or 1 runs of f.
		{name: "stop-at-deadline", body: func(w *weft.T) {
			v := weft.NewVar[int]("ran")
			tm := weft.AfterFunc(10, func() { v.Store(1) })
			w.Sleep(10)
			stopped := tm.Stop()
			w.Sleep(10)
			w.Assert(stopped == (v.Load() == 0), "stopped %v, ran %v", stopped, v.Load())
		}, execs: 6, complete: 6, finals: 2},
		// Reset after the function ran runs it again.
		{name: "reset", body: func(w *weft.T) {
			runs := weft.MakeChan[time.Duration](0)
			tm := weft.AfterFunc(10, func() { runs.Send(w.Now()) })
			v := runs.Recv()
			w.Assert(!tm.Reset(5), "Reset of a fired AfterFunc reports armed")
			v2 := runs.Recv()
			w.Assert(v == 10 && v2 == 15, "ran at %v and %v", v, v2)
		}, execs: 1, complete: 1},
		// The instant, not a duration from now.
		{name: "at", body: func(w *weft.T) {
			ran := weft.MakeChan[time.Duration](0)
			w.Sleep(3)
			weft.AfterFuncAt(10, "", func() { ran.Send(w.Now()) })
			v := ran.Recv()
			w.Assert(v == 10, "ran at %v", v)
		}, execs: 1, complete: 1},
	})
}

// TestTickerStrategies checks that the strategies that reduce the
// exploration find what exhaustive finds in programs with tickers and
// AfterFunc timers: the same final states and failure kinds, in both time
// modes.
func TestTickerStrategies(t *testing.T) {
	bodies := map[string]func(w *weft.T){
		"ticker-select": func(w *weft.T) {
			tk := weft.NewTicker(10)
			done := weft.MakeChan[int](0)
			n := weft.NewVar[int]("ticks")
			n.Store(0)
			w.Go(func() { w.Sleep(15); done.Send(1) })
			// Bounded: at any step, time may pass many ticks before the
			// sender wakes (then it leaks).
			for i, stopped := 0, false; i < 2 && !stopped; i++ {
				weft.Select(weft.OnRecv(tk.C, func(time.Duration, bool) { n.Store(n.Load() + 1) }),
					weft.OnRecv(done, func(int, bool) { tk.Stop(); stopped = true }))
			}
		},
		// The body's wake-up at 2 and the reader's second tick race: a
		// strategy that took the re-arming's decision (stopped, or the
		// body returned) as local to the reader explored one order only.
		"tick-after-return": func(w *weft.T) {
			tickReader(w, 3)
			w.Sleep(2)
		},
		// Another goroutine's Stop at 2 races with the second tick.
		"tick-after-stop": func(w *weft.T) {
			tk := tickReader(w, 3)
			w.Go(func() { w.Sleep(2); tk.Stop() })
			w.Sleep(5)
		},
		// Another goroutine's Reset at 2 races with the second tick: the
		// reader's third tick comes at 3 or at 2+3.
		"tick-after-reset": func(w *weft.T) {
			tk := tickReader(w, 3)
			w.Go(func() { w.Sleep(2); tk.Reset(3) })
			w.Sleep(6)
			tk.Stop()
		},
		// At any step: the body's return stops the ticker, in a step of
		// its own that races with the clock's advance to the second tick.
		"tick-return-any": func(w *weft.T) {
			tickReader(w, 2)
			w.Sleep(1)
		},
		"afterfunc-stop": func(w *weft.T) {
			v := weft.NewVar[int]("ran")
			v.Store(0)
			tm := weft.AfterFunc(10, func() { v.Store(1) })
			w.Go(func() { w.Sleep(10); tm.Stop() })
			w.Sleep(20)
			w.Assert(v.Load() == 0, "ran")
		},
	}
	// exhaustive's executions: at any step, many more orders of the
	// ticks, the wake-up and the firing with the other steps.
	// The ticker programs whose reader takes three ticks are too many
	// executions at any step (the clock may pass several ticks between
	// two steps); tick-return-any is the small one for that mode.
	execs := map[string]map[weft.TimeMode]int{
		"ticker-select":     {weft.TimeWhenBlocked: 1, weft.TimeAnyStep: 9326},
		"tick-after-return": {weft.TimeWhenBlocked: 4},
		"tick-after-stop":   {weft.TimeWhenBlocked: 10},
		"tick-after-reset":  {weft.TimeWhenBlocked: 10},
		"tick-return-any":   {weft.TimeAnyStep: 3498},
		"afterfunc-stop":    {weft.TimeWhenBlocked: 6, weft.TimeAnyStep: 3798},
	}
	for _, mode := range []weft.TimeMode{weft.TimeWhenBlocked, weft.TimeAnyStep} {
		for name, body := range bodies {
			if _, ok := execs[name][mode]; !ok {
				continue
			}
			want, err := weft.Explore(body, weft.WithStrategy("exhaustive"), weft.KeepGoing(), weft.WithTime(mode))
			if err != nil {
				t.Fatal(err)
			}
			if n := execs[name][mode]; want.Executions != n || !want.Exhausted {
				t.Errorf("%s, time mode %v: exhaustive explored %d executions (exhausted %v); want %d", name, mode, want.Executions, want.Exhausted, n)
			}
			for _, s := range []string{"dpor", "dpor+sleep", "dpor-cr+sleep", "flip", "optimal", "reach"} {
				r, err := weft.Explore(body, weft.WithStrategy(s), weft.KeepGoing(), weft.WithTime(mode))
				if err != nil {
					t.Fatalf("%s %s: %v", name, s, err)
				}
				if r.FinalStates != want.FinalStates || !maps.Equal(kinds(r), kinds(want)) || !r.Exhausted {
					t.Errorf("%s, %s, time mode %v: %d final states, failures %v, exhausted %v; exhaustive: %d, %v",
						name, s, mode, r.FinalStates, kinds(r), r.Exhausted, want.FinalStates, kinds(want))
				}
			}
			t.Logf("%s, time mode %v: exhaustive %d executions, %d final states, failures %v", name, mode, want.Executions, want.FinalStates, want.FailureCounts)
		}
	}
}

// tickReader makes a ticker of period 1 and a goroutine that receives n of
// its ticks, storing the instant of each in a variable, and then fails.
func tickReader(w *weft.T, n int) *weft.Ticker {
	at := weft.NewVar[time.Duration]("at")
	tk := weft.NewTicker(1)
	w.Go(func() {
		for range n {
			at.Store(tk.C.Recv())
		}
		w.Fail("%d ticks, the last at %v", n, at.Load())
	})
	return tk
}

// kinds returns the failure kinds r found.
func kinds(r *weft.Result) map[trace.FailureKind]bool {
	m := map[trace.FailureKind]bool{}
	for k := range r.FailureCounts {
		m[k] = true
	}
	return m
}
