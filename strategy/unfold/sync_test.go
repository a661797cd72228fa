// Tests of the primitives modelled beyond the paper's (Cond, semaphores,
// monitors, awaits, nil channels): small programs against the unfolding
// of every interleaving, with their numbers of events and tests.

package unfold_test

import (
	"testing"

	"github.com/weft-go/weft"
	"github.com/weft-go/weft/strategy/unfold"
)

// syncPrograms are small programs on the primitives modelled here, with
// their numbers of events and tests under the default options.
var syncPrograms = []struct {
	name          string
	body          func(*weft.T)
	events, tests int
}{
	{"semaphore mutual exclusion", func(w *weft.T) {
		s := weft.NewSemaphore(1)
		x := weft.NewVar[int]("x")
		for i := range 2 {
			w.Go(func() { s.P(); x.Store(i); _ = x.Load(); s.V() })
		}
	}, 16, 2},
	{"semaphore handshake", func(w *weft.T) {
		s := weft.NewSemaphore(0)
		x := weft.NewVar[int]("x")
		w.Go(func() { x.Store(1); s.V() })
		w.Go(func() { s.P(); _ = x.Load() })
	}, 4, 1},
	{"binary semaphore", func(w *weft.T) {
		s := weft.NewBinarySemaphore(0)
		w.Go(func() { s.V() })
		w.Go(func() { s.V() })
		w.Go(func() { s.P() })
	}, 6, 2},
	{"cond signal", func(w *weft.T) {
		var mu weft.Mutex
		c := weft.NewCond(&mu)
		ready := weft.NewVar[int]("ready")
		w.Go(func() { mu.Lock(); ready.Store(1); c.Signal(); mu.Unlock() })
		mu.Lock()
		for ready.Load() == 0 {
			c.Wait()
		}
		mu.Unlock()
	}, 17, 2},
	{"cond broadcast", func(w *weft.T) {
		var mu weft.Mutex
		c := weft.NewCond(&mu)
		ready := weft.NewVar[int]("ready")
		for range 2 {
			w.Go(func() {
				mu.Lock()
				for ready.Load() == 0 {
					c.Wait()
				}
				mu.Unlock()
			})
		}
		mu.Lock()
		ready.Store(1)
		c.Broadcast()
		mu.Unlock()
	}, 92, 10},
	{"cond lost signal", func(w *weft.T) {
		var mu weft.Mutex
		c := weft.NewCond(&mu)
		w.Go(func() { c.Signal() })
		mu.Lock()
		c.Wait()
		mu.Unlock()
	}, 7, 2},
	{"monitor SC", func(w *weft.T) { monitorBody(w, weft.SC) }, 23, 2},
	{"monitor SU", func(w *weft.T) { monitorBody(w, weft.SU) }, 24, 2},
	{"yield", func(w *weft.T) {
		x := weft.NewVar[int]("x")
		w.Go(func() { x.Store(1); x.Store(2) })
		for x.Load() != 2 {
			w.Yield()
		}
	}, 8, 3},
	{"nil channel", func(w *weft.T) {
		var ch *weft.Chan[int]
		x := weft.NewVar[int]("x")
		w.Go(func() { x.Store(1); ch.Send(1) })
		x.Store(2)
	}, 4, 2},
}

// monitorBody is a one-slot buffer in a monitor of discipline d: a
// producer and a consumer, each waiting on its condition.
func monitorBody(w *weft.T, d weft.Signalling) {
	m := weft.NewMonitor(d)
	full := weft.NewVar[int]("full")
	notFull, notEmpty := m.Cond(0), m.Cond(1)
	w.Go(func() {
		m.Enter()
		for full.Load() == 1 {
			notFull.Wait()
		}
		full.Store(1)
		notEmpty.Signal()
		m.Exit()
	})
	m.Enter()
	for full.Load() == 0 {
		notEmpty.Wait()
	}
	full.Store(0)
	notFull.Signal()
	m.Exit()
}

// TestSyncPrimitives checks each program's unfolding against exhaustive
// search's, and pins its numbers.
func TestSyncPrimitives(t *testing.T) {
	for _, c := range syncPrograms {
		st, _, ok := againstExhaustive(t, c.name, c.body, unfold.Options{}, unfold.Options{Naive: true}, unfold.Options{Seed: 3})
		if !ok {
			t.Fatalf("%s: too big for exhaustive search", c.name)
		}
		if st.Events != c.events || st.Tests != c.tests {
			t.Errorf("%s: %d events, %d tests; want %d, %d", c.name, st.Events, st.Tests, c.events, c.tests)
		}
	}
}
