// This file tests the cycle hint of a step bound hit's report
// (periodicTail) and the rule that stops an exploration after bound hits
// (StopsAt).

package explore

import (
	"testing"

	"github.com/weft-go/weft/trace"
)

// TestPeriodicTail checks the cycles found in the last steps of
// executions: the shortest one, and how many last steps repeat it.
func TestPeriodicTail(t *testing.T) {
	ev := func(p trace.ThreadID, k trace.Kind, obj trace.ObjectID, v uint64) trace.Event {
		return trace.Event{Thread: p, Op: trace.Op{Kind: k, Obj: obj}, Value: v}
	}
	// noise: 10 steps that repeat nothing, then cycle of 4 steps (two
	// threads locking and unlocking) 250 times.
	var cycle4 []trace.Event
	for i := range 10 {
		cycle4 = append(cycle4, ev(0, trace.KindStore, 1, uint64(100+i)))
	}
	for range 250 {
		cycle4 = append(cycle4, ev(1, trace.KindLock, 2, 0), ev(1, trace.KindUnlock, 2, 0), ev(2, trace.KindLock, 2, 0), ev(2, trace.KindUnlock, 2, 0))
	}
	var same, counting, cycle65 []trace.Event
	for i := range 100 {
		same = append(same, ev(0, trace.KindLoad, 1, 0))
		counting = append(counting, ev(0, trace.KindAdd, 1, uint64(i+1)))
	}
	for i := range 2000 {
		cycle65 = append(cycle65, ev(0, trace.KindStore, 1, uint64(i%65)))
	}
	for _, c := range []struct {
		name string
		evs  []trace.Event
		n, k int
	}{
		{"cycle of 4 after noise", cycle4, 1000, 4},
		{"one step repeated", same, 100, 1},
		{"a counter", counting, 0, 0},
		{"a cycle of 65 steps", cycle65, 0, 0},
		{"one step", same[:1], 0, 0},
		{"none", nil, 0, 0},
		// The last 500 of 1000 steps (half of them) must repeat it.
		{"cycle of 4, half the steps", append(append([]trace.Event(nil), counting...), cycle4[10:10+100]...), 100, 4},
		{"cycle of 4, less than half", append(append(append([]trace.Event(nil), counting...), counting...), cycle4[10:10+96]...), 0, 0},
	} {
		if n, k := periodicTail(c.evs); n != c.n || k != c.k {
			t.Errorf("%s: the last %d steps repeat a cycle of %d; want %d, %d", c.name, n, k, c.n, c.k)
		}
	}
}

// TestStopsAtBoundHits checks when the failures found stop an
// exploration: a divergence always; with StopOnFail, a failure other than
// a bound hit, or MaxBoundHits bound hits.
func TestStopsAtBoundHits(t *testing.T) {
	for _, c := range []struct {
		counts       map[trace.FailureKind]int
		stop, nostop bool // StopsAt(true), StopsAt(false)
	}{
		{map[trace.FailureKind]int{}, false, false},
		{map[trace.FailureKind]int{trace.Livelock: 1}, false, false},
		{map[trace.FailureKind]int{trace.Livelock: MaxBoundHits - 1}, false, false},
		{map[trace.FailureKind]int{trace.Livelock: MaxBoundHits}, true, false},
		{map[trace.FailureKind]int{trace.Livelock: 2, trace.Assertion: 1}, true, false},
		{map[trace.FailureKind]int{trace.Livelock: 1, trace.Nondeterminism: 1}, true, true},
	} {
		r := newResult("optimal")
		r.FailureCounts = c.counts
		if r.StopsAt(true) != c.stop || r.StopsAt(false) != c.nostop {
			t.Errorf("failures %v: stops at %v, %v (stop on fail, keep going); want %v, %v",
				c.counts, r.StopsAt(true), r.StopsAt(false), c.stop, c.nostop)
		}
	}
}
