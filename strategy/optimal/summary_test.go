package optimal

import (
	"math/rand/v2"
	"testing"

	"github.com/weft-go/weft/trace"
)

// TestEventSummary checks eventSummary.dependent against names.dependent
// on random sets of events over 6 threads and 3 objects (reads and
// writes, some joins, some failing or uncached): a yes must have an event
// of the set that x depends on, a no none; and it must answer (not
// maybe) where the relation is by thread alone.
func TestEventSummary(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var nm names
	thread := func() trace.ThreadID { return trace.ThreadID(rng.IntN(6)) }
	random := func() *event {
		e := &event{sth: thread(), spart: trace.NoThread, sjoin: trace.NoThread}
		if rng.IntN(4) == 0 {
			e.spart = thread()
		}
		if rng.IntN(6) == 0 {
			e.sjoin = thread()
		}
		obj := trace.ObjectID(rng.IntN(3))
		mode := trace.Read
		if rng.IntN(2) == 0 {
			mode = trace.Write
		}
		e.acc[0], e.nacc = trace.Access{Obj: obj, Mode: mode}, 1
		e.mask = 1 << (uint(obj) % 64)
		e.cached = rng.IntN(20) != 0
		e.fails = rng.IntN(40) == 0
		return e
	}
	answered := 0
	var s eventSummary
	for range 20_000 {
		s.reset()
		set := make([]*event, rng.IntN(5))
		for i := range set {
			set[i] = random()
			s.add(set[i])
		}
		x := random()
		some := false
		for _, l := range set {
			some = some || nm.dependent(l, x)
		}
		switch got := s.dependent(x); {
		case got == depYes && !some:
			t.Fatalf("yes, but %v depends on none of %v", x, set)
		case got == depNo && some:
			t.Fatalf("no, but %v depends on one of %v", x, set)
		case got != depMaybe:
			answered++
		}
	}
	if answered < 10_000 {
		t.Errorf("answered %d of 20,000 without comparing; want most", answered)
	}
}
