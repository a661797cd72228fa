// Tests of selects with a default and a receive case on an unbuffered
// channel, whose defaults take the conditions of the other threads: small
// programs with their numbers of events and tests, and generated programs
// against exhaustive search.

package unfold_test

import (
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/weft-go/weft"
	"github.com/weft-go/weft/internal/gen"
	"github.com/weft-go/weft/internal/gen/genweft"
	"github.com/weft-go/weft/strategy/unfold"
)

// TestSelectDefaults pins small programs against exhaustive search: the
// unfolding of every interleaving, the same sets of blocked threads, and
// the numbers of events and tests.
func TestSelectDefaults(t *testing.T) {
	for _, c := range []struct {
		name          string
		body          func(*weft.T)
		events, tests int
	}{
		// The body polls a channel a thread sends on: the send arrives
		// before the poll (a rendezvous) or after it (the default, then
		// the sender blocks for ever).
		{"poll against a sender", func(w *weft.T) {
			ch := weft.MakeChan[int](0)
			w.Go(func() { ch.Send(1) })
			weft.Select(weft.OnRecv(ch, nil), weft.OnDefault(nil))
		}, -1, -1},
		// The same, the sender started after the poll: only the default.
		{"poll before the sender starts", func(w *weft.T) {
			ch := weft.MakeChan[int](0)
			weft.Select(weft.OnRecv(ch, nil), weft.OnDefault(nil))
			w.Go(func() { ch.Send(1) })
		}, -1, -1},
		// The sender started first, then a store by the body, then the
		// poll: the sender's arrival races with the store and the poll.
		{"poll after a store, against a sender", func(w *weft.T) {
			ch := weft.MakeChan[int](0)
			x := weft.NewVar[int]("x")
			w.Go(func() { x.Store(2); ch.Send(1) })
			x.Store(1)
			weft.Select(weft.OnRecv(ch, nil), weft.OnDefault(nil))
		}, -1, -1},
		// A send-select with a default against a blocked receiver: the
		// receiver's step meets it, or the default runs (and the
		// receiver blocks).
		{"send-select against a receiver", func(w *weft.T) {
			ch := weft.MakeChan[int](0)
			w.Go(func() { ch.Recv() })
			weft.Select(weft.OnSend(ch, 1, nil), weft.OnDefault(nil))
		}, -1, -1},
		// Two selects with defaults facing each other never meet.
		{"two selects with defaults", func(w *weft.T) {
			ch := weft.MakeChan[int](0)
			w.Go(func() { weft.Select(weft.OnSend(ch, 1, nil), weft.OnDefault(nil)) })
			weft.Select(weft.OnRecv(ch, nil), weft.OnDefault(nil))
		}, -1, -1},
		// A poll against a select without default that offers the send.
		{"poll against a blocking select", func(w *weft.T) {
			ch, other := weft.MakeChan[int](0), weft.MakeChan[int](0)
			w.Go(func() { weft.Select(weft.OnSend(ch, 1, nil), weft.OnRecv(other, nil)) })
			weft.Select(weft.OnRecv(ch, nil), weft.OnDefault(nil))
			other.Close()
		}, -1, -1},
		// A close makes the receive case ready.
		{"poll against a close", func(w *weft.T) {
			ch := weft.MakeChan[int](0)
			w.Go(func() { ch.Close() })
			weft.Select(weft.OnRecv(ch, nil), weft.OnDefault(nil))
		}, -1, -1},
		// A nil channel's case is never ready: the default alone, with
		// the other thread's store beside it.
		{"poll of a nil channel", func(w *weft.T) {
			var ch *weft.Chan[int]
			x := weft.NewVar[int]("x")
			w.Go(func() { x.Store(1) })
			weft.Select(weft.OnRecv(ch, nil), weft.OnDefault(nil))
		}, -1, -1},
	} {
		_, _, ok, same := againstExhaustiveKinds(t, c.name, c.body, unfold.Options{}, unfold.Options{Seed: 1}, unfold.Options{Naive: true})
		if !ok || !same {
			t.Errorf("%s: exhaustive search ran out (%v) or failure kinds differ (%v)", c.name, !ok, !same)
		}
		r, s := explore(t, c.body, unfold.Options{})
		if st := s.Stats(); st.Events != c.events || r.Executions != c.tests || s.Err() != nil {
			t.Errorf("%s: %d events, %d tests, err %v; want %d, %d", c.name, st.Events, r.Executions, s.Err(), c.events, c.tests)
		}
	}
}

// TestGeneratedSelectDefaults runs againstExhaustive on generated programs
// that have a select with a default and a receive or send case on an
// unbuffered channel, with the efficient, a random and the naive possible
// extensions: the same events, the same sets of blocked threads, the same
// failure kinds. 30 programs, 1000 with WEFT_LONG=1, or
// WEFT_UNFOLD_SELECT of them.
func TestGeneratedSelectDefaults(t *testing.T) {
	programs := sweepSize(30, 1000, "WEFT_UNFOLD_SELECT")
	checked, events, tests, dl, bad, big := 0, 0, 0, 0, 0, 0
	for seed := uint64(0); checked < programs && seed < 10000000; seed++ {
		p := gen.NewWith(seed, gen.SelectDefaults)
		all := append([][]gen.Stmt{p.Main}, p.Threads...)
		use, ok := false, true
		for _, ss := range all {
			use = use || defaultUnbuffered(ss, p.Chans)
			ok = ok && onlyAny(ss, modelled)
		}
		if !use || !ok {
			continue
		}
		name := fmt.Sprintf("seed %d", seed)
		t0 := time.Now()
		st, blocked, ok, same := againstExhaustiveKinds(t, name, genweft.Body(p), unfold.Options{}, unfold.Options{Seed: int64(seed) + 1})
		if ok && st.Events <= 300 {
			// The naive extensions, where they take no more than
			// seconds (they try every set of conditions).
			_, _, _, sameNaive := againstExhaustiveKinds(t, name, genweft.Body(p), unfold.Options{Naive: true})
			same = same && sameNaive
		}
		if os.Getenv("DBGT") != "" {
			t.Logf("%s %v ok %v", name, time.Since(t0), ok)
		}
		if !ok {
			big++
			continue
		}
		checked++
		events += st.Events
		tests += st.Tests
		if blocked > 0 {
			dl++
		}
		if !same {
			bad++
			t.Errorf("%s: failure kinds differ from exhaustive search's\n%v", name, p)
		}
	}
	if checked < programs {
		t.Errorf("checked %d programs, want %d", checked, programs)
	}
	t.Logf("%d programs (%d too big for exhaustive search), %d events, %d tests, %d that block, %d with other failure kinds", checked, big, events, tests, dl, bad)
}

// defaultUnbuffered reports whether the statements ss have a select with a
// default and a case on an unbuffered channel (of capacity caps[i]).
func defaultUnbuffered(ss []gen.Stmt, caps []int) bool {
	for _, s := range ss {
		if s.Kind == gen.Select && s.Default {
			for _, c := range s.Cases {
				if caps[c.Chan] == 0 {
					return true
				}
			}
		}
		if defaultUnbuffered(s.Body, caps) || defaultUnbuffered(s.Child, caps) {
			return true
		}
	}
	return false
}

// onlyAny reports whether the statements ss use nothing but kinds and no
// objects of a Scope (selects of every kind allowed).
func onlyAny(ss []gen.Stmt, kinds map[gen.Kind]bool) bool {
	for _, s := range ss {
		if !kinds[s.Kind] || s.Local || !onlyAny(s.Body, kinds) || !onlyAny(s.Child, kinds) {
			return false
		}
	}
	return true
}
