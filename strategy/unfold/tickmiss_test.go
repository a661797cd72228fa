// Tests of tickers whose re-arming after a tick the return of the body or
// another thread's Stop decides: refused, never explored silently in part.

package unfold_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/weft-go/weft"
	"github.com/weft-go/weft/strategy/unfold"
	"github.com/weft-go/weft/trace"
)

// tickAfterReturn has a thread that reads three ticks of a ticker of
// period 1 and then fails, while the body sleeps until 2 and returns
// without stopping the ticker. At 2 the body's wake-up (after which it
// returns) and the second tick race: if the body returns first, the
// tick does not re-arm the ticker and the reader leaks; if the tick
// comes first, it re-arms it and the reader gets the third tick at 3 and
// fails. Exhaustive search finds both; unfold's tick is one event, which
// one order alone covers.
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

// TestTickerHiddenState: exhaustive search finds the failure of the
// reader that gets three ticks, and a leak; unfold, whose first test
// runs the other order, refuses the program (ErrUnmodelled) as soon as
// its unfolding holds the tick and the racing return or Stop's
// predecessor concurrent, instead of reporting an exhaustive exploration
// without the failure (which it did when it waited for two executions of
// one tick to disagree).
func TestTickerHiddenState(t *testing.T) {
	for _, c := range []struct {
		name         string
		body         func(*weft.T)
		execs        int
		fails, leaks int
		what         string
		unfoldRuns   int
	}{
		{"return", tickAfterReturn, 5, 4, 1, "the return of the test body", 1},
		{"stop", tickAfterStop, 15, 0, 15, "a Stop or Reset of the ticker by another thread", 1},
	} {
		r, err := weft.Explore(c.body, weft.WithStrategy("exhaustive"), weft.KeepGoing(), weft.NoReplayFiles())
		if err != nil || !r.Exhausted || r.Executions != c.execs || r.FailureCounts[trace.Assertion] != c.fails || r.FailureCounts[trace.Leak] != c.leaks {
			t.Errorf("%s: exhaustive: %v, %+v; want %d executions, %d assertions, %d leaks", c.name, err, r, c.execs, c.fails, c.leaks)
		}
		s := unfold.New(unfold.Options{})
		r, err = weft.Explore(c.body, weft.WithCustomStrategy(s), weft.KeepGoing(), weft.NoReplayFiles())
		if !errors.Is(err, unfold.ErrUnmodelled) || !errors.Is(s.Err(), unfold.ErrUnmodelled) || !strings.Contains(err.Error(), c.what) || s.Diverged() != nil {
			t.Errorf("%s: unfold: error %v, Err %v, Diverged %v; want the refusal naming %s", c.name, err, s.Err(), s.Diverged(), c.what)
		}
		if r == nil || r.Exhausted || r.Executions != c.unfoldRuns || r.Cut != 1 {
			t.Errorf("%s: unfold: %+v; want %d execution, cut, not exhausted", c.name, r, c.unfoldRuns)
		}
	}
}
