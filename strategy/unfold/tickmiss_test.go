// Tests of tickers, whose Stop and Reset change the ticker's state in
// their steps on its timer and whose deadlines no longer move time once
// the test body has returned: another thread's Stop or Reset racing a tick
// and its re-arming, and the body's return racing a reader that waits for
// a tick, against exhaustive search, with exact numbers.

package unfold_test

import (
	"strings"
	"testing"

	"github.com/weft-go/weft"
	"github.com/weft-go/weft/strategy/unfold"
	"github.com/weft-go/weft/trace"
)

// tickAfterReturn has a thread that reads three ticks of a ticker of
// period 1 and then fails, while the body sleeps until 2 and returns
// without stopping the ticker. The reader gets the ticks at 1 and 2 (the
// second is due at the advance to 2, whatever the order of the body's
// return and its receive) and re-arms the ticker at 3; once the body has
// returned, that deadline no longer moves time, and the reader leaks in
// every execution. (Before a ticker's state was set in its steps, the
// body's return decided in the receiver's local code whether the second
// tick re-armed the ticker: the strategies that take the return as
// independent of the receive explored one execution of five.)
func tickAfterReturn(w *weft.T) {
	tickReader(w)
	w.Sleep(2)
}

// tickReader makes a ticker of period 1 and a thread that reads three of
// its ticks, counting them in a variable, and then fails.
func tickReader(w *weft.T) *weft.Ticker {
	x := weft.NewVar[int]("x")
	tk := weft.NewTicker(1)
	w.Go(func() {
		for range 3 {
			tk.C.Recv()
			x.Store(x.Load() + 1)
		}
		w.Fail("three ticks")
	})
	return tk
}

// tickAfterStop is tickAfterReturn with a Stop: another thread sleeps
// until 2 and stops the ticker, racing the second tick. The Stop comes
// before the tick (which is then never received), between the tick and
// its re-arming (which applies the Stop again), or after the re-arming;
// the reader leaks in every execution.
func tickAfterStop(w *weft.T) {
	tk := tickReader(w)
	w.Go(func() {
		w.Sleep(2)
		tk.Stop()
	})
	w.Sleep(5)
}

// stoppedByAnother is tickAfterStop with the body as the thread that
// stops the ticker, after its Sleep, and returns.
func stoppedByAnother(w *weft.T) {
	x := weft.NewVar[int]("x")
	tk := weft.NewTicker(1)
	w.Go(func() {
		for range 3 {
			tk.C.Recv()
			x.Store(x.Load() + 1)
		}
	})
	w.Sleep(2)
	tk.Stop()
}

// returnByRace has the body return at 1 if it loads 0, before the reader
// stores 1 after its first tick, and sleep on otherwise: the reader's
// second tick moves time (and the reader fails) only where the body still
// sleeps when every thread is blocked.
func returnByRace(w *weft.T) {
	x := weft.NewVar[int]("x")
	tk := weft.NewTicker(1)
	w.Go(func() {
		tk.C.Recv()
		x.Store(1)
		tk.C.Recv()
		w.Fail("two ticks")
	})
	w.Sleep(1)
	if x.Load() == 1 {
		w.Sleep(5)
	}
}

// TestTickerRaces: exhaustive search's executions and failure kinds, and
// unfold's: the unfolding of every interleaving (againstExhaustiveKinds,
// with the efficient, the naive, a random and a plain free part), the
// same failure kinds, its numbers of events and tests and of each kind of
// failure; with a Stop racing the second tick, the re-arming after the
// tick is followed by the Stop applied again in some event and by the
// reader's load in another. return: exhaustive 5 executions, 5 leaks;
// unfold 11 events, 1 test. stop: 15, 15 leaks; 24 events, 3 tests.
// another: 15, 15 leaks; 18 events, 3 tests. race: 10, 4 assertions and
// 6 leaks; 11 events, 2 tests.
func TestTickerRaces(t *testing.T) {
	for _, c := range []struct {
		name          string
		body          func(*weft.T)
		execs         int
		fails, leaks  int
		events, tests int
		uFails        int
		uLeaks        int
		stop          bool // a Stop races the second tick
	}{
		{"return", tickAfterReturn, 5, 0, 5, 11, 1, 0, 1, false},
		{"stop", tickAfterStop, 15, 0, 15, 24, 3, 0, 3, true},
		{"another", stoppedByAnother, 15, 0, 15, 18, 3, 0, 3, true},
		{"race", returnByRace, 10, 4, 6, 11, 2, 1, 1, false},
	} {
		r, err := weft.Explore(c.body, weft.WithStrategy("exhaustive"), weft.KeepGoing(), weft.NoReplayFiles())
		if err != nil || !r.Exhausted || r.Executions != c.execs || r.FailureCounts[trace.Assertion] != c.fails || r.FailureCounts[trace.Leak] != c.leaks || len(r.FailureCounts) != min(c.fails, 1)+min(c.leaks, 1) {
			t.Errorf("%s: exhaustive: %v, %+v; want %d executions, %d assertions, %d leaks", c.name, err, r, c.execs, c.fails, c.leaks)
		}
		_, _, ok, same := againstExhaustiveKinds(t, c.name, c.body, unfold.Options{}, unfold.Options{Naive: true}, unfold.Options{Seed: 3}, unfold.Options{Plain: true})
		if !ok || !same {
			t.Errorf("%s: unfold's failure kinds differ from exhaustive search's (or exhaustive search ran out: %v)", c.name, !ok)
		}
		s := unfold.New(unfold.Options{})
		r, err = weft.Explore(c.body, weft.WithCustomStrategy(s), weft.KeepGoing(), weft.NoReplayFiles())
		st := s.Stats()
		if err != nil || s.Err() != nil || s.Diverged() != nil || !r.Exhausted || r.Executions != c.tests || st.Events != c.events || st.Unexpected != 0 ||
			r.FailureCounts[trace.Assertion] != c.uFails || r.FailureCounts[trace.Leak] != c.uLeaks || len(r.FailureCounts) != min(c.uFails, 1)+min(c.uLeaks, 1) {
			t.Errorf("%s: unfold: error %v, Err %v, Diverged %v; %d events, %d tests, %+v, failures %v; want %d events, %d tests, %d assertions, %d leaks", c.name, err, s.Err(), s.Diverged(), st.Events, r.Executions, st, r.FailureCounts, c.events, c.tests, c.uFails, c.uLeaks)
		}
		if again, not := rearmNexts(s.Unfolding(), "0.1"); c.stop && (again == 0 || not == 0) {
			t.Errorf("%s: the reader's re-armings are followed by %d Stops applied again and %d loads; want both", c.name, again, not)
		}
	}
}

// rearmNexts counts the re-armings of a ticker by thread th in u (a
// timer.stop event whose thread's previous event is a tick, a receive or
// a select) that a Stop or Reset applied again follows (another thread
// changed the ticker between the tick and the re-arming), and those that
// another operation follows.
func rearmNexts(u unfold.Unfolding, th string) (again, not int) {
	state, producer := map[int]string{}, map[int]int{}
	for _, c := range u.Conditions {
		state[c.ID], producer[c.ID] = c.State, c.Producer
	}
	ops := map[int]string{}
	for _, e := range u.Events {
		ops[e.ID] = e.Op
	}
	for _, e := range u.Events {
		if e.Thread != th || !strings.HasPrefix(e.Op, "timer.stop") {
			continue
		}
		if prev := ops[producer[e.Pre[0]]]; !strings.HasPrefix(prev, "recv") && !strings.HasPrefix(prev, "select") {
			continue
		}
		if strings.HasPrefix(state[e.Post[0]], "timer.stop") {
			again++
		} else {
			not++
		}
	}
	return again, not
}

// tickerPrograms are small programs with tickers, with exhaustive
// search's executions and failure kinds, unfold's numbers of events and
// tests, and whether another thread's Stop or Reset races a tick's
// re-arming (both orders in the unfolding).
var tickerPrograms = []struct {
	name          string
	body          func(*weft.T)
	execs         int
	fails, leaks  int
	events, tests int
	again         bool
}{
	// Another thread resets the ticker to 3 at 2, racing the second tick
	// and its re-arming; the reader gets its third tick and fails in
	// every execution.
	{"reset by another", func(w *weft.T) {
		tk := tickReader(w)
		w.Go(func() { w.Sleep(2); tk.Reset(3) })
		w.Sleep(9)
		tk.Stop()
	}, 15, 15, 0, 38, 3, true},
	// The stopper stores before its Stop.
	{"store before stop", func(w *weft.T) {
		y := weft.NewVar[int]("y")
		tk := tickReader(w)
		w.Go(func() { w.Sleep(2); y.Store(1); tk.Stop() })
		w.Sleep(5)
	}, 35, 0, 35, 25, 3, true},
	// The stopper stops the ticker if it loads 1, which another thread
	// stores.
	{"stop if loaded", func(w *weft.T) {
		y := weft.NewVar[int]("y")
		tk := tickReader(w)
		w.Go(func() { y.Store(1) })
		w.Go(func() {
			w.Sleep(2)
			if y.Load() == 1 {
				tk.Stop()
			}
		})
		w.Sleep(5)
	}, 35, 0, 35, 26, 3, true},
	// The stopper locks and unlocks a mutex before its Stop.
	{"unlock before stop", func(w *weft.T) {
		var mu weft.Mutex
		tk := tickReader(w)
		w.Go(func() { w.Sleep(2); mu.Lock(); mu.Unlock(); tk.Stop() })
		w.Sleep(5)
	}, 70, 0, 70, 26, 3, true},
	// The body returns after a Join of a sleeper that wakes at 2: the
	// second tick, due then, is received, and the third never comes.
	{"return after join", func(w *weft.T) {
		tickReader(w)
		h := w.Go(func() { w.Sleep(2) })
		h.Join()
	}, 15, 0, 15, 12, 1, false},
	// The reader takes its ticks in a select beside a channel no one
	// sends on.
	{"select reader", func(w *weft.T) {
		x := weft.NewVar[int]("x")
		done := weft.MakeChan[int](0)
		tk := weft.NewTicker(1)
		w.Go(func() {
			for range 3 {
				weft.Select(weft.OnRecv(tk.C, nil), weft.OnRecv(done, nil))
				x.Store(x.Load() + 1)
			}
		})
		w.Go(func() { w.Sleep(2); tk.Stop() })
		w.Sleep(5)
	}, 15, 0, 15, 24, 3, true},
	// Two tickers, each read twice by a thread that then fails; the body
	// returns at 1, after which neither ticker moves time.
	{"two tickers, return", func(w *weft.T) {
		for range 2 {
			tk := weft.NewTicker(1)
			w.Go(func() {
				tk.C.Recv()
				tk.C.Recv()
				w.Fail("two ticks")
			})
		}
		w.Sleep(1)
	}, 30, 0, 30, 6, 1, false},
	// The body returns at once; a sleeper's deadline, 3, still moves
	// time after it, which makes the ticker's tick at 2 due: the reader
	// receives it, re-arms the ticker at 4, and leaks.
	{"sleep after return", func(w *weft.T) {
		x := weft.NewVar[int]("x")
		tk := weft.NewTicker(2)
		w.Go(func() {
			tk.C.Recv()
			x.Store(x.Load() + 1)
			tk.C.Recv()
			w.Fail("two ticks")
		})
		w.Go(func() { w.Sleep(3); x.Store(5) })
	}, 15, 0, 15, 12, 3, false},
	// Another thread resets the ticker to 2 at 1, racing the first tick,
	// and the body returns at 1: the reset ticker never ticks again.
	{"reset after return", func(w *weft.T) {
		tk := weft.NewTicker(1)
		w.Go(func() {
			tk.C.Recv()
			tk.C.Recv()
			w.Fail("two ticks")
		})
		w.Go(func() { w.Sleep(1); tk.Reset(2) })
		w.Sleep(1)
	}, 30, 0, 30, 10, 3, true},
}

// TestTickerPrograms runs tickerPrograms with exhaustive search and
// against it (againstExhaustiveKinds, with the efficient, the naive, a
// random and a plain free part): the same events, the same sets of
// blocked threads, the same failure kinds; and pins the numbers of both.
func TestTickerPrograms(t *testing.T) {
	for _, c := range tickerPrograms {
		r, err := weft.Explore(c.body, weft.WithStrategy("exhaustive"), weft.KeepGoing(), weft.NoReplayFiles())
		if err != nil || !r.Exhausted || r.Executions != c.execs || r.FailureCounts[trace.Assertion] != c.fails || r.FailureCounts[trace.Leak] != c.leaks || len(r.FailureCounts) != min(c.fails, 1)+min(c.leaks, 1) {
			t.Errorf("%s: exhaustive: %v, %d executions, failures %v; want %d executions, %d assertions, %d leaks", c.name, err, r.Executions, r.FailureCounts, c.execs, c.fails, c.leaks)
		}
		st, _, ok, same := againstExhaustiveKinds(t, c.name, c.body, unfold.Options{}, unfold.Options{Naive: true}, unfold.Options{Seed: 3}, unfold.Options{Plain: true})
		if !ok || !same || st.Events != c.events || st.Tests != c.tests {
			t.Errorf("%s: exhaustive search ran out: %v, same failure kinds: %v; %d events, %d tests; want %d, %d", c.name, !ok, same, st.Events, st.Tests, c.events, c.tests)
		}
		if c.again {
			_, s := explore(t, c.body, unfold.Options{})
			if again, not := rearmNexts(s.Unfolding(), "0.1"); again == 0 || not == 0 {
				t.Errorf("%s: the reader's re-armings are followed by %d changes applied again and %d other operations; want both", c.name, again, not)
			}
		}
	}
}
