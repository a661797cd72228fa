// This file implements classic spin locks written with weft's variables,
// their busy waits as loops that yield or as w.Await, which the tests of
// awaits and the strategies' tests share.

package programs

import "github.com/weft-go/weft"

// SpinLock is a lock algorithm for n threads: lock(w, i) and unlock(w, i)
// by thread i, with its busy waits written as loops that yield
// (await false) or with w.Await (await true).
type SpinLock struct {
	Name    string
	Threads int
	Make    func(n int, await bool) (lock, unlock func(w *weft.T, i int))
}

// WaitUntil waits until cond holds: with w.Await if await, else with a
// loop that yields.
func WaitUntil(w *weft.T, await bool, cond func() bool) {
	if await {
		w.Await(cond)
		return
	}
	for !cond() {
		w.Yield()
	}
}

// SpinLocks returns the spin locks: Peterson's and Dekker's for two
// threads, the filter lock (Peterson's for n threads), Lamport's bakery
// and a test-and-test-and-set lock, each with the threads its tests take
// by default.
func SpinLocks() []SpinLock {
	return []SpinLock{
		// Peterson's lock: flag[i], then the turn to the other; wait while
		// the other wants in and has the turn.
		{Name: "peterson", Threads: 2, Make: func(n int, await bool) (lock, unlock func(*weft.T, int)) {
			flag := [2]*weft.Var[int]{weft.NewVar[int]("flag0"), weft.NewVar[int]("flag1")}
			turn := weft.NewVar[int]("turn")
			lock = func(w *weft.T, i int) {
				j := 1 - i
				flag[i].Store(1)
				turn.Store(j)
				WaitUntil(w, await, func() bool { return flag[j].Load() == 0 || turn.Load() != j })
			}
			unlock = func(w *weft.T, i int) { flag[i].Store(0) }
			return lock, unlock
		}},
		// Dekker's lock: while the other wants in, the thread without the
		// turn withdraws and waits for the turn; the one with it waits for the
		// other to withdraw.
		{Name: "dekker", Threads: 2, Make: func(n int, await bool) (lock, unlock func(*weft.T, int)) {
			flag := [2]*weft.Var[int]{weft.NewVar[int]("flag0"), weft.NewVar[int]("flag1")}
			turn := weft.NewVar[int]("turn")
			lock = func(w *weft.T, i int) {
				j := 1 - i
				flag[i].Store(1)
				for {
					// Wait until the other does not want in (enter) or the
					// turn is the other's (withdraw).
					enter := false
					WaitUntil(w, await, func() bool {
						enter = flag[j].Load() == 0
						return enter || turn.Load() != i
					})
					if enter {
						return
					}
					flag[i].Store(0)
					WaitUntil(w, await, func() bool { return turn.Load() == i })
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
		{Name: "filter", Threads: 3, Make: func(n int, await bool) (lock, unlock func(*weft.T, int)) {
			level := make([]*weft.Var[int], n)
			for k := range level {
				level[k] = weft.NewVar[int]("level")
			}
			victim := make([]*weft.Var[int], n)
			for k := range victim {
				victim[k] = weft.NewVar[int]("victim")
			}
			lock = func(w *weft.T, i int) {
				for l := 1; l < n; l++ {
					level[i].Store(l)
					victim[l].Store(i)
					WaitUntil(w, await, func() bool {
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
		// Lamport's bakery: take a number one above every number seen, then
		// wait for each other thread to have chosen and to hold no smaller
		// number (ties broken by thread).
		{Name: "bakery", Threads: 2, Make: func(n int, await bool) (lock, unlock func(*weft.T, int)) {
			choosing := make([]*weft.Var[int], n)
			number := make([]*weft.Var[int], n)
			for k := range n {
				choosing[k], number[k] = weft.NewVar[int]("choosing"), weft.NewVar[int]("number")
			}
			lock = func(w *weft.T, i int) {
				choosing[i].Store(1)
				m := 0
				for k := range n {
					m = max(m, number[k].Load())
				}
				number[i].Store(m + 1)
				choosing[i].Store(0)
				for j := range n {
					if j == i {
						continue
					}
					WaitUntil(w, await, func() bool { return choosing[j].Load() == 0 })
					WaitUntil(w, await, func() bool {
						nj := number[j].Load()
						if nj == 0 {
							return true
						}
						ni := number[i].Load()
						return nj > ni || nj == ni && j > i
					})
				}
			}
			unlock = func(w *weft.T, i int) { number[i].Store(0) }
			return lock, unlock
		}},
		// A test-and-test-and-set lock: wait until it looks free, then try
		// to take it with a CompareAndSwap.
		{Name: "ttas", Threads: 3, Make: func(n int, await bool) (lock, unlock func(*weft.T, int)) {
			held := weft.NewVar[int]("held")
			lock = func(w *weft.T, i int) {
				for {
					WaitUntil(w, await, func() bool { return held.Load() == 0 })
					if held.CompareAndSwap(0, 1) {
						return
					}
				}
			}
			unlock = func(w *weft.T, i int) { held.Store(0) }
			return lock, unlock
		}},
	}
}

// Body returns a test body in which each of l's threads takes the lock
// once, around a critical section that checks that it is alone there
// (an assertion fails if it is not).
func (l SpinLock) Body(await bool) func(w *weft.T) {
	return func(w *weft.T) {
		// The lock's objects are made in the body: the body may run in
		// explorations at the same time (parallel tests).
		lock, unlock := l.Make(l.Threads, await)
		in := &weft.Int[int]{Var: *weft.NewVar[int]("in")}
		for i := range l.Threads {
			w.Go(func() {
				lock(w, i)
				w.Assert(in.Add(1) == 1, "thread %d is not alone in the critical section", i)
				in.Add(-1)
				unlock(w, i)
			})
		}
	}
}

// SpinLockNamed returns the spin lock called name, for n threads; it
// panics if there is none.
func SpinLockNamed(name string, n int) SpinLock {
	for _, l := range SpinLocks() {
		if l.Name == name {
			l.Threads = n
			return l
		}
	}
	panic("programs: no spin lock " + name)
}
