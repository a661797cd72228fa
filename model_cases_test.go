// This file has the hand-written programs the runtime is checked against
// the model on (model_test.go), for what the generated programs and the
// other tests' programs do not reach.

package weft_test

import "github.com/weft-go/weft"

// modelCases are programs for what neither the generator nor the other
// tests' programs reach.
var modelCases = []struct {
	name string
	body func(w *weft.T)
}{
	// A writer announces itself while a reader is in; a second reader
	// then blocks, and TryRLock and TryLock fail.
	{"rwmutex-announced-writer", func(w *weft.T) {
		var rw weft.RWMutex
		w.Go(func() { rw.RLock(); rw.RUnlock() })
		w.Go(func() { rw.Lock(); rw.Unlock() })
		w.Go(func() {
			if rw.TryRLock() {
				rw.RUnlock()
			}
			rw.RLock()
			rw.RUnlock()
		})
		if rw.TryLock() {
			rw.Unlock()
		}
	}},
	// One thread read-locks, another read-unlocks: no RUnlock is
	// balanced any more, and a third RUnlock fails.
	{"rwmutex-unbalanced", func(w *weft.T) {
		var rw weft.RWMutex
		rw.RLock()
		w.Go(func() { rw.RUnlock() })
		w.Go(func() { rw.RLock(); rw.RUnlock() })
		rw.RUnlock()
	}},
	{"unlock-of-unlocked", func(w *weft.T) {
		var mu weft.Mutex
		w.Go(func() { mu.Lock() })
		mu.Unlock()
	}},
	{"nil-channels", func(w *weft.T) {
		var c *weft.Chan[int]
		d := weft.MakeChan[int](0)
		w.Go(func() { d.Send(1) })
		w.Go(func() { c.Send(1) })
		weft.Select(weft.OnRecv(c, nil), weft.OnRecv(d, nil))
		weft.Select(weft.OnSend(c, 1, nil), weft.OnDefault(nil))
		c.Recv()
	}},
	{"close-races", func(w *weft.T) {
		c := weft.MakeChan[int](1)
		d := weft.MakeChan[int](0)
		w.Go(func() { c.Send(1); c.Close() })
		w.Go(func() { weft.Select(weft.OnSend(c, 2, nil), weft.OnSend(d, 3, nil)) })
		w.Go(func() { c.Close() })
		c.RecvOK()
		c.RecvOK()
		d.RecvOK()
	}},
	{"waitgroup-negative", func(w *weft.T) {
		var wg weft.WaitGroup
		wg.Add(1)
		w.Go(func() { wg.Done() })
		w.Go(func() { wg.Wait() })
		wg.Done()
	}},
	{"semaphores", func(w *weft.T) {
		s := weft.NewSemaphore(1)
		b := weft.NewBinarySemaphore(0)
		w.Go(func() { s.P(); b.V(); s.V() })
		w.Go(func() { s.P(); b.V(); s.V() })
		b.P()
		s.P()
		b.P()
	}},
	{"cond-other-locker", func(w *weft.T) {
		var rw weft.RWMutex
		c := weft.NewCond(rw.RLocker())
		ready := weft.NewVar[bool]("ready")
		w.Go(func() {
			rw.RLock()
			for !ready.Load() {
				c.Wait()
			}
			rw.RUnlock()
		})
		ready.Store(true)
		c.Broadcast()
	}},
	{"monitor-misuse", func(w *weft.T) {
		m := weft.NewMonitor(weft.SU)
		w.Go(func() { m.Enter(); m.Cond(0).Wait(); m.Exit() })
		m.Enter()
		m.Cond(0).Signal()
		m.Exit()
		m.Exit()
	}},
	// One channel in several cases of a select, a send case closed under
	// a waiting select, and senders pending on a channel that closes.
	{"select-corners", func(w *weft.T) {
		c := weft.MakeChan[int](0)
		d := weft.MakeChan[int](1)
		w.Go(func() { weft.Select(weft.OnSend(c, 1, nil), weft.OnSend(c, 2, nil), weft.OnRecv(d, nil)) })
		w.Go(func() { c.Send(3) })
		w.Go(func() { c.Close() })
		weft.Select(weft.OnRecv(c, nil), weft.OnRecv(c, nil), weft.OnDefault(nil))
		d.Send(1)
		c.RecvOK()
	}},
	{"signals-without-waiters", func(w *weft.T) {
		var mu weft.Mutex
		cv := weft.NewCond(&mu)
		m := weft.NewMonitor(weft.SC)
		w.Go(func() { m.Enter(); m.Cond(1).SignalAll(); m.Cond(0).Signal(); m.Exit() })
		cv.Signal()
		cv.Broadcast()
		m.Enter()
		m.Cond(0).SignalAll()
		m.Exit()
	}},
	{"self-deadlocks", func(w *weft.T) {
		var once weft.Once
		var mu weft.Mutex
		w.Go(func() { once.Do(func() { once.Do(func() {}) }) })
		w.Go(func() { mu.Lock(); mu.Lock() })
	}},
	{"timer-corners", func(w *weft.T) {
		a := weft.NewTimer(0)
		b := weft.NewTimer(5)
		c := weft.NewTimer(5)
		w.Sleep(0)
		a.C.Recv()
		a.Reset(3)
		w.Go(func() { b.C.Recv(); b.Stop(); b.Reset(1); b.C.Recv() })
		weft.Select(weft.OnRecv(c.C, nil), weft.OnDefault(nil))
		c.C.Recv()
		a.Stop()
	}},
	{"timers", func(w *weft.T) {
		a := weft.NewTimer(10)
		b := weft.NewTimer(20)
		w.Go(func() { w.Sleep(15); a.Reset(10); b.Stop() })
		weft.Select(weft.OnRecv(a.C, nil), weft.OnRecv(b.C, nil), weft.OnRecv(w.After(30), nil))
		a.C.Recv()
	}},
}
