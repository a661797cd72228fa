// Tests of VarIndex against VarValue.

package trace

import (
	"math/rand/v2"
	"testing"
)

// TestVarIndexMatchesVarValue compares VarIndex.Value with VarValue on
// random traces of stores, loads and adds (of one byte and of eight) to
// two variables by four threads, for every i and upto and sets where each
// thread's events from a random one on happen after i.
func TestVarIndexMatchesVarValue(t *testing.T) {
	const threads, events = 4, 40
	r := rand.New(rand.NewPCG(1, 2))
	compared, differ := 0, 0
	var x VarIndex
	for range 50 {
		tr := &Trace{Objects: make([]ObjectInfo, 3), Threads: make([]ThreadInfo, threads)}
		vals := [3]uint64{}
		for range events {
			q := ThreadID(r.IntN(threads))
			o := ObjectID(r.IntN(3))
			var e Event
			switch r.IntN(4) {
			case 0:
				e = ev(q, KindStore, ClassVar, o)
				vals[o] = r.Uint64N(300)
			case 1:
				e = ev(q, KindLoad, ClassVar, o)
			default:
				e = addOnly(q, o)
				if o == 2 {
					e.Op.Arg = 1
				}
				vals[o] += r.Uint64N(200)
			}
			if o == 2 {
				vals[o] &= 0xff
			}
			if o == 1 && r.IntN(5) == 0 {
				e.Op.Class = ClassMutex // another object's event in between
			}
			e.Value = vals[o]
			tr.Events = append(tr.Events, e)
		}
		x.Reset(tr)
		for i := range events + 1 {
			from := [threads]int{}
			for q := range from {
				from[q] = i + 1 + r.IntN(events-i+1)
			}
			after := func(k int) bool { return k >= from[tr.Events[k].Thread] }
			for upto := 0; upto <= events; upto++ {
				for o := range ObjectID(3) {
					want := VarValue(tr, o, upto, func(k int) bool { return k < i || k > i && k < upto && !after(k) })
					if got := x.Value(o, upto, i, after); got != want {
						differ++
						if differ < 5 {
							t.Errorf("object %d, upto %d, i %d: Value = %d, VarValue = %d", o, upto, i, got, want)
						}
					}
					compared++
				}
			}
		}
	}
	if compared != 50*41*41*3 || differ != 0 {
		t.Errorf("%d comparisons, %d differ; want %d, 0", compared, differ, 50*41*41*3)
	}
}
