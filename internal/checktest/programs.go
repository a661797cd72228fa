// This file holds the test bodies that the tests of several packages
// share: programs on Conds and monitors, and on virtual time.

package checktest

import (
	"time"

	"github.com/weft-go/weft"
	"github.com/weft-go/weft/programs"
)

// BBMonitor is the built-in bounded buffer on a monitor (SC or SU) with two
// producers, two consumers and one slot.
func BBMonitor(su int) func(w *weft.T) {
	return programs.Lookup("bbmonitor").MustBody(map[string]int{"producers": 2, "consumers": 2, "slots": 1, "items": 1, "su": su})
}

// CondChain makes T1 wait, then T2 (started by T1 while it holds mu), then
// T3 (started by T2) wake them with Signal or Broadcast; T1, once woken,
// records it and signals.
func CondChain(broadcast bool) func(w *weft.T) {
	return func(w *weft.T) {
		var mu weft.Mutex
		var woke weft.Var[int]
		c := weft.NewCond(&mu)
		w.Go(func() {
			mu.Lock()
			w.Go(func() {
				mu.Lock()
				w.Go(func() {
					mu.Lock()
					if broadcast {
						c.Broadcast()
					} else {
						c.Signal()
					}
					mu.Unlock()
				})
				c.Wait()
				v := woke.Load()
				w.Assert(v == 1, "T2 woke first: Signal is not FIFO")
				mu.Unlock()
			})
			c.Wait()
			woke.Store(1)
			c.Signal()
			mu.Unlock()
		})
	}
}

// CondReady is the flag-and-signal pattern: a waiter waits for a flag
// (checked in a loop under the lock if loop), the body sets it and signals;
// rw makes the Locker an RWMutex (Wait is then Go's sequence of steps).
func CondReady(rw, loop bool) func(w *weft.T) {
	return func(w *weft.T) {
		var mu weft.Mutex
		var rwm weft.RWMutex
		var ready weft.Var[bool]
		var L weft.Locker = &mu
		if rw {
			L = &rwm
		}
		c := weft.NewCond(L)
		w.Go(func() {
			L.Lock()
			if loop {
				for !ready.Load() {
					c.Wait()
				}
			} else {
				c.Wait()
			}
			L.Unlock()
		})
		L.Lock()
		if loop {
			ready.Store(true)
		}
		c.Signal()
		L.Unlock()
	}
}

// A TimerProgram is a small program on virtual time, with the number of
// its distinct traces (complete and failed) and the executions
// Optimal-DPOR runs on it.
type TimerProgram struct {
	Name          string
	Body          func(w *weft.T)
	Traces, Execs int
}

// TimerPrograms are small programs with sleeps and timers, whose
// enabledness (virtual time) the strategy does not model: optimal must
// still find every trace exhaustive search finds, possibly with redundant
// executions. Traces is the number of distinct traces (complete
// and failed), Execs optimal's executions.
var TimerPrograms = []TimerProgram{
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

// A ModelProgram is a small program built on Conds and monitors, with the
// number of its Mazurkiewicz traces (complete and failed).
type ModelProgram struct {
	Name   string
	Body   func(w *weft.T)
	Traces int
}

// ModelPrograms are small programs built on Conds and monitors, with the
// number of Mazurkiewicz traces (complete and failed) exhaustive search
// finds.
var ModelPrograms = []ModelProgram{
	{"signal-chain", CondChain(false), 1},
	{"broadcast-chain", CondChain(true), 2},
	{"checked-wait", CondReady(false, true), 2},
	{"lost-signal", CondReady(false, false), 2},
	{"checked-wait-rwmutex", CondReady(true, true), 2},
	{"producers-consumers", condBuffer, 56},
	{"broadcast-three", condBroadcastThree, 20},
	{"bbmonitor-sc", BBMonitor(0), 56},
	{"bbmonitor-su", BBMonitor(1), 24},
	{"monitor-signalall", monitorSignalAll, 20},
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
