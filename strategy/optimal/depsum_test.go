package optimal

import (
	"math/rand/v2"
	"testing"

	"github.com/weft-go/weft/trace"
)

// randEvent returns an event of a few threads and objects, with a partner,
// a join, started threads, two accesses or a failure now and then.
func randEvent(r *rand.Rand) *event {
	kinds := []trace.Kind{trace.KindLoad, trace.KindStore, trace.KindAdd}
	e := ev(trace.ThreadID(r.IntN(6)), int32(r.IntN(3)), kinds[r.IntN(len(kinds))], trace.ObjectID(r.IntN(5)))
	if r.IntN(6) == 0 {
		e.spart = trace.ThreadID(r.IntN(6))
	}
	if r.IntN(8) == 0 {
		e.sjoin = trace.ThreadID(r.IntN(6))
	}
	if r.IntN(8) == 0 {
		e.setKids([]trace.ThreadID{trace.ThreadID(r.IntN(6)), trace.ThreadID(r.IntN(6))})
	}
	if r.IntN(4) == 0 {
		e.setAnn([]trace.Access{{Obj: trace.ObjectID(r.IntN(5)), Mode: trace.Mode(1 + r.IntN(3))}})
		e.cache()
	}
	e.fails = r.IntN(40) == 0
	return e
}

// TestDepSum checks the summary of a sequence against dependent with each
// of its events, as follow drops them: with threads and objects numbered
// below the summary's sizes it is exact, so mayDepend is false exactly when
// firstDependent finds no event.
func TestDepSum(t *testing.T) {
	var n names
	r := rand.New(rand.NewPCG(1, 2))
	independent, dependent := 0, 0
	for range 2000 {
		seq := make([]*event, 1+r.IntN(6))
		for i := range seq {
			seq[i] = randEvent(r)
		}
		var s depSum
		s.reset(seq)
		for len(seq) > 0 {
			c := randEvent(r)
			want := n.firstDependent(seq, c) >= 0
			if got := s.mayDepend(c); got != want {
				t.Fatalf("mayDepend(%v) = %v of %s; want %v", c, got, seqString(seq), want)
			}
			if want {
				dependent++
			} else {
				independent++
			}
			at := r.IntN(len(seq))
			s.remove(seq[at])
			seq = append(seq[:at], seq[at+1:]...)
		}
	}
	if independent == 0 || dependent == 0 {
		t.Errorf("%d independent and %d dependent cases: want some of each", independent, dependent)
	}
}

// TestSameKey checks sameKey against the labels it stands for, on events
// that differ in one field or two.
func TestSameKey(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	pick := func() *event {
		e := ev(trace.ThreadID(r.IntN(2)), int32(r.IntN(2)), trace.KindLoad, 0)
		e.Case, e.PartnerCase, e.pstep = int32(r.IntN(2))-1, int32(r.IntN(2))-1, int32(r.IntN(2))
		if r.IntN(2) == 0 {
			e.spart = 1
		}
		return e
	}
	same, differ := 0, 0
	for range 5000 {
		a, b := pick(), pick()
		want := a.key() == b.key()
		if got := sameKey(a, b); got != want {
			t.Fatalf("sameKey(%v, %v) = %v, want %v", a, b, got, want)
		}
		if want {
			same++
		} else {
			differ++
		}
	}
	if same == 0 || differ == 0 {
		t.Errorf("%d pairs with the same key, %d with different ones: want some of each", same, differ)
	}
}
