// This file tests the synchronisation pairs the runtime records
// (trace.Event.Src, package model's "Synchronisation pairs") with exact
// expectations on small programs, each run once under a fixed schedule.

package weft_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/weft-go/weft"
	"github.com/weft-go/weft/strategy"
	"github.com/weft-go/weft/trace"
)

// pairsOf runs body once, always choosing the lowest enabled thread (the
// highest if high), and describes the pairs of the execution: "i Tp op <- j
// Tq op" for each event i whose source is event j.
func pairsOf(t *testing.T, body func(w *weft.T), high bool) string {
	t.Helper()
	var got []string
	s := &ordered{high: high, finish: func(tr *trace.Trace) {
		for i := range tr.Events {
			e := &tr.Events[i]
			if j := e.Source(); j >= 0 {
				f := &tr.Events[j]
				got = append(got, fmt.Sprintf("%d %v %v <- %d %v %v", i, e.Thread, e.Op.Kind, j, f.Thread, f.Op.Kind))
			}
		}
	}}
	if _, err := weft.Explore(body, weft.WithCustomStrategy(s), weft.KeepGoing()); err != nil {
		t.Fatal(err)
	}
	return strings.Join(got, "; ")
}

// ordered runs one execution, choosing the lowest (or highest) enabled
// thread and its first alternative.
type ordered struct {
	high   bool
	done   bool
	finish func(*trace.Trace)
}

func (s *ordered) Next() bool { ok := !s.done; s.done = true; return ok }
func (s *ordered) Choose(st *strategy.State) strategy.Choice {
	n := len(st.Threads)
	for k := range n {
		i := k
		if s.high {
			i = n - 1 - k
		}
		if st.Threads[i].Alts > 0 {
			return strategy.Choice{Thread: trace.ThreadID(i)}
		}
	}
	panic("no enabled thread")
}
func (s *ordered) Input(_ *strategy.State, in strategy.InputRequest) uint64 { return in.Default }
func (s *ordered) Finish(tr *trace.Trace, _ trace.End)                      { s.finish(tr) }

func TestPairs(t *testing.T) {
	cases := []struct {
		name string
		body func(w *weft.T)
		high bool
		want string
	}{
		// T0's receives wait for T1's sends; the last sees the close.
		{"buffered", func(w *weft.T) {
			c := weft.MakeChan[int](1)
			w.Go(func() { c.Send(1); c.Send(2); c.Close() })
			c.Recv()
			c.Recv()
			c.RecvOK()
		}, false, "1 T0 recv <- 0 T1 send; 3 T0 recv <- 2 T1 send; 5 T0 recv <- 4 T1 close"},
		// A select's receive case takes a buffered value; a send on the
		// closed channel panics, paired with the close.
		{"select-close", func(w *weft.T) {
			c := weft.MakeChan[int](1)
			c.Send(1)
			weft.Select(weft.OnRecv(c, nil))
			c.Close()
			c.Send(2)
		}, false, "1 T0 select <- 0 T0 send; 3 T0 send <- 2 T0 close"},
		// An unbuffered rendezvous is one event (Partner), no pair.
		{"unbuffered", func(w *weft.T) {
			c := weft.MakeChan[int](0)
			w.Go(func() { c.Send(1) })
			c.Recv()
		}, false, ""},
		{"mutex", func(w *weft.T) {
			var mu weft.Mutex
			mu.Lock()
			w.Go(func() { mu.Lock(); mu.Unlock() })
			mu.Unlock()
		}, false, "2 T1 lock <- 1 T0 unlock"},
		// Lowest first: T0's RUnlock lets T1 lock in one step; T2's RLock
		// follows T1's Unlock.
		{"rwmutex", rwPairs, false, "2 T1 lock <- 1 T0 runlock; 4 T2 rlock <- 3 T1 unlock"},
		// Highest first: T2 reads, T1 announces itself (no pair: no
		// writer before) and takes the lock after T0's RUnlock.
		{"rwmutex-announced", rwPairs, true, "5 T1 lock <- 4 T0 runlock"},
		{"waitgroup", func(w *weft.T) {
			var wg weft.WaitGroup
			wg.Add(2)
			w.Go(func() { wg.Done() })
			w.Go(func() { wg.Done() })
			wg.Wait()
		}, false, "3 T0 wg.wait <- 2 T2 wg.add"},
		{"once", func(w *weft.T) {
			var once weft.Once
			w.Go(func() { once.Do(func() {}) })
			once.Do(func() {})
		}, false, "2 T1 once.do <- 1 T0 once.done"},
		// The Relock pairs with the Signal; T1's Lock with the Wait that
		// released the mutex.
		{"cond", func(w *weft.T) {
			var mu weft.Mutex
			c := weft.NewCond(&mu)
			w.Go(func() { mu.Lock(); c.Signal(); mu.Unlock() })
			mu.Lock()
			c.Wait()
			mu.Unlock()
		}, false, "2 T1 lock <- 1 T0 wait; 5 T0 relock <- 3 T1 signal"},
		// Units go first in, first out: each P takes the V before it.
		{"semaphore", func(w *weft.T) {
			s := weft.NewSemaphore(0)
			w.Go(func() { s.V(); s.V() })
			s.P()
			s.P()
		}, false, "1 T0 P <- 0 T1 V; 3 T0 P <- 2 T1 V"},
		// An initial unit has no source; the V's units wait their turn.
		{"semaphore-initial", func(w *weft.T) {
			s := weft.NewSemaphore(1)
			s.V()
			s.P()
			s.P()
		}, false, "2 T0 P <- 0 T0 V"},
		{"monitor-sc", monitorPairs(weft.SC), false, "2 T1 menter <- 1 T0 mwait; 5 T0 mreenter <- 3 T1 msignal"},
		// SU: the Signal hands the monitor to T0; T0's Exit hands it back
		// to T1, waiting urgently.
		{"monitor-su", monitorPairs(weft.SU), false, "2 T1 menter <- 1 T0 mwait; 4 T0 mreenter <- 3 T1 msignal; 6 T1 mreenter <- 5 T0 mexit"},
		{"variable", func(w *weft.T) {
			x := weft.NewVar[int]("x")
			var n weft.Int[int]
			x.Store(5)
			w.Go(func() { x.Load() })
			n.Add(1)
			n.Add(1)
			x.Swap(3)
		}, false, "2 T0 add <- 1 T0 add; 3 T0 swap <- 0 T0 store; 4 T1 load <- 3 T0 swap"},
		{"join", func(w *weft.T) {
			var x weft.Var[int]
			th := w.Go(func() { x.Store(1); x.Store(2) })
			th.Join()
		}, false, "2 T0 join <- 1 T1 store"},
	}
	for _, c := range cases {
		if got := pairsOf(t, c.body, c.high); got != c.want {
			t.Errorf("%s: pairs\n\t%s\nwant\n\t%s", c.name, got, c.want)
		}
	}
}

func rwPairs(w *weft.T) {
	var rw weft.RWMutex
	rw.RLock()
	w.Go(func() { rw.Lock(); rw.Unlock() })
	w.Go(func() { rw.RLock(); rw.RUnlock() })
	rw.RUnlock()
}

func monitorPairs(s weft.Signalling) func(w *weft.T) {
	return func(w *weft.T) {
		m := weft.NewMonitor(s)
		c := m.Cond(0)
		w.Go(func() { m.Enter(); c.Signal(); m.Exit() })
		m.Enter()
		c.Wait()
		m.Exit()
	}
}
