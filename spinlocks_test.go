// This file checks awaits and busy-wait loops (w.Await, w.Yield) on
// classic spin locks: each algorithm written with loops that yield and
// with w.Await explores the same traces, as many as exhaustive search
// finds, and mutual exclusion holds.

package weft_test

import (
	"github.com/weft-go/weft"
)

// spinLock is a lock algorithm for n threads: lock(w, i) and unlock(w, i)
// by thread i, with its busy waits written as loops that yield or with
// w.Await.
type spinLock struct {
	name    string
	threads int
	make    func(await bool) (lock, unlock func(w *weft.T, i int))
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

var spinLocks = []spinLock{
	// Peterson's lock: flag[i], then the turn to the other; wait while
	// the other wants in and has the turn.
	{"peterson", 2, func(await bool) (lock, unlock func(*weft.T, int)) {
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
	}},
	// Dekker's lock: while the other wants in, the thread without the
	// turn withdraws and waits for the turn; the one with it waits for the
	// other to withdraw.
	{"dekker", 2, func(await bool) (lock, unlock func(*weft.T, int)) {
		flag := [2]*weft.Var[int]{weft.NewVar[int]("flag0"), weft.NewVar[int]("flag1")}
		turn := weft.NewVar[int]("turn")
		lock = func(w *weft.T, i int) {
			j := 1 - i
			flag[i].Store(1)
			for {
				// Wait until the other does not want in (enter) or the
				// turn is the other's (withdraw).
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
	}},
	// The filter lock (Peterson's for n threads): n-1 levels, each with
	// a victim; a thread leaves level L once no other is at L or above,
	// or it is no longer L's victim.
	{"filter", 3, func(await bool) (lock, unlock func(*weft.T, int)) {
		const n = 3
		var level [n]*weft.Var[int]
		for k := range level {
			level[k] = weft.NewVar[int]("level")
		}
		var victim [n]*weft.Var[int]
		for k := range victim {
			victim[k] = weft.NewVar[int]("victim")
		}
		lock = func(w *weft.T, i int) {
			for l := 1; l < n; l++ {
				level[i].Store(l)
				victim[l].Store(i)
				waitUntil(w, await, func() bool {
					for k := range n {
						if k != i && level[k].Load() >= l {
							return victim[l].Load() != i
						}
					}
					return true
				})
			}
		}
		unlock = func(w *weft.T, i int) { level[i].Store(0) }
		return lock, unlock
	}},
	// A test-and-test-and-set lock: wait until it looks free, then try
	// to take it with a CompareAndSwap.
	{"ttas", 3, func(await bool) (lock, unlock func(*weft.T, int)) {
		held := weft.NewVar[int]("held")
		lock = func(w *weft.T, i int) {
			for {
				waitUntil(w, await, func() bool { return held.Load() == 0 })
				if held.CompareAndSwap(0, 1) {
					return
				}
			}
		}
		unlock = func(w *weft.T, i int) { held.Store(0) }
		return lock, unlock
	}},
}

// body returns a test body in which each of l's threads takes the lock
// once, around a critical section that checks that it is alone there.
func (l spinLock) body(await bool) func(w *weft.T) {
	lock, unlock := l.make(await)
	in := &weft.Int[int]{Var: *weft.NewVar[int]("in")}
	return func(w *weft.T) {
		for i := range l.threads {
			w.Go(func() {
				lock(w, i)
				w.Assert(in.Add(1) == 1, "thread %d is not alone in the critical section", i)
				in.Add(-1)
				unlock(w, i)
			})
		}
	}
}
