// Tests of w.Await in the unfolding: awaits of one and several variables,
// and Peterson's and Dekker's locks (package programs), against the
// unfolding of every interleaving.

package unfold_test

import (
	"testing"

	"github.com/weft-go/weft"
	"github.com/weft-go/weft/programs"
	"github.com/weft-go/weft/strategy/unfold"
)

// TestCondAwait: small programs with w.Await, their numbers of events,
// tests and probes, and the unfolding of every interleaving's events.
func TestCondAwait(t *testing.T) {
	for _, c := range []struct {
		name                  string
		body                  func(*weft.T)
		events, tests, probes int
	}{
		{"one variable", func(w *weft.T) {
			x := weft.NewVar[int]("x")
			w.Go(func() { x.Store(1) })
			w.Await(func() bool { return x.Load() == 1 })
		}, 2, 1, 0},
		{"either of two", func(w *weft.T) {
			x, y := weft.NewVar[int]("x"), weft.NewVar[int]("y")
			w.Go(func() { x.Store(1) })
			w.Go(func() { y.Store(1) })
			w.Await(func() bool { return x.Load() == 1 || y.Load() == 1 })
		}, 5, 2, 1},
		{"both of two", func(w *weft.T) {
			x, y := weft.NewVar[int]("x"), weft.NewVar[int]("y")
			w.Go(func() { x.Store(1); x.Store(2) })
			w.Go(func() { y.Store(1) })
			w.Await(func() bool { return x.Load() == 2 && y.Load() == 1 })
		}, 4, 2, 1},
		{"never", func(w *weft.T) {
			x := weft.NewVar[int]("x")
			w.Go(func() { x.Store(1) })
			w.Await(func() bool { return x.Load() == 2 })
		}, 1, 1, 0},
		// T1 stores x's initial value 0 before T2's load, between its load
		// and its await, or after the await: 3 stores; T2's load before
		// or after the store (2), its store of y after each (2), its
		// await reading x stored or not after each load (3). The
		// evaluation on the store's 0 is the one on the initial 0: the
		// second makes no new evaluation, yet it must give the await on
		// the initial copy (it did not: 8 events). 10 events, 3 tests, 1
		// probe.
		{"a store of the initial value", func(w *weft.T) {
			x, y := weft.NewVar[int]("x"), weft.NewVar[int]("y")
			w.Go(func() { x.Store(0) })
			w.Go(func() {
				l := x.Load()
				y.Store(l)
				w.Await(func() bool { return l+x.Load() > -2 })
			})
		}, 10, 3, 1},
		{"peterson", programs.SpinLockNamed("peterson", 2).Body(true), 42, 7, 3},
		{"peterson yield", programs.SpinLockNamed("peterson", 2).Body(false), 64, 10, 0},
		{"dekker", programs.SpinLockNamed("dekker", 2).Body(true), 49, 8, 6},
		{"dekker yield", programs.SpinLockNamed("dekker", 2).Body(false), 75, 12, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			st, _, ok := againstExhaustive(t, c.name, c.body, unfold.Options{}, unfold.Options{Seed: 3}, unfold.Options{Naive: true})
			if !ok {
				t.Fatal("too large for exhaustive search")
			}
			if st.Events != c.events || st.Tests != c.tests || st.Probes != c.probes {
				t.Errorf("%d events, %d tests, %d probes; want %d, %d, %d", st.Events, st.Tests, st.Probes, c.events, c.tests, c.probes)
			}
		})
	}
}
