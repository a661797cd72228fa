// This file checks Optimal-DPOR on programs with condition variables and
// monitors, whose waiters' enabledness the strategy takes from package
// model: one execution per trace of exhaustive search, no decision left to
// chance.

package weft_test

import (
	"testing"
	"time"

	"github.com/weft-go/weft"
	"github.com/weft-go/weft/programs"
	"github.com/weft-go/weft/strategy/optimal"
)

// modelPrograms are small programs built on Conds and monitors, with the
// number of Mazurkiewicz traces (complete and failed) exhaustive search
// finds.
var modelPrograms = []struct {
	name   string
	body   func(w *weft.T)
	traces int
}{
	{"signal-chain", condChain(false), 1},
	{"broadcast-chain", condChain(true), 2},
	{"checked-wait", condReady(false, true), 2},
	{"lost-signal", condReady(false, false), 2},
	{"checked-wait-rwmutex", condReady(true, true), 2},
	{"producers-consumers", condBuffer, 56},
	{"broadcast-three", condBroadcastThree, 20},
	{"bbmonitor-sc", bbmonitor(0), 56},
	{"bbmonitor-su", bbmonitor(1), 24},
	{"monitor-signalall", monitorSignalAll, 20},
}

// bbmonitor is the built-in bounded buffer on a monitor (SC or SU) with two
// producers, two consumers and one slot.
func bbmonitor(su int) func(w *weft.T) {
	return programs.Lookup("bbmonitor").MustBody(map[string]int{"producers": 2, "consumers": 2, "slots": 1, "items": 1, "su": su})
}

// monitorSignalAll has two threads wait on an SC monitor's condition until
// a flag is set; the body sets it and wakes both with SignalAll.
func monitorSignalAll(w *weft.T) {
	m := weft.NewMonitor(weft.SC)
	c := m.Cond(0)
	ready := false
	var n weft.Int[int]
	wait := func() {
		m.Enter()
		for !ready {
			c.Wait()
		}
		m.Exit()
		n.Add(1)
	}
	w.Go(wait)
	w.Go(wait)
	m.Enter()
	ready = true
	c.SignalAll()
	m.Exit()
}

// condBuffer is a one-slot buffer guarded by a mutex and two Conds, with two
// producers and two consumers of one item each.
func condBuffer(w *weft.T) {
	var mu weft.Mutex
	var full weft.Var[bool]
	var sum weft.Var[int]
	notFull, notEmpty := weft.NewCond(&mu), weft.NewCond(&mu)
	put := func(v int) {
		mu.Lock()
		for full.Load() {
			notFull.Wait()
		}
		full.Store(true)
		sum.Store(sum.Load() + v)
		notEmpty.Signal()
		mu.Unlock()
	}
	take := func() {
		mu.Lock()
		for !full.Load() {
			notEmpty.Wait()
		}
		full.Store(false)
		notFull.Signal()
		mu.Unlock()
	}
	w.Go(func() { put(1) })
	w.Go(func() { put(2) })
	w.Go(take)
	take()
}

// condBroadcastThree has three waiters on one flag, woken by one Broadcast.
func condBroadcastThree(w *weft.T) {
	var mu weft.Mutex
	var ready weft.Var[bool]
	var n weft.Int[int]
	c := weft.NewCond(&mu)
	wait := func() {
		mu.Lock()
		for !ready.Load() {
			c.Wait()
		}
		mu.Unlock()
		n.Add(1)
	}
	w.Go(wait)
	w.Go(wait)
	mu.Lock()
	ready.Store(true)
	c.Broadcast()
	mu.Unlock()
}

// compareOptimal explores body with exhaustive search and with optimal
// (checking the work it keeps), and reports to t unless exhaustive search
// finds traces distinct traces (complete and failed) and optimal finds the
// same ones. It returns optimal's outcome and statistics.
func compareOptimal(t *testing.T, body func(w *weft.T), traces int) (*outcome, optimal.Stats) {
	t.Helper()
	ex, err := exploreRecorded(body, "exhaustive", 0)
	if err != nil {
		t.Fatal(err)
	}
	s := optimal.New()
	s.SetVerify(true)
	opt, err := exploreWith(body, s, "optimal", 0)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(ex.forms) + len(ex.failForms); n != traces {
		t.Errorf("exhaustive search found %d traces, want %d", n, traces)
	}
	if d := diffSets(keysOf(ex.forms), keysOf(opt.forms)); d != "" {
		t.Errorf("complete traces differ: %s", d)
	}
	if d := diffSets(keysOf(ex.failForms), keysOf(opt.failForms)); d != "" {
		t.Errorf("failing traces differ: %s", d)
	}
	return opt, s.Stats()
}

// TestOptimalModel checks optimal against exhaustive search on programs
// with Conds and monitors: the same traces, each once, none cut, and every
// enabledness decision taken by the model.
func TestOptimalModel(t *testing.T) {
	for _, c := range modelPrograms {
		t.Run(c.name, func(t *testing.T) {
			opt, st := compareOptimal(t, c.body, c.traces)
			if got := len(opt.forms) + len(opt.failForms); opt.executions != c.traces || opt.cut != 0 {
				t.Errorf("optimal: %d executions, %d distinct traces, %d cut; want %d, none cut", opt.executions, got, opt.cut, c.traces)
			}
			if st.Unmodelled != 0 || st.Infeasible != 0 || st.SleepBlocked != 0 {
				t.Errorf("strategy anomalies %+v", st)
			}
		})
	}
}

// timerPrograms are small programs with sleeps and timers, whose
// enabledness (virtual time) the strategy does not model: optimal must
// still find every trace exhaustive search finds, possibly with redundant
// executions. traces is the number of distinct traces (complete and
// failed), execs optimal's executions.
var timerPrograms = []struct {
	name          string
	body          func(w *weft.T)
	traces, execs int
}{
	{"sleep-race", func(w *weft.T) {
		var x weft.Var[int]
		w.Go(func() { w.Sleep(10); x.Store(1) })
		w.Go(func() { w.Sleep(10); x.Store(2) })
		x.Load()
	}, 4, 5},
	{"timeout-select", func(w *weft.T) {
		c := weft.MakeChan[int](0)
		w.Go(func() { w.Sleep(10); c.Send(1) })
		weft.Select(weft.OnRecv(c, nil), weft.OnRecv(w.After(10), nil))
	}, 3, 3},
	// The timer's thread never sends by itself (its send is completed by
	// a receive): the model says so, and the race of the Stop with that
	// send is not reversed. Before package model, the strategy took the
	// send for unmodelled, reversed the race, and ran a fourth execution,
	// cut by its sleep set.
	{"timer-stop", func(w *weft.T) {
		tm := weft.NewTimer(10)
		var x weft.Var[int]
		w.Go(func() { w.Sleep(10); x.Store(1); tm.Stop() })
		tm.C.Recv()
		x.Load()
	}, 3, 3},
	{"sleep-mutex", func(w *weft.T) {
		var mu weft.Mutex
		var x weft.Var[int]
		w.Go(func() { mu.Lock(); w.Sleep(5); x.Store(1); mu.Unlock() })
		w.Go(func() { w.Sleep(3); mu.Lock(); x.Store(2); mu.Unlock() })
		mu.Lock()
		x.Load()
		mu.Unlock()
	}, 3, 7},
	{"two-timers", func(w *weft.T) {
		a, b := weft.NewTimer(10), weft.NewTimer(10)
		var x weft.Var[int]
		w.Go(func() { a.C.Recv(); x.Store(1) })
		weft.Select(weft.OnRecv(b.C, func(time.Duration, bool) { x.Store(2) }), weft.OnRecv(w.After(10), nil))
		b.Stop()
		x.Load()
	}, 5, 5},
	// The race of the send on c with the select, reversed, gives the
	// select its timer case, which the model cannot tell is not due (the
	// Reset moved it to 20; time does not move while a thread can): the
	// branch is infeasible, and the state after the send, and after the
	// Reset, sleep-set blocked: 2 cut executions.
	{"reset-race", func(w *weft.T) {
		tm := weft.NewTimer(10)
		c := weft.MakeChan[int](1)
		w.Go(func() { w.Sleep(10); tm.Reset(10); c.Send(1) })
		weft.Select(weft.OnRecv(tm.C, nil), weft.OnRecv(c, nil))
	}, 2, 4},
	// A loop that polls the clock with a load between reads: every third
	// read sleeps for a millisecond (engine.PollQuantum), so the loop ends
	// whether or not it sees the store.
	{"poll", func(w *weft.T) {
		var x, y weft.Var[int]
		w.Go(func() { x.Store(1) })
		for w.Now() < 2*time.Millisecond && x.Load() == 0 {
		}
		y.Store(int(w.Now() / time.Millisecond))
	}, 3, 4},
}

// TestOptimalTimers checks that optimal finds every trace exhaustive search
// finds in programs with sleeps and timers, and pins the counts.
func TestOptimalTimers(t *testing.T) {
	for _, c := range timerPrograms {
		t.Run(c.name, func(t *testing.T) {
			opt, _ := compareOptimal(t, c.body, c.traces)
			if !opt.exhausted || opt.executions != c.execs {
				t.Errorf("optimal: %d executions (exhausted %v), want %d", opt.executions, opt.exhausted, c.execs)
			}
		})
	}
}
