// This file implements timers on virtual time, with Go 1.23's semantics for
// timer channels (synchronous: no stale value after Stop or Reset).
//
// The model. Virtual time (Exec.now) moves either only when no thread is
// enabled, to the earliest future deadline of a sleeping thread or an armed
// timer (advanceTime), as in testing/synctest, or at any step, by a step of
// weft's clock thread (clock.go).
//
// A timer is an unbuffered channel C plus a daemon thread that forever offers
// a send on C. The channel's object has class ClassTimer (its receives and
// sends are still channel operations, of Class ClassChan), and its Obj holds
// the timer's state: owner is the daemon
// thread, locked means armed, when is the deadline. The daemon's pending send
// is offered to receivers (plain receives and select cases) only while the
// timer is armed and now >= when (Exec.offered); the rendezvous that takes it
// is an ordinary receive step, whose partner is the daemon, and disarms the
// timer (Meet). The value sent is the deadline. The daemon itself is never
// enabled (an unbuffered send is completed by its receiver), so a timer never
// takes a step of its own.
//
// Stop and Reset are steps on C (KindTimerStop, Class ClassTimer, or
// ClassClock when time moves at any step; Op.Arg -1 for Stop, the new
// deadline for Reset). Stop disarms; Reset re-arms with a
// new deadline; both report whether the timer was armed (not yet received
// and not stopped), as Go 1.23's do. A stopped timer's pending send is never
// offered and its deadline is not a deadline any more, so it neither fires
// nor moves time.
//
// A daemon never counts as live, blocked or leaked: the execution completes
// when every other thread has finished, even if a timer is armed (Go does not
// wait for timers), and a deadlock or leak is about the other threads only.
//
// Dependence: Stop and Reset of a timer and receives on its channel are
// dependent; the daemon's send is part of the receive that meets it.

package engine

import "github.com/weft-go/weft/trace"

// StartTimer arms a timer on unbuffered channel o (registered by the caller)
// with deadline now+d, and starts its daemon thread running f, which must
// forever send the deadline on the channel.
func (t *Thread) StartTimer(o *Obj, d int64, f func()) {
	e := t.e
	if e.aborting.Load() {
		panic(unwindSignal{})
	}
	now := e.now
	if e.anyStep() {
		// The deadline is the time at a step of its own (clock.go).
		now = t.clockStep(true)
	}
	shown := t.raceSpawn()
	u := e.newThread(t.id, f)
	u.raceParent = t
	u.daemon = true
	e.live--
	o.owner = u.id
	o.arm(true, now+max(d, 0))
	// The channel is a timer's: strategies and reports can tell it apart.
	o.class = trace.ClassTimer
	e.tr.Objects[o.id].Class = trace.ClassTimer
	e.tr.Objects[o.id].When = o.when
	u.returnTo = t
	t.handTo(u)
	t.raceRestore(shown)
}

// MarkTicker marks timer channel o as a ticker's in the trace
// (trace.ObjectInfo.Ticker).
func (t *Thread) MarkTicker(o *Obj) { t.e.tr.Objects[o.id].Ticker = true }

// SendsOnTimer reports whether thread t may not send on channel o, nor
// close it: o is a timer's channel (StartTimer) and t is not its daemon.
// time.Timer's channel is receive-only; weft's is a *Chan, so the rule is
// checked when the program runs.
func (t *Thread) SendsOnTimer(o *Obj) bool {
	return o != nil && o.class == trace.ClassTimer && t.id != o.owner
}

// timerArmed reports whether the timer of channel o is armed: its thread
// offers its send from its deadline on.
func (o *Obj) timerArmed() bool { return o.locked }

// arm arms the timer of channel o at deadline when, or disarms it.
func (o *Obj) arm(armed bool, when int64) { o.locked, o.more().when = armed, when }

// When returns the deadline of timer channel o.
func (o *Obj) When() int64 {
	if o.objMore == nil {
		return 0
	}
	return o.when
}

// TimerEntry returns the index of the daemon's pending send among timer
// channel o's pending sends, or -1.
func (o *Obj) TimerEntry() int {
	for i, s := range o.out {
		if s.tid == o.owner {
			return i
		}
	}
	return -1
}

// TimerBegin announces a Stop (d < 0) or a Reset to now+d of the timer on
// channel o; when the thread is chosen it performs it and returns whether
// the timer was armed. The caller updates the value of the daemon's pending
// send (at TimerEntry) to the new deadline and calls End.
func (t *Thread) TimerBegin(o *Obj, d int64) (armed bool) { return t.timerBegin(o, d, false) }

// TimerBeginAt is TimerBegin for a Reset to the virtual instant when (now,
// if when has passed at the step).
func (t *Thread) TimerBeginAt(o *Obj, when int64) (armed bool) { return t.timerBegin(o, when, true) }

// timerBegin is TimerBegin (abs false) and TimerBeginAt (abs true: d is
// an instant).
func (t *Thread) timerBegin(o *Obj, d int64, abs bool) (armed bool) {
	e := t.e
	at := func() int64 {
		if abs {
			return max(d, e.now)
		}
		return e.now + d
	}
	arg := int64(-1)
	if d >= 0 {
		arg = at()
	}
	class := trace.ClassTimer
	if e.anyStep() {
		class = trace.ClassClock // it reads the clock (clock.go)
	}
	t.begin(trace.Op{Kind: trace.KindTimerStop, Class: class, Obj: o.id, Arg: arg}, o)
	armed = o.timerArmed()
	if d < 0 {
		o.arm(false, o.When())
		return armed
	}
	// The deadline is from the time at the step: when time moves only
	// when every thread is blocked, it has not moved since the announce
	// (an enabled thread holds it); at any step, it may have.
	arg = at()
	t.op.Arg = arg
	o.arm(true, arg)
	return armed
}
