// Tests of the primitives beyond message passing that reach models:
// shared variables, the length of a channel, awaits and busy-wait loops,
// sleeps and timers, each against exhaustive search with exact counts.

package reach_test

import (
	"testing"
	"time"

	"github.com/weft-go/weft"
	"github.com/weft-go/weft/strategy/reach"
)

// TestKinds compares reach with exhaustive search on small programs of
// each newly modelled primitive; want is the number of SYN-sequences.
func TestKinds(t *testing.T) {
	for _, c := range []struct {
		name string
		want int
		body func(*weft.T)
	}{
		// One writer, two readers: every order of the three accesses
		// (reads race with reads: see the package doc).
		{"variables", 6, func(w *weft.T) {
			x := weft.NewVar[int]("x")
			a := w.Go(func() { x.Store(1) })
			b := w.Go(func() { _ = x.Load() })
			_ = x.Load()
			a.Join()
			b.Join()
		}},
		// A compare-and-swap and an add race with a store.
		{"read-modify-write", 6, func(w *weft.T) {
			x := weft.NewVar[int]("x")
			a := w.Go(func() { x.CompareAndSwap(0, 5) })
			b := w.Go(func() { x.Store(2) })
			x.Swap(3)
			a.Join()
			b.Join()
		}},
		// Len of a buffered channel: the two halves are one object, the
		// length is placed among the two orders of the second send and
		// the receive.
		{"len", 8, func(w *weft.T) {
			ch := weft.MakeChan[int](2)
			a := w.Go(func() { ch.Send(1); ch.Send(2) })
			b := w.Go(func() { _ = ch.Len() })
			w.Assert(ch.Recv() == 1, "FIFO")
			a.Join()
			b.Join()
		}},
		// An await waits for a store: the await is one access of x (its
		// failed evaluations are no steps), ordered with the two stores.
		{"await", 4, func(w *weft.T) {
			x := weft.NewVar[int]("x")
			w.Go(func() { x.Store(1) })
			w.Go(func() { x.Store(2) })
			w.Await(func() bool { return x.Load() != 0 })
		}},
		// A busy-wait loop on a flag.
		{"yield", 2, func(w *weft.T) {
			flag := weft.NewVar[bool]("flag")
			y := weft.NewVar[int]("y")
			w.Go(func() { y.Store(1); flag.Store(true) })
			for !flag.Load() {
				w.Yield()
			}
			w.Assert(y.Load() == 1, "y")
		}},
		// A timeout races with a send only when every thread is blocked.
		{"timeout", 2, func(w *weft.T) {
			ch := weft.MakeChan[int](0)
			w.Go(func() { weft.Select(weft.OnSend(ch, 1, func() {}), weft.OnDefault(func() {})) })
			weft.Select(weft.OnRecv(ch, func(int, bool) {}), weft.OnRecv(w.After(time.Millisecond), func(time.Duration, bool) {}))
		}},
		// A timer stopped while it fires.
		{"timer stop", 2, func(w *weft.T) {
			tm := weft.NewTimer(time.Millisecond)
			done := weft.MakeChan[int](1)
			w.Go(func() { tm.C.Recv(); done.Send(1) })
			w.Sleep(time.Millisecond)
			if tm.Stop() {
				done.Send(2)
			}
			done.Recv()
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			r, ok := compare(t, c.body, reach.Options{}, 5000)
			if !ok {
				t.Fatal("exhaustive search did not finish")
			}
			if !r.ok() || r.want != c.want || r.got != c.want {
				t.Errorf("want %d sequences: %v", c.want, r)
			}
		})
	}
}
