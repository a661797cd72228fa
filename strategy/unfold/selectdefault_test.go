// Tests of selects with a default and a receive case on an unbuffered
// channel, whose defaults take the conditions of the other threads: small
// programs with their numbers of events and tests, and generated programs
// against exhaustive search.

package unfold_test

import (
	"fmt"
	"maps"
	"testing"

	"github.com/weft-go/weft"
	"github.com/weft-go/weft/internal/gen"
	"github.com/weft-go/weft/internal/gen/genweft"
	"github.com/weft-go/weft/strategy/unfold"
	"github.com/weft-go/weft/trace"
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
		// The body polls a channel that a thread sends on after a store:
		// the send arrives before the poll (a rendezvous) or after it
		// (the default, after which the sender blocks for ever).
		{"poll against a sender", func(w *weft.T) {
			ch := weft.MakeChan[int](0)
			x := weft.NewVar[int]("x")
			w.Go(func() { x.Store(1); ch.Send(1) })
			weft.Select(weft.OnRecv(ch, nil), weft.OnDefault(nil))
		}, 4, 2},
		// The sender's first operation is the send: it offers it from
		// its start, before the poll, which meets it.
		{"poll against a started sender", func(w *weft.T) {
			ch := weft.MakeChan[int](0)
			w.Go(func() { ch.Send(1) })
			weft.Select(weft.OnRecv(ch, nil), weft.OnDefault(nil))
		}, 1, 1},
		// The sender started after the poll: only the default.
		{"poll before the sender starts", func(w *weft.T) {
			ch := weft.MakeChan[int](0)
			weft.Select(weft.OnRecv(ch, nil), weft.OnDefault(nil))
			w.Go(func() { ch.Send(1) })
		}, 1, 1},
		// A sender started by a thread after a store of its: the spawn
		// races with the poll, before it (a rendezvous) or after it.
		{"poll against a sender's spawn", func(w *weft.T) {
			ch := weft.MakeChan[int](0)
			x := weft.NewVar[int]("x")
			w.Go(func() { x.Store(1); w.Go(func() { ch.Send(1) }) })
			weft.Select(weft.OnRecv(ch, nil), weft.OnDefault(nil))
		}, 4, 2},
		// A send-select with a default against a blocked receiver: the
		// receiver's step meets it, or the default runs (and the
		// receiver blocks).
		{"send-select against a receiver", func(w *weft.T) {
			ch := weft.MakeChan[int](0)
			w.Go(func() { ch.Recv() })
			weft.Select(weft.OnSend(ch, 1, nil), weft.OnDefault(nil))
		}, 2, 2},
		// Two selects with defaults facing each other never meet: each
		// takes its default, in either order.
		{"two selects with defaults", func(w *weft.T) {
			ch := weft.MakeChan[int](0)
			w.Go(func() { weft.Select(weft.OnSend(ch, 1, nil), weft.OnDefault(nil)) })
			weft.Select(weft.OnRecv(ch, nil), weft.OnDefault(nil))
		}, 4, 2},
		// A poll of two channels against a select without default that
		// offers a send on one of them after a store.
		{"poll of two channels against a blocking select", func(w *weft.T) {
			a, b := weft.MakeChan[int](0), weft.MakeChan[int](0)
			x := weft.NewVar[int]("x")
			w.Go(func() { x.Store(1); weft.Select(weft.OnSend(b, 1, nil), weft.OnRecv(a, nil)) })
			weft.Select(weft.OnRecv(a, nil), weft.OnRecv(b, nil), weft.OnDefault(nil))
			a.Close()
		}, 7, 2},
		// A close makes the receive case ready.
		{"poll against a close", func(w *weft.T) {
			ch := weft.MakeChan[int](0)
			w.Go(func() { ch.Close() })
			weft.Select(weft.OnRecv(ch, nil), weft.OnDefault(nil))
		}, 4, 2},
		// A nil channel's case is never ready: the default alone, and a
		// receive case on an unbuffered channel beside it.
		{"poll of a nil channel", func(w *weft.T) {
			var nilCh *weft.Chan[int]
			ch := weft.MakeChan[int](0)
			x := weft.NewVar[int]("x")
			w.Go(func() { x.Store(1); ch.Send(1) })
			weft.Select(weft.OnRecv(nilCh, nil), weft.OnRecv(ch, nil), weft.OnDefault(nil))
		}, 4, 2},
		// A timer's case beside the poll: the default takes the timer's
		// thread's condition too, not due (its deadline, 1, lies ahead
		// while the body polls), and the sender's, before its store.
		{"poll beside a timer", func(w *weft.T) {
			ch := weft.MakeChan[int](0)
			x := weft.NewVar[int]("x")
			w.Go(func() { x.Store(1); ch.Send(1) })
			weft.Select(weft.OnRecv(weft.NewTimer(1).C, nil), weft.OnRecv(ch, nil), weft.OnDefault(nil))
		}, 5, 2},
		// A thread that joins a finished one, then sends, beside a poll:
		// the join gives the finished thread's condition back, which a
		// default after it takes.
		{"poll beside a join", func(w *weft.T) {
			ch := weft.MakeChan[int](0)
			x := weft.NewVar[int]("x")
			t1 := w.Go(func() { x.Store(1) })
			w.Go(func() { t1.Join(); ch.Send(1) })
			weft.Select(weft.OnRecv(ch, nil), weft.OnDefault(nil))
		}, 8, 3},
		// A thread that only stores, beside the poll: the default takes
		// its condition, before or after the store.
		{"poll beside a store", func(w *weft.T) {
			ch := weft.MakeChan[int](0)
			x := weft.NewVar[int]("x")
			w.Go(func() { x.Store(1) })
			weft.Select(weft.OnRecv(ch, nil), weft.OnDefault(nil))
		}, 4, 2},
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

// TestGeneratedSelectDefaults runs generated programs around selects with
// a default (gen.SelectDefaults) that have one with a case on an
// unbuffered channel against exhaustive search, with the efficient, a
// random and (up to 300 events) the naive possible extensions: the same
// events, the same sets of blocked threads (unless the search for stuck
// markings passed its budget: then the events alone), the same failure
// kinds. 30 programs, 1000 with WEFT_LONG=1, or WEFT_UNFOLD_SELECT of
// them.
func TestGeneratedSelectDefaults(t *testing.T) {
	programs := sweepSize(30, 1000, "WEFT_UNFOLD_SELECT")
	checked, events, tests, dl, cut, big := 0, 0, 0, 0, 0, 0
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
		opts := []unfold.Options{{}, {Seed: int64(seed) + 1}, {Naive: true}}
		st, blocked, ok, wasCut := againstExhaustiveCut(t, name, genweft.Body(p), 300, opts...)
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
		if wasCut {
			cut++
		}
	}
	if checked < programs {
		t.Errorf("checked %d programs, want %d", checked, programs)
	}
	t.Logf("%d programs (%d too big for exhaustive search), %d events, %d tests, %d that block, %d whose search for stuck markings was cut", checked, big, events, tests, dl, cut)
}

// againstExhaustiveCut is againstExhaustiveKinds, with the naive
// extensions (Options.Naive) run only where the unfolding has at most
// naiveMax events, and the sets of blocked threads checked only where the
// search for stuck markings stayed within its budget (cut reports that it
// did not, in some run: its deadlocks no test ran into are not found).
// The failure kinds must be exhaustive search's either way: the
// deadlocks it misses are ones some test runs into.
func againstExhaustiveCut(t *testing.T, name string, body func(*weft.T), naiveMax int, opts ...unfold.Options) (first unfold.Stats, blocked int, ok, cut bool) {
	t.Helper()
	obs, sigs, stuck := unfold.NewObserverDeadlocks(true)
	r, err := weft.Explore(body, weft.WithCustomStrategy(obs), weft.KeepGoing(), weft.NoReplayFiles(), weft.WithMaxRuns(3000))
	if err != nil {
		t.Fatal(err)
	}
	if !r.Exhausted {
		return unfold.Stats{}, 0, false, false
	}
	exKinds := kinds(r)
	want, err := sigs()
	if err != nil {
		t.Fatalf("%s: observer: %v", name, err)
	}
	blocked = r.FailureCounts[trace.Deadlock] + r.FailureCounts[trace.Leak]
	for i, o := range opts {
		if o.Naive && len(want) > naiveMax {
			continue // the naive computation tries too many sets
		}
		r, s := explore(t, body, o)
		st := s.Stats()
		if i == 0 {
			first = st
		}
		got := unfold.AnonSignatures(s)
		found := r.FailureCounts[trace.Deadlock] + r.FailureCounts[trace.Leak]
		missed, covered := unfold.Covers(unfold.DeadlockSigs(s, true), stuck())
		if st.DeadlockSearchCut > 0 {
			cut, covered = true, true
		}
		if d := unfold.Diff(got, want, "unfold", "exhaustive"); d != "" || s.Err() != nil || !r.Exhausted || st.Unexpected != 0 || !covered || (blocked > 0) != (found > 0) {
			t.Errorf("%s %+v: %d events, want %d; %d unexpected; err %v %v; blocked %d, unfold %d, missed %v\n%s", name, o, len(got), len(want), st.Unexpected, s.Err(), s.Diverged(), blocked, found, missed, d)
		}
		if !maps.Equal(kinds(r), exKinds) {
			t.Errorf("%s %+v: failure kinds %v, want exhaustive search's %v", name, o, kinds(r), exKinds)
		}
	}
	return first, blocked, true, cut
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
