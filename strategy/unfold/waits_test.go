// Tests of the search for deadlocks of Joins and WaitGroup Waits without
// a mutex cycle: the search of the unfolding finds them, not only the
// tests that run into them.

package unfold_test

import (
	"testing"

	"github.com/weft-go/weft"
	"github.com/weft-go/weft/strategy/unfold"
	"github.com/weft-go/weft/trace"
)

// TestWaitDeadlocks: deadlocks where a thread waits for another (a Join,
// a WaitGroup's Wait) that waits for a mutex the first holds, found by
// the search (Stats.Deadlocks) and checked against every set of threads
// exhaustive search finds blocked.
func TestWaitDeadlocks(t *testing.T) {
	for _, c := range []struct {
		name string
		body func(*weft.T)
		// deadlocks the search finds, of which run are not reached by a
		// test before the search.
		deadlocks, run int
	}{
		// T1 holds m and joins T2, which wants m.
		{"join under a mutex", func(w *weft.T) {
			var mu weft.Mutex
			x := weft.NewVar[int]("x")
			t2 := w.Go(func() { x.Store(1); mu.Lock(); mu.Unlock() })
			t1 := w.Go(func() { mu.Lock(); t2.Join(); mu.Unlock() })
			t1.Join()
		}, 1, 0},
		// T1 holds m and waits for T2's Done, which T2 does after taking m.
		{"wait under a mutex", func(w *weft.T) {
			var mu weft.Mutex
			var wg weft.WaitGroup
			wg.Add(1)
			x := weft.NewVar[int]("x")
			w.Go(func() { mu.Lock(); wg.Wait(); mu.Unlock() })
			w.Go(func() { x.Store(1); mu.Lock(); mu.Unlock(); wg.Done() })
		}, 1, 0},
		// A Done too few: the Wait never returns, whatever the order.
		{"wait without its done", func(w *weft.T) {
			var wg weft.WaitGroup
			wg.Add(2)
			x := weft.NewVar[int]("x")
			t := w.Go(func() { x.Store(1); wg.Done() })
			x.Store(2)
			wg.Wait()
			t.Join()
		}, 2, 0},
	} {
		if _, _, ok := againstExhaustive(t, c.name, c.body, unfold.Options{}, unfold.Options{Naive: true}); !ok {
			t.Fatalf("%s: too big for exhaustive search", c.name)
		}
		r, s := explore(t, c.body, unfold.Options{})
		st := s.Stats()
		blocked := r.FailureCounts[trace.Deadlock] + r.FailureCounts[trace.Leak]
		if st.Deadlocks != c.deadlocks || st.DeadlockTests != c.run || blocked == 0 || st.DeadlockSearchCut != 0 {
			t.Errorf("%s: %+v, failures %v; want %d deadlocks, %d run", c.name, st, r.FailureCounts, c.deadlocks, c.run)
		}
	}
}
