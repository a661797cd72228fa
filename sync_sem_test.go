// This file tests the Go semantics of RWMutex, Cond and Once (harness in
// primitives_test.go).

package weft_test

import (
	"testing"

	"github.com/weft-go/weft"
	"github.com/weft-go/weft/trace"
)

func TestRWMutexSemantics(t *testing.T) {
	dl, dls := f(trace.Deadlock, 1, 2)
	wr, wrs := f(trace.Deadlock, 1, 2, trace.Leak, 1, 1)
	ru, rus := f(trace.UnlockOfUnlocked, 1, 1)
	rwf, rws := f(trace.UnlockOfUnlocked, 1, 2)
	runSemCases(t, []semCase{
		// Go's classic: T0 RLock; T1 Lock (announces, waits for the
		// reader); T0 RLock again blocks behind the writer: deadlock.
		// T0: R1 R2 U1 U2 J; T1: Lock (1 step if no reader, else announce
		// + acquire), Unlock. T1 first: L Un, then T0: 1. R1 first: T1's
		// announce next deadlocks (1, after 2 steps); after R2, T1 can
		// announce before U1, before U2 or after U2 (then Lock is 1 step);
		// once announced, only T0's RUnlocks run, then T1, then J: 3.
		// 5 executions.
		{name: "recursive-rlock", body: func(w *weft.T) {
			var rw weft.RWMutex
			th := w.Go(func() { rw.Lock(); rw.Unlock() })
			rw.RLock()
			rw.RLock()
			rw.RUnlock()
			rw.RUnlock()
			th.Join()
		}, execs: 5, complete: 4, fails: dl, steps: dls},
		// Two readers hold it together: 2 orders, no blocking.
		{name: "readers-share", body: func(w *weft.T) {
			var rw weft.RWMutex
			w.Go(func() { rw.RLock() })
			w.Go(func() { rw.RLock() })
		}, execs: 2, complete: 2},
		// A reader that never leaves: T0's Lock first takes it (1 step)
		// and T1's RLock blocks after the body returned: a leak after 1
		// step; T1's RLock first: T0 announces and waits forever: a
		// deadlock after 2 steps.
		{name: "writer-excluded", body: func(w *weft.T) {
			var rw weft.RWMutex
			w.Go(func() { rw.RLock() })
			rw.Lock()
		}, execs: 2, fails: wr, steps: wrs},
		{name: "try", body: func(w *weft.T) {
			var rw weft.RWMutex
			rw.RLock()
			w.Assert(!rw.TryLock(), "TryLock with a reader inside")
			w.Assert(rw.TryRLock(), "TryRLock with only readers inside")
			rw.RUnlock()
			rw.RUnlock()
			w.Assert(rw.TryLock(), "TryLock of a free RWMutex")
			w.Assert(!rw.TryRLock(), "TryRLock with a writer inside")
			rw.Unlock()
		}, execs: 1, complete: 1},
		// A writer that announced itself makes TryRLock fail, as in Go.
		// T0: R, Try, Store(ok), [RU if ok], RU, J; T1 (started after R):
		// Lock, Unlock. T0's Try first succeeds; T1 announces before the
		// Store, before either RUnlock, or takes the lock in 1 step after
		// them: 4. T1 announces first: Try fails, then Store, RU, T1's
		// acquire, Unlock, J: 1. ok ends true or false: 2 final states
		// (1 if TryRLock ignored the announced writer).
		{name: "tryrlock-announced", body: func(w *weft.T) {
			var rw weft.RWMutex
			var got weft.Var[bool]
			rw.RLock()
			th := w.Go(func() { rw.Lock(); rw.Unlock() })
			ok := rw.TryRLock()
			got.Store(ok)
			if ok {
				rw.RUnlock()
			}
			rw.RUnlock()
			th.Join()
		}, execs: 5, complete: 5, finals: 2},
		{name: "runlock-unlocked", body: func(w *weft.T) { var rw weft.RWMutex; rw.RUnlock() },
			execs: 1, fails: ru, steps: rus},
		// With a writer inside there is no reader: RUnlock is fatal.
		{name: "runlock-of-writer", body: func(w *weft.T) { var rw weft.RWMutex; rw.Lock(); rw.RUnlock() },
			execs: 1, fails: rwf, steps: rws},
		{name: "unlock-unlocked", body: func(w *weft.T) { var rw weft.RWMutex; rw.Unlock() },
			execs: 1, fails: ru, steps: rus},
		{name: "unlock-of-reader", body: func(w *weft.T) { var rw weft.RWMutex; rw.RLock(); rw.Unlock() },
			execs: 1, fails: rwf, steps: rws},
		// RLocker locks for reading: a writer's TryLock fails meanwhile.
		{name: "rlocker", body: func(w *weft.T) {
			var rw weft.RWMutex
			l := rw.RLocker()
			l.Lock()
			w.Assert(!rw.TryLock() && rw.TryRLock(), "RLocker did not read-lock")
			rw.RUnlock()
			l.Unlock()
			w.Assert(rw.TryLock(), "RLocker did not read-unlock")
		}, execs: 1, complete: 1},
	})
}

func TestCondSemantics(t *testing.T) {
	uu, uus := f(trace.UnlockOfUnlocked, 1, 1)
	lw, lws := f(trace.Leak, 1, 5)
	sl, sls := f(trace.Leak, 1, 9)
	runSemCases(t, []semCase{
		// Everything is forced by the mutex: T1 Lock, Wait; T2 Lock, Wait;
		// T3 Lock, Signal (wakes T1, the first waiter), Unlock; T1 Relock,
		// Store, Signal (wakes T2), Unlock; T2 Relock, Load, Unlock: one
		// execution of 14 steps. A LIFO Signal would wake T2 first.
		{name: "signal-fifo", body: condChain(false), execs: 1, complete: 1},
		// Broadcast wakes both: after T3's Unlock, T1 (Relock, Store,
		// Signal, Unlock) and T2 (Relock, Load, Unlock) relock in either
		// order. T2 first fails its check: Lock, Wait (T1, T2), Lock,
		// Broadcast, Unlock (T3), Relock, Load (T2): after 9 steps.
		{name: "broadcast", body: condChain(true),
			execs: 2, complete: 1, fails: map[trace.FailureKind]int{trace.Assertion: 1},
			steps: map[trace.FailureKind]int{trace.Assertion: 9}},
		// Wait without the lock: Go's fatal unlock of an unlocked mutex.
		{name: "wait-unlocked", body: func(w *weft.T) {
			var mu weft.Mutex
			weft.NewCond(&mu).Wait()
		}, execs: 1, fails: uu, steps: uus},
		// T0: Lock, Store, Signal, Unlock; T1: Lock, Load, [Wait, Relock,
		// Load], Unlock. T0 locks first: T1 then finds ready (1). T1 locks
		// first: it waits; T0 runs; T1 relocks once T0 unlocked (1): 2.
		{name: "loop", body: condReady(false, true), execs: 2, complete: 2},
		// Without the check, a Signal before the Wait is lost: T0 first
		// (Lock, Signal, Unlock), then T1's Lock and Wait: a leak after 5
		// steps; T1 first: Lock, Wait, T0's 3 steps, Relock, Unlock: 2.
		{name: "lost-signal", body: condReady(false, false), execs: 2, complete: 1, fails: lw, steps: lws},
		// With an RWMutex as L, Wait is Go's sequence: enqueue, L.Unlock,
		// wait for the signal, L.Lock. T0 first: 1. T1 first: Lock, Load,
		// enqueue, Unlock; T0 Lock, Store, Signal; then T0's Unlock and
		// T1's wake-up in either order, then T1's Lock, Load, Unlock: 2.
		{name: "loop-rwmutex", body: condReady(true, true), execs: 3, complete: 3},
		// A single Signal for two waiters: T2 waits forever once T1 is done
		// (T1 does not signal here): a leak after 9 steps.
		{name: "signal-one", body: func(w *weft.T) {
			var mu weft.Mutex
			c := weft.NewCond(&mu)
			w.Go(func() {
				mu.Lock()
				w.Go(func() {
					mu.Lock()
					w.Go(func() { mu.Lock(); c.Signal(); mu.Unlock() })
					c.Wait()
					mu.Unlock()
				})
				c.Wait()
				mu.Unlock()
			})
		}, execs: 1, fails: sl, steps: sls},
	})
}

func TestOnceSemantics(t *testing.T) {
	dl, dls := f(trace.Deadlock, 1, 1)
	pn, pns := f(trace.Panic, 1, 2)
	runSemCases(t, []semCase{
		// T1: Do [Add, Done]; T2 the same; T0: J1 J2 Load. T1 runs f: Do
		// Add Done, then T2's Do (returns) and T0's J1 in either order: 2.
		// T2 runs f: Do Add Done, T1's Do, then the joins: 1. 3 in all.
		{name: "once", body: func(w *weft.T) {
			var once weft.Once
			var n weft.Int[int]
			do := func() { once.Do(func() { n.Add(1) }) }
			a, b := w.Go(do), w.Go(do)
			a.Join()
			b.Join()
			v := n.Load()
			w.Assert(v == 1, "f ran %d times", v)
		}, execs: 3, complete: 3},
		// A function that panics still counts as done.
		{name: "panicking-f", body: func(w *weft.T) {
			var once weft.Once
			func() {
				defer func() { recover() }()
				once.Do(func() { panic("f") })
			}()
			ran := false
			once.Do(func() { ran = true })
			w.Assert(!ran, "Do ran f again after a panicking f")
		}, execs: 1, complete: 1},
		// The panic itself reaches the thread: Do and Done, then the panic.
		{name: "panic", body: func(w *weft.T) {
			var once weft.Once
			once.Do(func() { panic("f") })
		}, execs: 1, fails: pn, steps: pns},
		// Do inside f waits for f: a deadlock after the first Do.
		{name: "recursive", body: func(w *weft.T) {
			var once weft.Once
			once.Do(func() { once.Do(func() {}) })
		}, execs: 1, fails: dl, steps: dls},
	})
}
