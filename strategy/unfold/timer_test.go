// Tests of timers on virtual time that moves when every thread is
// blocked: small programs against the unfolding of every interleaving,
// with their numbers of events and tests, and generated programs.

package unfold_test

import (
	"testing"

	"github.com/weft-go/weft"
	"github.com/weft-go/weft/strategy/unfold"
)

// timerPrograms are small programs with timers, with their numbers of
// events, tests and advance tests under the default options.
var timerPrograms = []struct {
	name                    string
	body                    func(*weft.T)
	events, tests, advances int
}{
	// Time moves to 2 (an advance of the body, the timer's thread and
	// T1), where the timer fires (the body's receive meets its thread)
	// or T1's Stop, after its wake-up, takes the armed timer: the Stop
	// takes the timer's thread's condition before or after the firing (2
	// Stops), and the body's store and T1's: 7 events. The Stop before
	// the firing leaves the body blocked for ever: 2 tests, one of them
	// a deadlock.
	{"a timer fired or stopped", func(w *weft.T) {
		x := weft.NewVar[int]("x")
		tm := weft.NewTimer(2)
		w.Go(func() {
			w.Sleep(2)
			if tm.Stop() {
				x.Store(1)
			}
		})
		tm.C.Recv()
		x.Store(2)
	}, 7, 2, 0},
	// One execution: advances to 2, 3 and 4; two receives, each followed
	// by the ticker's re-arming (a ResetAt) and a store; T1's wake-up and
	// store at 3; the Stop: 12 events.
	{"a ticker with two ticks", func(w *weft.T) {
		x := weft.NewVar[int]("x")
		tk := weft.NewTicker(2)
		w.Go(func() { w.Sleep(3); x.Store(1) })
		for range 2 {
			x.Store(int(tk.C.Recv()))
		}
		tk.Stop()
	}, 12, 1, 0},
	// The body returns at once; time moves to 1 (an advance), where the
	// AfterFunc's goroutine's select meets the timer's thread and T2
	// wakes; their stores race: 2 orders, 4 store events, 7 in all, 2
	// tests.
	{"AfterFunc racing a store", func(w *weft.T) {
		x := weft.NewVar[int]("x")
		weft.AfterFunc(1, func() { x.Store(1) })
		w.Go(func() { w.Sleep(1); x.Store(2) })
	}, 7, 2, 0},
}

// TestTimers runs timerPrograms against exhaustive search, with the
// efficient, the naive and the random extensions.
func TestTimers(t *testing.T) {
	for _, c := range timerPrograms {
		st, _, ok := againstExhaustive(t, c.name, c.body, unfold.Options{}, unfold.Options{Naive: true}, unfold.Options{Seed: 3})
		if !ok {
			t.Fatalf("%s: too big for exhaustive search", c.name)
		}
		if st.Events != c.events || st.Tests != c.tests || st.AdvanceTests != c.advances {
			t.Errorf("%s: %d events, %d tests, %d advance tests; want %d, %d, %d", c.name, st.Events, st.Tests, st.AdvanceTests, c.events, c.tests, c.advances)
		}
	}
}
