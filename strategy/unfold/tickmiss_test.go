// Tests of tickers whose re-arming after a tick the return of the body or
// another thread's Stop decides: the writers of the ticker's hidden state
// learnt, the unfolding built again, both orders of each race explored.

package unfold_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/weft-go/weft"
	"github.com/weft-go/weft/strategy"
	"github.com/weft-go/weft/strategy/unfold"
	"github.com/weft-go/weft/trace"
)

// tickAfterReturn has a thread that reads three ticks of a ticker of
// period 1 and then fails, while the body sleeps until 2 and returns
// without stopping the ticker. At 2 the body's wake-up (after which it
// returns) and the second tick race: if the body returns first, the
// tick does not re-arm the ticker and the reader leaks; if the tick
// comes first, it re-arms it and the reader gets the third tick at 3 and
// fails. Exhaustive search finds both; unfold's tick was one event,
// which one order alone covered, until the body's wake-up took the
// condition of the ticker's thread.
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
// until 2 and stops the ticker, which races with the second tick as the
// body's return does (the Stop sets the ticker's state in the local code
// before its step). The Stop's step comes before time moves again, so
// the reader leaks in every execution, but the tick is followed by the
// ticker's re-arming in one order and not in the other.
func tickAfterStop(w *weft.T) {
	tk := tickReader(w)
	w.Go(func() {
		w.Sleep(2)
		tk.Stop()
	})
	w.Sleep(5)
}

// stoppedByAnother is tickAfterStop with the body as the thread that
// stops the ticker, after its Sleep, and returns: the body's wake-up both
// sets the ticker's stopped state and, one step later, returns.
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

// TestTickerHiddenState: exhaustive search finds the failure of the
// reader that gets three ticks, and a leak (return: 5 executions, 4
// assertions, 1 leak; stop and another: 15 executions, 15 leaks). unfold
// refused these programs (ErrUnmodelled) as soon as its unfolding held a
// tick concurrent with the event whose local code sets the ticker's
// stopped state or returns from the body; it now learns that event's key
// (the sleeper's wake-up), builds the unfolding again (1 rebuild), and
// explores both orders of the race: the unfolding of every interleaving
// (againstExhaustiveKinds, with the efficient, the naive, a random and a
// plain free part), the same failure kinds, and the second tick followed
// by the ticker's re-arming in some event and by the reader's load in
// another. return: 27 events, 3 tests (2 assertions, 1 leak); stop: 45
// events, 6 tests (6 leaks); another: 33 events, 6 tests (6 leaks).
func TestTickerHiddenState(t *testing.T) {
	for _, c := range []struct {
		name          string
		body          func(*weft.T)
		execs         int
		fails, leaks  int
		events, tests int
		uFails        int
		uLeaks        int
	}{
		{"return", tickAfterReturn, 5, 4, 1, 27, 3, 2, 1},
		{"stop", tickAfterStop, 15, 0, 15, 45, 6, 0, 6},
		{"another", stoppedByAnother, 15, 0, 15, 33, 6, 0, 6},
	} {
		r, err := weft.Explore(c.body, weft.WithStrategy("exhaustive"), weft.KeepGoing(), weft.NoReplayFiles())
		if err != nil || !r.Exhausted || r.Executions != c.execs || r.FailureCounts[trace.Assertion] != c.fails || r.FailureCounts[trace.Leak] != c.leaks {
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
			r.FailureCounts[trace.Assertion] != c.uFails || r.FailureCounts[trace.Leak] != c.uLeaks || len(r.FailureCounts) != min(c.uFails, 1)+1 {
			t.Errorf("%s: unfold: error %v, Err %v, Diverged %v; %d events, %d tests, %+v, failures %v; want %d events, %d tests, 1 rebuild, %d assertions, %d leaks", c.name, err, s.Err(), s.Diverged(), st.Events, r.Executions, st, r.FailureCounts, c.events, c.tests, c.uFails, c.uLeaks)
		}
		if !slices.ContainsFunc(r.Counters, func(c strategy.Counter) bool { return c.Name == "net rebuilds" && c.Value == 1 }) {
			t.Errorf("%s: counters %v; want net rebuilds 1", c.name, r.Counters)
		}
		if rearm, skip := tickNexts(s.Unfolding(), "0.1"); rearm == 0 || skip == 0 {
			t.Errorf("%s: the reader's ticks are followed by %d re-armings and %d loads; want both", c.name, rearm, skip)
		}
	}
}

// tickNexts counts the receives of thread th in u (the reader: the
// ticker's timer thread is 0.0) that the ticker's
// re-arming follows, and those that a load follows (the ticker stopped,
// or the body returned, before the tick).
func tickNexts(u unfold.Unfolding, th string) (rearm, skip int) {
	state := map[int]string{}
	for _, c := range u.Conditions {
		state[c.ID] = c.State
	}
	for _, e := range u.Events {
		if e.Thread != th || !strings.HasPrefix(e.Op, "recv") {
			continue
		}
		switch next := state[e.Post[0]]; {
		case strings.HasPrefix(next, "timer.stop"):
			rearm++
		case strings.HasPrefix(next, "load"):
			skip++
		}
	}
	return rearm, skip
}

// tickerPrograms are small programs whose tickers' re-arming another
// thread or the body's return decides, with unfold's numbers of events
// and tests (each builds its unfolding again once).
var tickerPrograms = []struct {
	name          string
	body          func(*weft.T)
	events, tests int
}{
	// Another thread resets the ticker to 3 at 2, racing the second tick,
	// whose re-arming the Reset's local code decides; the reader gets its
	// third tick and fails in every execution (exhaustive search: 16
	// executions, 16 assertions).
	{"reset by another", func(w *weft.T) {
		tk := tickReader(w)
		w.Go(func() { w.Sleep(2); tk.Reset(3) })
		w.Sleep(9)
		tk.Stop()
	}, 78, 7},
	// The stopper stores before its Stop: the store's local code sets
	// the stopped state (a write whose copies come before the timer
	// thread's condition in its preset). 36 executions, 36 leaks.
	{"store before stop", func(w *weft.T) {
		y := weft.NewVar[int]("y")
		tk := tickReader(w)
		w.Go(func() { w.Sleep(2); y.Store(1); tk.Stop() })
		w.Sleep(5)
	}, 46, 6},
	// The stopper stops the ticker if it loads 1, which another thread
	// stores: the load's events all take the timer thread's condition,
	// those that do not stop it too. 36 executions, 36 leaks.
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
	}, 47, 6},
	// The stopper's Unlock sets the stopped state. 72 executions, 72
	// leaks.
	{"unlock before stop", func(w *weft.T) {
		var mu weft.Mutex
		tk := tickReader(w)
		w.Go(func() { w.Sleep(2); mu.Lock(); mu.Unlock(); tk.Stop() })
		w.Sleep(5)
	}, 47, 6},
	// The body returns after a Join of a sleeper, racing the second tick.
	// 15 executions, 14 assertions, 1 leak.
	{"return after join", func(w *weft.T) {
		tickReader(w)
		h := w.Go(func() { w.Sleep(2) })
		h.Join()
	}, 28, 3},
	// The reader takes its ticks in a select beside a channel no one
	// sends on. 15 executions, 15 leaks.
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
	}, 45, 6},
	// Two tickers, each read twice by a thread that then fails; the
	// body's return at 1 races both first ticks. 40 executions, 38
	// assertions, 2 leaks.
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
	}, 46, 13},
}

// TestTickerPrograms runs tickerPrograms against exhaustive search
// (againstExhaustiveKinds, with the efficient, the naive, a random and a
// plain free part): the same events, the same sets of blocked threads,
// the same failure kinds; and pins unfold's numbers.
func TestTickerPrograms(t *testing.T) {
	for _, c := range tickerPrograms {
		st, _, ok, same := againstExhaustiveKinds(t, c.name, c.body, unfold.Options{}, unfold.Options{Naive: true}, unfold.Options{Seed: 3}, unfold.Options{Plain: true})
		if !ok || !same || st.Events != c.events || st.Tests != c.tests {
			t.Errorf("%s: exhaustive search ran out: %v, same failure kinds: %v; %d events, %d tests, %d rebuilds; want %d, %d, 1", c.name, !ok, same, st.Events, st.Tests, 0, c.events, c.tests)
		}
	}
}
