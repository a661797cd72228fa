// Tests of w.Await in the unfolding: awaits of one and several variables,
// and Peterson's and Dekker's locks, against the unfolding of every
// interleaving.

package unfold_test

import (
	"testing"

	"github.com/weft-go/weft"
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
		{"peterson", spinLock(peterson, true), 42, 7, 3},
		{"peterson yield", spinLock(peterson, false), 116, 12, 0},
		{"dekker", spinLock(dekker, true), 49, 8, 6},
		{"dekker yield", spinLock(dekker, false), 196, 19, 0},
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

// waitUntil waits until cond holds: w.Await, or a loop that yields.
func waitUntil(w *weft.T, await bool, cond func() bool) {
	if await {
		w.Await(cond)
		return
	}
	for !cond() {
		w.Yield()
	}
}

// lockFunc makes the lock and unlock of a spin lock for two threads.
type lockFunc func(await bool) (lock, unlock func(w *weft.T, i int))

// peterson is Peterson's lock: flag[i], then the turn to the other; wait
// while the other wants in and has the turn.
func peterson(await bool) (lock, unlock func(*weft.T, int)) {
	flag := [2]*weft.Var[int]{weft.NewVar[int]("flag0"), weft.NewVar[int]("flag1")}
	turn := weft.NewVar[int]("turn")
	lock = func(w *weft.T, i int) {
		j := 1 - i
		flag[i].Store(1)
		turn.Store(j)
		waitUntil(w, await, func() bool { return flag[j].Load() == 0 || turn.Load() != j })
	}
	unlock = func(w *weft.T, i int) { flag[i].Store(0) }
	return lock, unlock
}

// dekker is Dekker's lock: while the other wants in, the thread without
// the turn withdraws and waits for the turn; the one with it waits for
// the other to withdraw.
func dekker(await bool) (lock, unlock func(*weft.T, int)) {
	flag := [2]*weft.Var[int]{weft.NewVar[int]("flag0"), weft.NewVar[int]("flag1")}
	turn := weft.NewVar[int]("turn")
	lock = func(w *weft.T, i int) {
		j := 1 - i
		flag[i].Store(1)
		for {
			enter := false
			waitUntil(w, await, func() bool {
				enter = flag[j].Load() == 0
				return enter || turn.Load() != i
			})
			if enter {
				return
			}
			flag[i].Store(0)
			waitUntil(w, await, func() bool { return turn.Load() == i })
			flag[i].Store(1)
		}
	}
	unlock = func(w *weft.T, i int) {
		turn.Store(1 - i)
		flag[i].Store(0)
	}
	return lock, unlock
}

// spinLock returns a body in which two threads take the lock once each,
// around a critical section that checks that the thread is alone there.
func spinLock(make lockFunc, await bool) func(w *weft.T) {
	return func(w *weft.T) {
		lock, unlock := make(await)
		in := &weft.Int[int]{Var: *weft.NewVar[int]("in")}
		for i := range 2 {
			w.Go(func() {
				lock(w, i)
				w.Assert(in.Add(1) == 1, "thread %d is not alone in the critical section", i)
				in.Add(-1)
				unlock(w, i)
			})
		}
	}
}
