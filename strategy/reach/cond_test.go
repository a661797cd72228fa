// Tests of condition variables (Cond with its Mutex, an SC monitor of
// Lei and Carver 2006, §2.4): exact counts of SYN-sequences on hand
// programs and generated programs against exhaustive search.

package reach_test

import (
	"os"
	"strconv"
	"testing"

	"github.com/weft-go/weft"
	"github.com/weft-go/weft/internal/gen"
	"github.com/weft-go/weft/internal/gen/genweft"
	"github.com/weft-go/weft/internal/long"
	"github.com/weft-go/weft/strategy/reach"
	"github.com/weft-go/weft/trace"
)

// condBuffer is a bounded buffer of size slots on a Mutex and two Conds
// (not full, not empty), the SC monitor of Lei and Carver 2006's
// BB-monitorSC written with sync.Cond: producers put items each, one
// consumer takes them all. The buffer is a plain Go value, guarded by
// the mutex, so the steps are the Mutex's and the Conds'. With one, the
// two Conds are one, which every put and get broadcasts on (a Java
// monitor's wait set and notifyAll).
func condBuffer(producers, items, size int, one bool) func(*weft.T) {
	return func(w *weft.T) {
		mu := weft.NewMutex("mu")
		notFull, notEmpty := weft.NewCond(mu), weft.NewCond(mu)
		notFull.SetName("notFull")
		notEmpty.SetName("notEmpty")
		signal := func(c *weft.Cond) { c.Signal() }
		if one {
			notEmpty = notFull
			signal = func(c *weft.Cond) { c.Broadcast() }
		}
		var buf []int
		for p := range producers {
			w.Go(func() {
				for i := range items {
					mu.Lock()
					for len(buf) == size {
						notFull.Wait()
					}
					buf = append(buf, p*items+i)
					signal(notEmpty)
					mu.Unlock()
				}
			})
		}
		sum := 0
		for range producers * items {
			mu.Lock()
			for len(buf) == 0 {
				notEmpty.Wait()
			}
			sum += buf[0]
			buf = buf[1:]
			signal(notFull)
			mu.Unlock()
		}
		n := producers * items
		w.Assert(sum == n*(n-1)/2, "every item taken once")
	}
}

// TestCond compares reach with exhaustive search on programs with a Cond;
// want is the number of SYN-sequences, which the test also counts with
// exhaustive search, and deadlocks the number of them that end in one.
func TestCond(t *testing.T) {
	for _, c := range []struct {
		name            string
		want, deadlocks int
		body            func(*weft.T)
	}{
		// The waiter first: L0 W0 L1 S1 U1 R0 U0; the signaller first:
		// L1 S1 U1 L0 U0. Every step is on the monitor the Mutex and the
		// Cond make, so a sequence is an order of all of them.
		{"handoff", 2, 0, func(w *weft.T) {
			mu := weft.NewMutex("mu")
			c := weft.NewCond(mu)
			c.SetName("c")
			ready := false
			w.Go(func() { mu.Lock(); ready = true; c.Signal(); mu.Unlock() })
			mu.Lock()
			for !ready {
				c.Wait()
			}
			mu.Unlock()
		}},
		// The signal outside the lock races with the Wait and the Lock:
		// L1 U1 then S1 before L0, between L0 and U0, or after U0 (3);
		// L0 W0 L1 U1 S1 R0 U0 (1).
		{"signal outside", 4, 0, func(w *weft.T) {
			mu := weft.NewMutex("mu")
			c := weft.NewCond(mu)
			c.SetName("c")
			ready := false
			w.Go(func() { mu.Lock(); ready = true; mu.Unlock(); c.Signal() })
			mu.Lock()
			for !ready {
				c.Wait()
			}
			mu.Unlock()
		}},
		// A lost wake-up: the waiter checks nothing, so a Signal before
		// its Wait leaves it waiting forever. L1 S1 U1 L0 W0 (deadlock);
		// L0 W0 L1 S1 U1 R0 U0.
		{"lost wakeup", 2, 1, func(w *weft.T) {
			mu := weft.NewMutex("mu")
			c := weft.NewCond(mu)
			c.SetName("c")
			w.Go(func() { mu.Lock(); c.Signal(); mu.Unlock() })
			mu.Lock()
			c.Wait()
			mu.Unlock()
		}},
		// Broadcast wakes both waiters, who then race for the Mutex. The
		// body first: its L B U, then the two waiters' L U in either
		// order (2); waiter a waits first (La Wa), then the body's
		// L B U and Ra Ua, Lb Ub in either order (2), or Lb Wb, the
		// body's L B U and the two Relocks in either order (2): 4; b
		// first, 4 more. 10.
		{"broadcast", 10, 0, func(w *weft.T) {
			mu := weft.NewMutex("mu")
			c := weft.NewCond(mu)
			c.SetName("c")
			ready := false
			wait := func() {
				mu.Lock()
				for !ready {
					c.Wait()
				}
				mu.Unlock()
			}
			a := w.Go(wait)
			b := w.Go(wait)
			mu.Lock()
			ready = true
			c.Broadcast()
			mu.Unlock()
			a.Join()
			b.Join()
		}},
		// A bounded buffer of one slot, one producer of two items, one
		// consumer (put: L, W R while full, S, U; get likewise). The
		// producer first: its second L finds the buffer full and waits,
		// the consumer's get wakes it, then its R before the second
		// get's L, or that L waits first (2); or the first get before
		// the second put, whose L comes before the second get's, or
		// after it has waited (2). The consumer first waits, the first
		// put wakes it, and the same four follow. 8.
		{"buffer 1 producer 2 items size 1", 8, 0, condBuffer(1, 2, 1, false)},
		// Larger ones: exhaustive search's distinct sequences, pinned.
		{"buffer 2 producers 1 item size 1", 16, 0, condBuffer(2, 1, 1, false)},
		{"buffer 2 producers 2 items size 2", 792, 0, condBuffer(2, 2, 2, false)},
		{"buffer 2 producers 2 items size 1", 1952, 0, condBuffer(2, 2, 1, false)},
		{"buffer on one Cond 2 producers 2 items size 2", 864, 0, condBuffer(2, 2, 2, true)},
		// A Cond on an RWMutex: its Wait enqueues (on the Cond), then
		// unlocks the RWMutex (a step of its own), and the wake-up (on
		// the Cond) is followed by a Lock. The signaller first, or the
		// waiter: the Signal needs the lock, so it comes after the Wait.
		{"rwmutex locker", 2, 0, func(w *weft.T) {
			var rw weft.RWMutex
			c := weft.NewCond(&rw)
			c.SetName("c")
			ready := false
			w.Go(func() { rw.Lock(); ready = true; c.Signal(); rw.Unlock() })
			rw.Lock()
			for !ready {
				c.Wait()
			}
			rw.Unlock()
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			if c.want > 1000 {
				long.Skip(t, "over a second")
			}
			cmp, ok := compare(t, c.body, reach.Options{}, 100000)
			if !ok {
				t.Fatal("exhaustive search did not finish")
			}
			if !cmp.ok() || cmp.want != c.want || cmp.got != c.want || cmp.deadlocks != c.deadlocks {
				t.Errorf("want %d sequences, %d deadlocks (got %d): %v", c.want, c.deadlocks, cmp.deadlocks, cmp)
			}
		})
	}
}

// TestGeneratedCond runs reach and exhaustive search on the generated
// programs of gen.Sync that wait on or signal a Cond (with semaphores,
// monitors and awaits besides): every SYN-sequence exactly once, with the
// free runs in thread order and at random. It counts the programs in
// which some run of reach's waits on a Cond, and checks on the way those
// whose Conds are only signalled: 10 programs that wait; 1,000 with
// WEFT_LONG=1, or REACH_COND of them.
func TestGeneratedCond(t *testing.T) {
	t.Parallel()
	programs := 10
	if long.Enabled() {
		programs = 1000
	}
	if v, err := strconv.Atoi(os.Getenv("REACH_COND")); err == nil {
		programs = v
	}
	condKinds := map[gen.Kind]bool{gen.CondWait: true, gen.CondSignal: true}
	waited, signalled, sequences, bad := 0, 0, 0, 0
	for seed := uint64(0); waited < programs && seed < 1000000; seed++ {
		p := gen.NewWith(seed, gen.Sync)
		if !usesAny(append([][]gen.Stmt{p.Main}, p.Threads...), condKinds) {
			continue
		}
		body := genweft.Body(p)
		for _, o := range []reach.Options{{}, {Seed: int64(seed) + 1}} {
			c, ok := compare(t, body, o, 5000)
			if !ok {
				break
			}
			if o.Seed == 0 {
				sequences += c.want
				if c.waits > 0 {
					waited++
				} else {
					signalled++
				}
			}
			if !c.ok() {
				bad++
				t.Errorf("seed %d %+v: %v\n%v", seed, o, c, p)
			}
		}
		if bad > 3 {
			t.FailNow()
		}
	}
	if waited < programs {
		t.Errorf("checked %d programs that wait, want %d", waited, programs)
	}
	t.Logf("%d programs that wait on a Cond, %d that do not, %d sequences, %d disagreements", waited, signalled, sequences, bad)
}

// usesAny reports whether some statement of the threads' statements ss,
// or of their bodies, is of one of kinds.
func usesAny(ss [][]gen.Stmt, kinds map[gen.Kind]bool) bool {
	for _, s := range ss {
		for _, x := range s {
			if kinds[x.Kind] || usesAny([][]gen.Stmt{x.Body, x.Child}, kinds) {
				return true
			}
		}
	}
	return false
}

// condWaits counts the steps of tr that wait on a Cond.
func condWaits(tr *trace.Trace) int {
	n := 0
	for i := range tr.Events {
		if op := tr.Events[i].Op; op.Class == trace.ClassCond && op.Kind == trace.KindWait {
			n++
		}
	}
	return n
}
