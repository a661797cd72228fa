// Tests of timers on virtual time that moves when every thread is
// blocked: small programs against the unfolding of every interleaving,
// with their numbers of events and tests, and generated programs.

package unfold_test

import (
	"fmt"
	"maps"
	"testing"
	"time"

	"github.com/weft-go/weft"
	"github.com/weft-go/weft/internal/gen"
	"github.com/weft-go/weft/internal/gen/genweft"
	"github.com/weft-go/weft/strategy/unfold"
)

// timerPrograms are small programs with timers.
var timerPrograms = []timedProgram{
	// Time moves to 2 (an advance of the body, the timer's thread and
	// T1), where the timer fires (the body's receive meets its thread)
	// or the other thread's Stop, after its wake-up, takes the armed timer: the Stop
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
	// by the ticker's re-arming (a ResetAt) and a store; the sleeper's
	// wake-up and store at 3; the Stop: 12 events.
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
	// AfterFunc's goroutine's select meets the timer's thread and the
	// sleeper wakes; their stores race: 2 orders, 4 store events, 7 in all, 2
	// tests.
	{"AfterFunc racing a store", func(w *weft.T) {
		x := weft.NewVar[int]("x")
		weft.AfterFunc(1, func() { x.Store(1) })
		w.Go(func() { w.Sleep(1); x.Store(2) })
	}, 7, 2, 0},
	// Time moves to 1, where the sender wakes and the timeout is due:
	// the select meets the timer's thread (and stores) or, after the
	// wake-up, the sender; the sender that missed it leaks. 5 events, 2
	// tests.
	{"a timeout racing a sender", func(w *weft.T) {
		x := weft.NewVar[int]("x")
		ch := weft.MakeChan[int](0)
		w.Go(func() { w.Sleep(1); ch.Send(1) })
		weft.Select(weft.OnRecv(ch, nil), weft.OnRecv(w.After(1), func(time.Duration, bool) { x.Store(7) }))
	}, 5, 2, 0},
	// Both threads wake at 1, where the timer is due: the poll meets
	// the timer's thread (and stores), or the Stop takes it first, armed
	// (and the poll's default takes it stopped), or after the firing
	// (disarmed): 8 events, 2 tests. A default where the timer is due is
	// none.
	{"a poll racing a Stop", func(w *weft.T) {
		x := weft.NewVar[int]("x")
		tm := weft.NewTimer(1)
		w.Go(func() {
			w.Sleep(1)
			weft.Select(weft.OnRecv(tm.C, func(time.Duration, bool) { x.Store(7) }), weft.OnDefault(nil))
		})
		w.Sleep(1)
		tm.Stop()
	}, 8, 2, 0},
	// At 1 the timer fires (the body's receive and store of 1) and the
	// Reset finds it disarmed, or the Reset re-arms it at 3 first (and
	// its thread stores 1): time moves to 3, where it fires (the body's
	// receive and store of 3). 10 events, 2 tests.
	{"a Reset racing the firing", func(w *weft.T) {
		x := weft.NewVar[int]("x")
		tm := weft.NewTimer(1)
		w.Go(func() {
			w.Sleep(1)
			if tm.Reset(2) {
				x.Store(1)
			}
		})
		x.Store(int(tm.C.Recv()))
	}, 10, 2, 0},
	// The receive blocks for ever: the runtime moves time to the other
	// timer's deadline before it reports the deadlock, which the
	// strategy models at the end of the execution (the advance: 2
	// events, the Stop's and the advance, 1 test).
	{"a stopped timer received from", func(w *weft.T) {
		tm := weft.NewTimer(1)
		weft.NewTimer(2)
		tm.Stop()
		tm.C.Recv()
	}, 2, 1, 0},
}

// TestTimers runs timerPrograms against exhaustive search, with the
// efficient and the naive extensions, a random free part, and a plain
// one.
func TestTimers(t *testing.T) {
	checkTimed(t, timerPrograms, unfold.Options{}, unfold.Options{Naive: true}, unfold.Options{Seed: 3}, unfold.Options{Plain: true, Seed: 5})
}

// timerKinds are the statements on timers unfold models, with those of
// event loops (gen.Loops).
var timerKinds = map[gen.Kind]bool{gen.Sleep: true, gen.Now: true, gen.Timeout: true,
	gen.Repeat: true, gen.TickLoop: true, gen.AfterLoop: true, gen.TinyTimer: true}

// TestGeneratedTimers runs againstExhaustive on generated programs with
// timers: gen.Timed's (sleeps, reads of the clock, timeouts) with at
// least one timeout, and gen.Loops's (tickers, loops of After, timers of
// tiny periods, polls), with the efficient, a random and the naive
// possible extensions: the same events, the same sets of blocked
// threads, the same failure kinds. 30 programs of each, 1000 with
// WEFT_LONG=1, or WEFT_UNFOLD_TIMERS of them. (gen.Loops's tickers are
// timers the loop re-arms; TestGeneratedTickers runs weft's Tickers.)
func TestGeneratedTimers(t *testing.T) {
	programs := sweepSize(30, 1000, "WEFT_UNFOLD_TIMERS")
	kinds := maps.Clone(modelled)
	maps.Copy(kinds, timerKinds)
	timers := map[gen.Kind]bool{gen.Timeout: true, gen.TickLoop: true, gen.AfterLoop: true, gen.TinyTimer: true}
	for _, o := range []struct {
		name string
		opts gen.Options
	}{{"timed", gen.Timed}, {"loops", gen.Loops}} {
		checked, events, advances, dl, bad, big := 0, 0, 0, 0, 0, 0
		for seed := uint64(0); checked < programs && seed < 1000000; seed++ {
			p := gen.NewWith(seed, o.opts)
			all := append([][]gen.Stmt{p.Main}, p.Threads...)
			use, ok := false, true
			for _, ss := range all {
				use = use || uses(ss, timers)
				ok = ok && only(ss, kinds, p.Chans)
			}
			if !use || !ok {
				continue
			}
			name := fmt.Sprintf("%s seed %d", o.name, seed)
			st, blocked, ok, same := againstExhaustiveKinds(t, name, genweft.Body(p), unfold.Options{}, unfold.Options{Seed: int64(seed) + 1}, unfold.Options{Naive: true})
			if !ok {
				big++
				continue
			}
			checked++
			events += st.Events
			advances += st.AdvanceTests
			if blocked > 0 {
				dl++
			}
			if !same {
				bad++
				t.Errorf("%s: failure kinds differ from exhaustive search's\n%v", name, p)
			}
		}
		if checked < programs {
			t.Errorf("%s: checked %d programs, want %d", o.name, checked, programs)
		}
		t.Logf("%s: %d programs (%d too big for exhaustive search), %d events, %d advance tests, %d that block, %d with other failure kinds", o.name, checked, big, events, advances, dl, bad)
	}
}
