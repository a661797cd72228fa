// This file models virtual time (internal/engine/timer.go): sleeps and
// timers, whose channel is unbuffered and offered a send by the timer's
// own thread while the timer is armed and due. Time moves only when no
// thread is enabled (Advance), as in testing/synctest, or at any step, by
// the clock thread's advance (trace.KindAdvance), which Apply applies.

package model

import "github.com/weft-go/weft/trace"

func init() {
	// A timer's channel is a channel whose sender is the timer's thread:
	// its operations are enabled as a channel's.
	register(&primitive{class: trace.ClassTimer, reset: resetTimer, apply: (*Object).applyTimer, ops: []opModel{
		{kind: trace.KindSend, enabled: (*State).chanEnabled, chanAlts: true},
		{kind: trace.KindRecv, enabled: (*State).chanEnabled, chanAlts: true, multi: true, observed: observeBoth},
		{kind: trace.KindClose},
		{kind: trace.KindTimerStop, objOutcome: (*Object).timerOutcome, observed: observeOK},
		{kind: trace.KindSleep, enabled: (*State).sleepEnabled, outcome: (*State).nowOutcome},
	}})
	register(&primitive{class: trace.ClassClock, ops: []opModel{
		{kind: trace.KindNow, outcome: (*State).nowOutcome},
		{kind: trace.KindAdvance, enabled: (*State).advanceEnabled, outcome: (*State).advanceOutcome},
		{kind: trace.KindSleep, enabled: (*State).sleepEnabled, outcome: (*State).nowOutcome},
		{kind: trace.KindTimerStop, objOutcome: (*Object).timerOutcome, observed: observeOK},
	}})
}

// resetTimer arms timer o at its first deadline (ObjectInfo.When).
func resetTimer(o *Object, info *trace.ObjectInfo) {
	o.Locked, o.When, o.Ticker = true, info.When, info.Ticker
}

// nowOutcome is the outcome of a read of the clock (and of a Sleep): the
// time.
func (s *State) nowOutcome(_ trace.ThreadID, _ trace.Op, out Outcome) Outcome {
	out.Value = uint64(s.Now)
	out.Data = !s.timed()
	return out
}

// advanceOutcome is the outcome of an advance of the clock: the time it
// moves to.
func (s *State) advanceOutcome(_ trace.ThreadID, _ trace.Op, out Outcome) Outcome {
	out.Value = uint64(s.nextDeadline(true))
	out.Data = !s.timed()
	return out
}

// advanceEnabled is the enabledness of an advance of the clock: a deadline
// lies after now.
func (s *State) advanceEnabled(trace.ThreadID, trace.Op) Verdict {
	if !s.timed() {
		return Unknown
	}
	return verdict(s.nextDeadline(true) >= 0)
}

// sleepEnabled is the enabledness of Sleep op: its deadline (Op.Arg) has
// come.
func (s *State) sleepEnabled(_ trace.ThreadID, op trace.Op) Verdict { return s.sleepReady(op.Arg) }

// applyTimer applies event e to timer o: a receive that met the timer's
// thread disarms it; Stop disarms it, Reset re-arms it with a new deadline
// (Op.Arg).
func (o *Object) applyTimer(e *trace.Event, _ int32) {
	switch e.Op.Kind {
	case trace.KindRecv, trace.KindSelect:
		if e.Partner != trace.NoThread {
			o.Locked = false
		}
	case trace.KindTimerStop:
		if e.Op.Arg < 0 {
			o.Locked = false
		} else {
			o.Locked, o.When = true, e.Op.Arg
		}
	}
}

// timerOutcome is the outcome of op on timer o: Stop and Reset report
// whether the timer was armed, and give the deadline after them. (A
// receive on a timer's channel is a channel's: it meets the timer's
// thread, which sends its deadline.)
func (o *Object) timerOutcome(_ trace.ThreadID, op trace.Op, out Outcome) Outcome {
	if op.Kind == trace.KindTimerStop {
		out.OK, out.Value = o.Locked, uint64(o.When)
		if op.Arg >= 0 {
			out.Value = uint64(op.Arg)
		}
	}
	return out
}

// sleepReady is the enabledness of a Sleep until deadline d.
func (s *State) sleepReady(d int64) Verdict {
	if !s.timed() {
		return Unknown
	}
	return verdict(s.Now >= d)
}

// Advance moves virtual time to the earliest deadline after Now of a
// sleeping thread or an armed timer whose thread offers its send, as the
// runtime does when no thread is enabled and time moves only then. It
// reports false if there is none.
func (s *State) Advance() bool {
	next := s.nextDeadline(false)
	if next < 0 {
		return false
	}
	s.Now = next
	return true
}

// nextDeadline returns the earliest deadline after Now of a sleeping
// thread or an armed timer whose thread offers its send, or -1: where an
// advance of the clock moves it (trace.KindAdvance). With stopped (time
// at any step, the clock thread's advance), the deadline of a timer
// stopped before it fired counts too, as the runtime's (internal/engine,
// clock.go): an advance to it is in the trace to race with the Stop.
// Without stopped (time moves only when every thread is blocked), once
// the test body (thread 0) has finished a ticker's deadline does not
// count, as the runtime's does not.
func (s *State) nextDeadline(stopped bool) int64 {
	next := int64(-1)
	returned := !stopped && len(s.Threads) > 0 && s.Threads[0].Done
	for q := range s.Threads {
		t := &s.Threads[q]
		d := int64(-1)
		switch {
		case t.Done:
		case t.Op.Kind == trace.KindSleep:
			d = t.Op.Arg
		case t.Op.Kind == trace.KindSend:
			if o := s.object(t.Op.Obj); o != nil && o.Class == trace.ClassTimer && (o.Locked || stopped) && !(returned && o.Ticker) {
				d = o.When
			}
		}
		if d > s.Now && (next < 0 || d < next) {
			next = d
		}
	}
	return next
}

// Daemon reports whether thread p is weft's own: a timer's thread, whose
// pending operation is the send on the timer's channel, or the clock's,
// whose pending operation is an advance. A daemon never counts as live,
// blocked or leaked.
func (s *State) Daemon(p trace.ThreadID) bool {
	op := s.Threads[p].Op
	if op.Kind == trace.KindAdvance {
		return true
	}
	if op.Kind != trace.KindSend {
		return false
	}
	o := s.object(op.Obj)
	return o != nil && o.Class == trace.ClassTimer
}
