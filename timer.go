// This file implements timers on virtual time: NewTimer, Stop, Reset and
// After, with Go 1.23's semantics for timer channels.

package weft

import "time"

// Timer is a timer on virtual time, like time.Timer: when its deadline comes,
// a receive from C gets the deadline (the virtual time since the execution
// started, as T.Now gives). Virtual time moves only when every thread is
// blocked, as in testing/synctest, so a timer fires exactly when nothing else
// can happen first. As in Go 1.23, C is unbuffered: after Stop or Reset
// returns, no value from before is received. Do not send on or close C.
//
// An armed timer does not keep an execution alive, and a stopped one never
// fires: when every thread has finished, the execution completes (the model
// is in internal/engine/timer.go).
type Timer = TimerOf[time.Duration]

// TimerOf is a Timer whose channel carries values of type T: a receive
// from C gets the value that the function given to NewTimerOf makes of the
// deadline (weft test's stand-in of package time sends time.Time values).
type TimerOf[T any] struct {
	C     *Chan[T]
	value func(deadline time.Duration) T
}

// NewTimer returns a timer that fires after d of virtual time.
func NewTimer(d time.Duration) *Timer {
	return NewTimerOf(d, func(deadline time.Duration) time.Duration { return deadline })
}

// NewTimerOf returns a timer that fires after d of virtual time, sending
// value(deadline).
func NewTimerOf[T any](d time.Duration, value func(deadline time.Duration) T) *TimerOf[T] {
	t := cur()
	c := MakeChan[T](0)
	o := c.register(t)
	t.StartTimer(o, int64(d), func() {
		for {
			c.Send(value(time.Duration(o.When())))
		}
	})
	return &TimerOf[T]{C: c, value: value}
}

// After returns a channel on which the virtual time is received after d has
// passed, like time.After.
func (w *T) After(d time.Duration) *Chan[time.Duration] { return NewTimer(d).C }

// Stop prevents the timer from firing. It reports whether it stopped it:
// false if the timer had already fired (its value received) or been stopped.
func (tm *TimerOf[T]) Stop() bool { return tm.change(-1) }

// Reset makes the timer fire after d from now, and reports whether it was
// armed (not yet received and not stopped) before.
func (tm *TimerOf[T]) Reset(d time.Duration) bool { return tm.change(max(int64(d), 0)) }

// change stops (d < 0) or resets the timer in one step.
func (tm *TimerOf[T]) change(d int64) bool {
	t := cur()
	o := tm.C.register(t)
	armed := t.TimerBegin(o, d)
	if i := o.TimerEntry(); i >= 0 {
		tm.C.pend[i] = tm.value(time.Duration(o.When()))
	}
	t.End(uint64(o.When()), armed)
	return armed
}
