// This file implements the two ways virtual time moves: when every thread
// is blocked (TimeWhenBlocked, as in testing/synctest: advanceTime), or at
// any step (TimeAnyStep), where advancing the clock is a step of weft's
// clock thread that the strategy chooses like any other.
//
// In TimeAnyStep, everything that reads the clock is a step of ClassClock
// (trace.TimeObject states their dependence): a read of the clock
// (KindNow: Now, and the start of a Sleep or the creation of a timer, which
// arm a deadline from the time at the step, NowArms), a Sleep's wake-up
// (KindSleep, enabled once its deadline has come), a timer's Stop or
// Reset (KindTimerStop, whose new deadline is computed from the time at
// the step, not at its announce) and the advance (KindAdvance). The clock
// thread starts in the local code of the first step that arms a deadline,
// so a program without sleeps and timers runs as in TimeWhenBlocked. Its
// advance is enabled whenever a sleeping thread's or an armed timer's
// deadline lies after now, and moves now to the earliest one; its pending
// operation lists, as cases, the channels of the timers it makes due,
// whose receives it enables. When every other thread is blocked it is the
// only choice, which gives TimeWhenBlocked's executions back; elsewhere a
// timer may fire (and a sleeper wake) before a step that could come first.
// The clock thread is a daemon: it never counts as live, blocked or
// leaked. When every other thread has finished, it advances to its last
// deadline before the execution completes: nothing observes those
// advances, but an execution is then maximal (no thread enabled at its
// end), and a strategy that reverses races between the events of a trace
// (optimal) sees the race of each advance with an earlier step that
// reads the time.

package engine

import (
	"slices"

	"github.com/weft-go/weft/trace"
)

// TimeMode is when virtual time may move.
type TimeMode uint8

// The time modes.
const (
	// TimeWhenBlocked moves time only when no thread is enabled, to the
	// earliest deadline, as testing/synctest does: a timer fires only when
	// nothing else can happen first.
	TimeWhenBlocked TimeMode = iota
	// TimeAnyStep makes advancing time a step of its own, enabled at every
	// scheduling point where a deadline lies ahead: a timeout may fire
	// before a worker that could still send.
	TimeAnyStep
)

func (m TimeMode) String() string {
	if m == TimeAnyStep {
		return "any"
	}
	return "blocked"
}

// anyStep reports whether time moves at any step in e's executions.
func (e *Exec) anyStep() bool { return e.cfg.Time == TimeAnyStep }

// AnyStep reports whether virtual time moves at any step (TimeAnyStep)
// rather than only when every thread is blocked.
func (e *Exec) AnyStep() bool { return e.anyStep() }

// Now returns the virtual time, reading it in a step of its own
// (KindNow) when time moves at any step: its value depends on whether the
// clock advanced before. A thread that polls the clock sleeps for
// PollQuantum at every PollReads-th poll in a row, before it reads the
// time (poll.go).
func (t *Thread) Now() int64 {
	defer t.polled()
	if t.poll() {
		t.Sleep(PollQuantum)
		return t.e.now
	}
	if t.e.anyStep() {
		return t.clockStep(false)
	}
	return t.e.now
}

// clockStep reads the clock in a KindNow step and returns the time; if
// arms, the step arms a deadline (a Sleep's start, a timer's creation),
// and the clock thread starts in its local code if it has not yet.
func (t *Thread) clockStep(arms bool) int64 {
	e := t.e
	arg := int64(0)
	if arms {
		arg = trace.NowArms
	}
	t.begin(trace.Op{Kind: trace.KindNow, Class: trace.ClassClock, Obj: trace.NoObject, Arg: arg}, nil)
	now := e.now
	t.end(uint64(now), true)
	if arms && e.clock == nil {
		t.startClock()
	}
	return now
}

// startClock starts the clock thread, a child of t, which runs to its
// first advance before startClock returns.
func (t *Thread) startClock() {
	e := t.e
	if e.aborting.Load() {
		panic(unwindSignal{})
	}
	shown := t.raceSpawn()
	u := e.newThread(t.id, nil)
	u.fn = u.tick
	u.raceParent = t
	u.daemon = true
	e.live--
	e.clock = u
	u.returnTo = t
	t.handTo(u)
	t.raceRestore(shown)
}

func init() {
	enabledWhen(trace.ClassClock, trace.KindAdvance, (*Exec).clockAlts)
}

// tick is the clock thread's function: it advances the clock, forever.
func (t *Thread) tick() {
	for {
		t.advance()
	}
}

// advance announces an advance of the clock and, when chosen, moves it to
// the earliest deadline after now.
func (t *Thread) advance() {
	e := t.e
	t.begin(trace.Op{Kind: trace.KindAdvance, Class: trace.ClassClock, Obj: trace.NoObject}, nil)
	// The pending operation is as the last scheduling point computed it
	// (clockAlts).
	e.now = t.op.Arg
	t.end(uint64(e.now), true)
}

// clockAlts is the number of alternatives of the clock thread's pending
// advance (1 if a deadline lies after now), whose operation it fills in:
// Arg, the deadline it moves to; Cases, the channels of the timers that
// become due then. The cases live in the execution's arena, as a select's
// do, so that a strategy may keep a pending operation for the rest of the
// execution: computed at every scheduling point, they are appended to it
// only when they change.
func (e *Exec) clockAlts(t *Thread) int32 {
	next := e.nextDeadline()
	cs := e.clockCases[:0]
	if next >= 0 {
		for _, u := range e.threads {
			if o := u.obj; u.daemon && !u.done && o != nil && o.timerArmed() && o.When() == next {
				cs = append(cs, trace.Case{Kind: trace.KindRecv, Obj: o.id})
			}
		}
	}
	e.clockCases = cs
	if !slices.Equal(cs, e.clockPending) {
		lo := len(e.cases)
		e.cases = append(e.cases, cs...)
		e.clockPending = e.cases[lo:len(e.cases):len(e.cases)]
	}
	t.op.Arg, t.op.Cases = next, e.clockPending
	return b2i(next >= 0)
}

// nextDeadline returns the earliest deadline after now of a sleeping
// thread or an armed timer (timer.go), or -1 if there is none. When time
// moves at any step, the deadline of a timer that was stopped before it
// fired still moves time (nothing fires then): the advance to it is in
// the trace, after the Stop, so that a strategy that reverses races
// (optimal) sees the race of the Stop, and of a select that found the
// timer's channel not ready, with the advance that would have made it
// ready. Without it, a program whose last deadline is a stopped timer's
// had no advance to reverse, and the executions where the timer fired
// before its Stop were never explored.
//
// When time moves only when every thread is blocked, a ticker's deadline
// does not count once the test body has returned: a ticker never stops by
// itself, and a goroutine left reading one would otherwise run for ever;
// it is reported as a leak, as a goroutine left blocked is
// (testing/synctest stops time altogether then). Whether the body has
// returned is decided where every thread is blocked, so it does not depend
// on an order of steps that a strategy takes as equivalent. (When time
// moves at any step, the body's return stops its tickers, in steps of its
// own: package weft's ticker.go.)
func (e *Exec) nextDeadline() int64 {
	next := int64(-1)
	anyStep := e.anyStep()
	for _, t := range e.threads {
		d := int64(-1)
		switch {
		case t.done:
		case t.op.Kind == trace.KindSleep:
			d = t.deadline
		case t.daemon && t.obj != nil && e.bodyReturned && !anyStep && e.tr.Objects[t.obj.id].Ticker:
		case t.daemon && t.obj != nil && (t.obj.timerArmed() || anyStep):
			d = t.obj.When()
		}
		if d > e.now && (next < 0 || d < next) {
			next = d
		}
	}
	return next
}

// advanceTime moves virtual time, when no thread is enabled, to the
// earliest deadline after now (TimeWhenBlocked); it reports false if
// there is none, or if time moves at any step (the clock thread's
// advance, enabled whenever a deadline lies ahead, is the step that
// moves it).
func (e *Exec) advanceTime() bool {
	if e.anyStep() {
		return false
	}
	next := e.nextDeadline()
	if next < 0 {
		return false
	}
	e.now = next
	return true
}
