// This file pins, as data, the smallest programs of event loops on which
// a strategy disagreed with exhaustive search in sweeps of
// TestDifferentialLoops, with what exhaustive search reaches that the
// strategy misses.

package weft_test

import (
	"maps"
	"slices"
	"testing"

	"time"

	"github.com/weft-go/weft"
	"github.com/weft-go/weft/internal/gen"
	"github.com/weft-go/weft/internal/gen/genweft"
)

// pollThenStop polls a timer of period 1 (a select with a default) and
// then stops it: with time at any step, the clock may advance to 1 before
// the poll, which then takes the tick (x = 1).
func pollThenStop(w *weft.T) {
	x := weft.NewVar[int]("x")
	tk := weft.NewTimer(1)
	weft.Select(weft.OnRecv(tk.C, func(time.Duration, bool) { x.Store(1) }), weft.OnDefault(nil))
	tk.Stop()
}

// oneTick is gen's ticker of period 1 for one iteration of a select
// between its tick and a send on the empty buffered c0, the smallest
// program of the sweep on which optimal disagreed, reduced by hand.
var oneTick = &gen.Program{Vars: 1, Chans: []int{1}, Main: []gen.Stmt{{Kind: gen.TickLoop, Val: 1, Val2: 1,
	Body: []gen.Stmt{{Kind: gen.Add, Val: 1}}, Cases: []gen.Case{{Send: true, Chan: 0, Val: 3}}}}}

// tickOrSend is a thread's ticker of period 1 for one iteration of a
// select between its tick and a send on the buffered c0, which the body
// waits for: if the tick is taken, the body deadlocks (the smallest
// deadlock optimal missed in the sweep, seed 5222, reduced by hand).
var tickOrSend = &gen.Program{Vars: 1, Chans: []int{1},
	Threads: [][]gen.Stmt{{{Kind: gen.TickLoop, Val: 1, Val2: 1,
		Body: []gen.Stmt{{Kind: gen.Add, Val: 1}}, Cases: []gen.Case{{Send: true, Chan: 0, Val: 1}}}}},
	Main: []gen.Stmt{{Kind: gen.Recv, Obj: 0}}}

// sendOrRecvClosed is a select between a send on c1, which the body
// closes, and a receive from the filled c0, beside two stores that race
// (seed 3857 of the sweep, reduced by hand; no time involved).
var sendOrRecvClosed = &gen.Program{Vars: 1, Chans: []int{2, 0}, Fill: true,
	Threads: [][]gen.Stmt{{{Kind: gen.Select, Cases: []gen.Case{{Send: true, Chan: 1, Val: 3}, {Chan: 0}}}}, {{Kind: gen.Store, Val: 2}}},
	Main:    []gen.Stmt{{Kind: gen.Store, Val: 1}, {Kind: gen.Close, Obj: 1}}}

// delayedPastTwo is seed 207 of the event-loop sweep: T1 takes up to two
// timeouts (After(2)) or sends on c0, then receives from c0 or times out;
// the body receives from c0, which may be empty by then (a deadlock).
var delayedPastTwo = gen.NewWith(207, gen.Loops)

// loopsPinned are the pinned disagreements: on body (whose source is
// text), with time mode mode, each of strategies misses the finding (a
// failure kind or a final state, as findings names them) that exhaustive
// search reaches. skip, if not empty, says why the test is skipped: a
// known bug, to be unskipped once it is fixed.
var loopsPinned = []struct {
	name       string
	body       func(*weft.T)
	text       string
	mode       weft.TimeMode
	strategies []string
	finding    string
	skip       string
}{
	{
		name: "poll then stop",
		body: pollThenStop,
		text: "tk := NewTimer(1); select { case <-tk.C: x.Store(1); default: }; tk.Stop()",
		mode: weft.TimeAnyStep, strategies: []string{"optimal"}, finding: "final x=1 ",
	},
	{
		name: "one tick beside a ready send",
		body: genweft.Body(oneTick),
		text: oneTick.String(),
		mode: weft.TimeAnyStep, strategies: []string{"optimal"}, finding: "final v0=1 ",
	},
	{
		name: "tick instead of the send the body waits for",
		body: genweft.Body(tickOrSend),
		text: tickOrSend.String(),
		mode: weft.TimeAnyStep, strategies: []string{"optimal"}, finding: "failure deadlock",
	},
	{
		// The body's receive must wait while T1 takes two timeouts, the
		// fairness rule's budget of yields passing over a runnable
		// thread at the time (3) let optimal and flip miss it: the
		// linearisation they chose hid the body before it could.
		name: "receive delayed past two timeouts",
		body: genweft.Body(delayedPastTwo),
		text: delayedPastTwo.String(),
		mode: weft.TimeAnyStep, strategies: []string{"optimal", "flip", "dpor+sleep"}, finding: "failure deadlock",
	},
	{
		name: "select of a send on a closed channel and a ready receive",
		body: genweft.Body(sendOrRecvClosed),
		text: sendOrRecvClosed.String(),
		mode: weft.TimeWhenBlocked, strategies: []string{"unfold"}, finding: "final v0=2 ",
	},
}

// TestDifferentialLoopsPinned checks that exhaustive search reaches each
// pinned finding, and then, unless the case is skipped, that each of its
// strategies reaches it too, and exactly exhaustive search's findings.
func TestDifferentialLoopsPinned(t *testing.T) {
	for _, c := range loopsPinned {
		t.Run(c.name, func(t *testing.T) {
			ref, err := exploreRecorded(c.body, "exhaustive", loopsSweep.ref, weft.WithTime(c.mode))
			if err != nil || !ref.Finished() {
				t.Fatalf("exhaustive: %v (exhausted %t)", err, err == nil && ref.Finished())
			}
			want := findings(ref)
			if !want[c.finding] {
				t.Fatalf("exhaustive search no longer reaches %q: %v\n%v", c.finding, slices.Sorted(maps.Keys(want)), c.text)
			}
			if c.skip != "" {
				t.Skip(c.skip)
			}
			for _, name := range c.strategies {
				got, err := exploreRecorded(c.body, name, 2*ref.Executions+1000, weft.WithTime(c.mode))
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				have := findings(got)
				if m, e := missingFrom(want, have), missingFrom(have, want); len(m)+len(e) > 0 || !got.Finished() {
					t.Errorf("%s, time %v: %v (exhausted %t)\n%v", name, c.mode, loopsDisagreement{m, e}, got.Finished(), c.text)
				}
			}
		})
	}
}
