// Tests of selects whose send case meets a closed channel while another
// case is ready: the free part of a test leaves the send, which panics,
// for last, so that the test completes.

package unfold_test

import (
	"testing"

	"github.com/weft-go/weft"
	"github.com/weft-go/weft/internal/gen"
	"github.com/weft-go/weft/internal/gen/genweft"
	"github.com/weft-go/weft/strategy/unfold"
	"github.com/weft-go/weft/trace"
)

// TestSelectSendOnClosed pins the executions of programs where a select
// either sends on a channel the body closes, and panics, or receives; two
// stores race beside it. A test that covers the body's store before the
// other thread's must complete, receiving, or the final state of the
// second store (x = 2) is never reached: unfold once ran the select's send
// case first in the free part of that test, and missed it.
func TestSelectSendOnClosed(t *testing.T) {
	for _, c := range []struct {
		name string
		body func(*weft.T)
		// executions, complete and failing ones, final states, and
		// events of the unfolding; exhaustive search's executions and
		// final states.
		runs, complete, failed, finals, events int
		exRuns, exFinals                       int
	}{
		// The smallest: the body closes the channel before its store.
		{"close then store", func(w *weft.T) {
			x := weft.NewVar[int]("x")
			ready, c := weft.MakeChan[int](1), weft.MakeChan[int](0)
			ready.Send(9)
			w.Go(func() { weft.Select(weft.OnSend(c, 3, nil), weft.OnRecv(ready, nil)) })
			w.Go(func() { x.Store(2) })
			c.Close()
			x.Store(1)
		}, 3, 2, 1, 2, 8, 19, 2},
		// The differential sweep's program, reduced: the receive case is
		// on a buffered channel the body fills first.
		{"filled buffer", genweft.Body(&gen.Program{Vars: 1, Chans: []int{2, 0}, Fill: true,
			Threads: [][]gen.Stmt{{{Kind: gen.Select, Cases: []gen.Case{{Send: true, Chan: 1, Val: 3}, {Chan: 0}}}}, {{Kind: gen.Store, Val: 2}}},
			Main:    []gen.Stmt{{Kind: gen.Store, Val: 1}, {Kind: gen.Close, Obj: 1}}}), 4, 2, 2, 2, 10, 16, 2},
	} {
		t.Run(c.name, func(t *testing.T) {
			ex, err := weft.Explore(c.body, weft.WithStrategy("exhaustive"), weft.KeepGoing(), weft.NoReplayFiles())
			if err != nil {
				t.Fatal(err)
			}
			if ex.Executions != c.exRuns || ex.FinalStates != c.exFinals {
				t.Errorf("exhaustive: %d executions, %d final states; want %d, %d", ex.Executions, ex.FinalStates, c.exRuns, c.exFinals)
			}
			r, s := explore(t, c.body, unfold.Options{})
			if s.Err() != nil || s.Diverged() != nil {
				t.Fatalf("unfold stopped: %v, %v", s.Err(), s.Diverged())
			}
			st := s.Stats()
			got := [5]int{r.Executions, r.Complete, r.FailureCounts[trace.SendOnClosed], r.FinalStates, st.Events}
			want := [5]int{c.runs, c.complete, c.failed, c.finals, c.events}
			if got != want || !r.Exhausted || st.Pending != 0 {
				t.Errorf("unfold: executions, complete, sends on closed channels, final states, events %v; want %v (exhausted %t, pending %d)", got, want, r.Exhausted, st.Pending)
			}
			if a, b := kinds(ex), kinds(r); len(a) != 1 || !a[trace.SendOnClosed] || len(b) != 1 || !b[trace.SendOnClosed] {
				t.Errorf("failure kinds: exhaustive %v, unfold %v; want send on closed channel alone", a, b)
			}
		})
	}
}

// TestSelectCloseSearch: a Close of an unbuffered channel that a select's
// receive case met a sender on in the first test must be searched back
// across that select's event, a read of the receiver's copy of the
// channel, as across a plain receive's: the Close before the rendezvous
// (and the receive from the closed channel, and the sender's send on it,
// which panics) were missed. 6 events (3 before), 2 tests.
func TestSelectCloseSearch(t *testing.T) {
	body := func(w *weft.T) {
		x := weft.NewVar[int]("x")
		c0, c1 := weft.MakeChan[int](0), weft.MakeChan[int](0)
		w.Go(func() { c0.Send(1) })
		w.Go(func() { _ = x.Load(); c0.Close() })
		weft.Select(weft.OnRecv(c0, nil), weft.OnRecv(c1, nil))
	}
	st, _, ok := againstExhaustive(t, "select and close", body, unfold.Options{}, unfold.Options{Naive: true}, unfold.Options{Seed: 2})
	if !ok || st.Events != 6 || st.Tests != 2 {
		t.Errorf("%d events, %d tests; want 6, 2", st.Events, st.Tests)
	}
}
