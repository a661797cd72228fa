// Tests of the misuses of Go's primitives that the runtime reports as
// failures (unlock of an unlocked Mutex or RWMutex, RUnlock without a
// reader, a negative WaitGroup counter, send on or close of a closed
// channel, close of a nil channel, a Cond's Wait without its lock, a
// monitor's Exit, Wait or Signal from outside and SignalAll on SU, a
// goroutine not started with w.Go, and runtime.Goexit in the body):
// unfold reports the same failure kinds as exhaustive search, whether the
// misuse happens in every interleaving or in some.

package unfold_test

import (
	"maps"
	"runtime"
	"testing"

	"github.com/weft-go/weft"
	"github.com/weft-go/weft/strategy/unfold"
	"github.com/weft-go/weft/trace"
)

// misuse is a body with a misuse, the kind of failure it has, and the
// executions and failures of exhaustive search and of unfold.
type misuse struct {
	name                 string
	body                 func(w *weft.T)
	kind                 trace.FailureKind
	exhaustive, unfolded counts
}

// counts are an exploration's executions and failures.
type counts struct{ executions, failures int }

// misuses lists the bodies of TestMisuses: each misuse in every
// interleaving ("every") and in some ("some").
var misuses = []misuse{
	{"mutex unlock/every", func(w *weft.T) {
		var mu weft.Mutex
		mu.Unlock()
	}, trace.UnlockOfUnlocked, counts{1, 1}, counts{1, 1}},
	{"mutex unlock/some", func(w *weft.T) {
		var mu weft.Mutex
		th := w.Go(func() { mu.Lock() })
		mu.Unlock()
		th.Join()
	}, trace.UnlockOfUnlocked, counts{2, 1}, counts{2, 1}},
	{"rwmutex unlock/every", func(w *weft.T) {
		var rw weft.RWMutex
		th := w.Go(func() { rw.RLock() })
		rw.Unlock()
		th.Join()
	}, trace.UnlockOfUnlocked, counts{2, 2}, counts{2, 2}},
	{"rwmutex unlock/some", func(w *weft.T) {
		var rw weft.RWMutex
		th := w.Go(func() { rw.Lock() })
		rw.Unlock()
		th.Join()
	}, trace.UnlockOfUnlocked, counts{2, 1}, counts{2, 1}},
	{"runlock/every", func(w *weft.T) {
		var rw weft.RWMutex
		rw.RUnlock()
	}, trace.UnlockOfUnlocked, counts{1, 1}, counts{1, 1}},
	{"runlock/every two threads", func(w *weft.T) {
		var rw weft.RWMutex
		th := w.Go(func() { rw.RLock(); rw.RUnlock() })
		rw.RUnlock()
		th.Join()
	}, trace.UnlockOfUnlocked, counts{3, 3}, counts{3, 3}},
	{"runlock/some", func(w *weft.T) {
		var rw weft.RWMutex
		th := w.Go(func() { rw.RUnlock() })
		rw.RLock()
		th.Join()
	}, trace.UnlockOfUnlocked, counts{2, 1}, counts{2, 1}},
	{"runlock/some after a stranger's", func(w *weft.T) {
		// T1's RUnlock fails if T2's took its read lock and T3 has not
		// taken one yet.
		var rw weft.RWMutex
		t1 := w.Go(func() { rw.RLock(); rw.RUnlock() })
		t2 := w.Go(func() { rw.RUnlock() })
		t3 := w.Go(func() { rw.RLock() })
		t1.Join()
		t2.Join()
		t3.Join()
	}, trace.UnlockOfUnlocked, counts{15, 4}, counts{7, 3}},
	{"runlock/some by a holder", func(w *weft.T) {
		// T2 takes T1's read lock (T1 holds it while T2 runs): T1's
		// RUnlock fails unless T3 took one in between.
		var rw weft.RWMutex
		t1 := w.Go(func() {
			rw.RLock()
			w.Go(func() { rw.RUnlock() }).Join()
			rw.RUnlock()
		})
		t3 := w.Go(func() { rw.RLock() })
		t1.Join()
		t3.Join()
	}, trace.UnlockOfUnlocked, counts{5, 1}, counts{3, 1}},
	{"waitgroup/every", func(w *weft.T) {
		var wg weft.WaitGroup
		wg.Done()
	}, trace.NegativeWaitGroup, counts{1, 1}, counts{1, 1}},
	{"waitgroup/some", func(w *weft.T) {
		var wg weft.WaitGroup
		th := w.Go(func() { wg.Add(1) })
		wg.Done()
		th.Join()
	}, trace.NegativeWaitGroup, counts{2, 1}, counts{2, 1}},
	{"send on closed/every", func(w *weft.T) {
		ch := weft.MakeChan[int](1)
		ch.Close()
		ch.Send(1)
	}, trace.SendOnClosed, counts{1, 1}, counts{1, 1}},
	{"send on closed/some buffered", func(w *weft.T) {
		ch := weft.MakeChan[int](1)
		th := w.Go(func() { ch.Close() })
		ch.Send(1)
		th.Join()
	}, trace.SendOnClosed, counts{2, 1}, counts{2, 1}},
	{"send on closed/some unbuffered", func(w *weft.T) {
		ch := weft.MakeChan[int](0)
		th := w.Go(func() { ch.Close() })
		ch.Send(1)
		th.Join()
	}, trace.SendOnClosed, counts{1, 1}, counts{1, 1}},
	{"send on closed/some select", func(w *weft.T) {
		ch := weft.MakeChan[int](1)
		th := w.Go(func() { ch.Close() })
		weft.Select(weft.OnSend(ch, 1, nil))
		th.Join()
	}, trace.SendOnClosed, counts{2, 1}, counts{2, 1}},
	{"close of closed/every", func(w *weft.T) {
		ch := weft.MakeChan[int](0)
		th := w.Go(func() { ch.Close() })
		ch.Close()
		th.Join()
	}, trace.CloseOfClosed, counts{2, 2}, counts{2, 2}},
	{"close of closed/some", func(w *weft.T) {
		ch := weft.MakeChan[int](1)
		x := weft.NewVar[int]("x")
		th := w.Go(func() { x.Store(1); ch.Close() })
		if x.Load() == 1 {
			ch.Close()
		}
		th.Join()
	}, trace.CloseOfClosed, counts{4, 3}, counts{3, 2}},
	{"close of nil/every", func(w *weft.T) {
		var ch *weft.Chan[int]
		ch.Close()
	}, trace.CloseOfNil, counts{1, 1}, counts{1, 1}},
	{"close of nil/some", func(w *weft.T) {
		x := weft.NewVar[int]("x")
		th := w.Go(func() { x.Store(1) })
		if x.Load() == 1 {
			var ch *weft.Chan[int]
			ch.Close()
		}
		th.Join()
	}, trace.CloseOfNil, counts{2, 1}, counts{2, 1}},
	{"goexit/some", func(w *weft.T) {
		x := weft.NewVar[int]("x")
		th := w.Go(func() { x.Store(1) })
		if x.Load() == 1 {
			runtime.Goexit()
		}
		th.Join()
	}, trace.Goexit, counts{2, 1}, counts{2, 1}},
	{"goexit/every", func(w *weft.T) {
		th := w.Go(func() { runtime.Goexit() }) // ends the thread, as its return would
		th.Join()
		runtime.Goexit()
	}, trace.Goexit, counts{1, 1}, counts{1, 1}},
	{"go statement/some", func(w *weft.T) {
		x := weft.NewVar[int]("x")
		th := w.Go(func() { x.Store(1) })
		if x.Load() == 1 {
			done := make(chan struct{})
			go func() {
				defer close(done)
				x.Store(2)
			}()
			<-done
		}
		th.Join()
	}, trace.Misuse, counts{2, 1}, counts{2, 1}},
	{"go statement/every", func(w *weft.T) {
		x := weft.NewVar[int]("x")
		done := make(chan struct{})
		go func() {
			defer close(done)
			x.Store(1)
		}()
		<-done
		x.Load()
	}, trace.Misuse, counts{1, 1}, counts{1, 1}},
	{"cond wait without its lock/every", func(w *weft.T) {
		var mu weft.Mutex
		weft.NewCond(&mu).Wait()
	}, trace.UnlockOfUnlocked, counts{1, 1}, counts{1, 1}},
	{"cond wait without its lock/some", func(w *weft.T) {
		var mu weft.Mutex
		c := weft.NewCond(&mu)
		th := w.Go(func() { mu.Lock(); c.Signal(); mu.Unlock() })
		mu.Lock()
		mu.Unlock()
		c.Wait()
		th.Join()
	}, trace.UnlockOfUnlocked, counts{6, 5}, counts{6, 5}},
	{"monitor exit from outside/every", func(w *weft.T) {
		weft.NewMonitor(weft.SC).Exit()
	}, trace.Panic, counts{1, 1}, counts{1, 1}},
	{"monitor signal from outside/some", func(w *weft.T) {
		m := weft.NewMonitor(weft.SU)
		x := weft.NewVar[int]("x")
		th := w.Go(func() { x.Store(1) })
		m.Enter()
		if x.Load() == 1 {
			m.Exit()
		}
		m.Cond(0).Signal()
		th.Join()
	}, trace.Panic, counts{4, 2}, counts{2, 1}},
	{"monitor signal all on SU/every", func(w *weft.T) {
		m := weft.NewMonitor(weft.SU)
		m.Enter()
		m.Cond(0).SignalAll()
	}, trace.Panic, counts{1, 1}, counts{1, 1}},
}

// TestMisuses checks that unfold reports every misuse exhaustive search
// reports, of the same kind. Their numbers of failing executions differ
// where unfold runs fewer executions.
func TestMisuses(t *testing.T) {
	for _, m := range misuses {
		t.Run(m.name, func(t *testing.T) {
			ex, err := weft.Explore(m.body, weft.WithStrategy("exhaustive"), weft.KeepGoing(), weft.NoReplayFiles())
			if err != nil {
				t.Fatal(err)
			}
			un, s := explore(t, m.body, unfold.Options{})
			if s.Err() != nil || s.Diverged() != nil {
				t.Fatalf("unfold stopped: %v, %v", s.Err(), s.Diverged())
			}
			if got := (counts{ex.Executions, ex.FailureCounts[m.kind]}); got != m.exhaustive {
				t.Errorf("exhaustive: %+v, failures %v; want %+v of kind %v", got, ex.FailureCounts, m.exhaustive, m.kind)
			}
			if got := (counts{un.Executions, un.FailureCounts[m.kind]}); got != m.unfolded {
				t.Errorf("unfold: %+v, failures %v; want %+v of kind %v", got, un.FailureCounts, m.unfolded, m.kind)
			}
			if a, b := kinds(ex), kinds(un); !maps.Equal(a, b) || len(a) != 1 {
				t.Errorf("exhaustive's failure kinds %v, unfold's %v; want %v alone", a, b, m.kind)
			}
		})
	}
}

// kinds returns the kinds of r's failures.
func kinds(r *weft.Result) map[trace.FailureKind]bool {
	out := map[trace.FailureKind]bool{}
	for k, n := range r.FailureCounts {
		if n > 0 {
			out[k] = true
		}
	}
	return out
}
