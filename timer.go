// This file implements timers on virtual time: NewTimer, Stop, Reset,
// After and AfterFunc, with Go 1.23's semantics for timer channels.

package weft

import (
	"time"

	"github.com/weft-go/weft/internal/engine"
)

// Timer is a timer on virtual time, like time.Timer: when its deadline comes,
// a receive from C gets the deadline (the virtual time since the execution
// started, as T.Now gives; time's gives the time of day). By default
// virtual time moves only when every thread is blocked, as in
// testing/synctest, so a timer fires exactly when nothing else can happen
// first; with WithTime(TimeAnyStep) it may fire at any step once the
// clock reached its deadline. As in Go 1.23, C is
// unbuffered: after Stop or Reset returns, no value from before is
// received. C is receive-only, as time.Timer's is: a send on it or a close
// of it panics.
//
// NewTimer, After, Stop and Reset behave as time's do (Go 1.23 and later),
// and as each other: After(d) is NewTimer(d).C; a duration of 0 or less
// fires at once (at the current virtual time); Stop and Reset report
// whether the timer was armed, that is neither stopped nor received from
// (a timer whose deadline passed but whose value no receive took is still
// armed, as in Go 1.23). The value a receive gets is the deadline, even
// when the receive comes later. AfterFunc and NewTicker (ticker.go) are
// made of the same timers.
//
// An armed timer does not keep an execution alive, and a stopped one never
// fires: when every thread has finished, the execution completes (the model
// is in internal/engine/timer.go). The timer's sender is weft's own thread:
// reports show a receive from C without a partner.
type Timer = TimerOf[time.Duration]

// TimerOf is a Timer whose channel carries values of type T: a receive
// from C gets the value that the function given to NewTimerOf makes of the
// deadline (weft test's stand-in of package time sends time.Time values).
type TimerOf[T any] struct {
	// C is the timer's channel; nil for a timer made by AfterFunc, as
	// time's is.
	C     *Chan[T]
	c     *Chan[T] // the channel, also for an AfterFunc timer
	value func(deadline time.Duration) T
	// f is AfterFunc's function, and stop the channel that Stop closes to
	// end the goroutine that waits to run it.
	f    func()
	stop *Chan[struct{}]
	// label, if not empty, names the steps of the goroutine that waits
	// for an AfterFuncAt timer in reports (engine.BeginCall).
	label string
}

// NewTimer returns a timer that fires after d of virtual time, like
// time.NewTimer.
func NewTimer(d time.Duration) *Timer {
	return NewTimerOf(d, func(deadline time.Duration) time.Duration { return deadline })
}

// NewTimerOf returns a timer that fires after d of virtual time, sending
// value(deadline).
//
//go:norace
func NewTimerOf[T any](d time.Duration, value func(deadline time.Duration) T) *TimerOf[T] {
	t := cur()
	c := MakeChan[T](0)
	o := c.register(t)
	t.StartTimer(o, int64(d), func() {
		for {
			c.Send(value(time.Duration(o.When())))
		}
	})
	return &TimerOf[T]{C: c, c: c, value: value}
}

// After returns a channel on which the virtual time is received after d has
// passed, like time.After: the channel of NewTimer(d), which no one can
// stop.
func After(d time.Duration) *Chan[time.Duration] { return NewTimer(d).C }

// After is the function After, for a test body that has its *T at hand.
func (w *T) After(d time.Duration) *Chan[time.Duration] { return After(d) }

// AfterFunc waits for d of virtual time and then runs f in a goroutine of
// its own, like time.AfterFunc; the returned timer's C is nil, and its
// Stop stops f from running. The goroutine that waits is a thread of the
// execution: in the default time mode an AfterFunc that is neither stopped
// nor fired when every other thread is blocked or finished fires then, so
// f runs before the execution ends.
func AfterFunc(d time.Duration, f func()) *Timer {
	tm := NewTimer(d)
	return tm.afterFunc(f)
}

// AfterFuncAt is AfterFunc for the virtual instant deadline (the virtual
// time since the execution started, as T.Now gives; at once if it has
// passed) rather than a duration from now. Unlike AfterFunc(deadline -
// w.Now(), f), it fires at the instant even when time moves at any step
// (WithTime) and the clock advanced between the two: weft test's stand-in
// of package context arms a context's deadline so. If label is not empty,
// reports show the steps of the goroutine that waits for the timer and
// runs f as one, labelled label ("deadline of ctx").
func AfterFuncAt(deadline time.Duration, label string, f func()) *Timer {
	// Due at once until the ResetAt, but no goroutine waits for it yet.
	tm := NewTimer(0)
	tm.ResetAt(deadline)
	tm.label = label
	return tm.afterFunc(f)
}

// SetName names the timer in reports: the receives from its channel, its
// Stop and its Reset show name ("recv t", not "recv timer#1"). weft
// test's stand-in of package time names a timer after the expression it
// was made for (t := time.NewTimer(d) names it t).
func (tm *TimerOf[T]) SetName(name string) {
	if tm.c != nil {
		tm.c.SetName(name)
	}
}

// afterFunc makes tm an AfterFunc timer running f.
func (tm *TimerOf[T]) afterFunc(f func()) *TimerOf[T] {
	tm.C, tm.f = nil, f
	tm.wait()
	return tm
}

// wait starts the goroutine of an AfterFunc timer, which runs its function
// when the timer fires and ends when Stop stops it.
//
//go:norace
func (tm *TimerOf[T]) wait() {
	stop := MakeChan[struct{}](0)
	tm.stop = stop
	Go(func() {
		if tm.label != "" {
			engine.BeginCall(tm.label)
			defer engine.EndCall()
		}
		if Select(OnRecv(tm.c, nil), OnRecv(stop, nil)) == 0 {
			tm.f()
		}
	})
}

// Stop prevents the timer from firing, like time.Timer.Stop. It reports
// whether it stopped it: false if the timer had already fired (its value
// received, or its AfterFunc's function started) or been stopped.
//
//go:norace
func (tm *TimerOf[T]) Stop() bool {
	armed := tm.change("Stop", -1, false, nil)
	if armed && tm.f != nil {
		tm.stop.Close()
	}
	return armed
}

// Reset makes the timer fire after d from now, like time.Timer.Reset, and
// reports whether it was armed (not yet received and not stopped) before.
// An AfterFunc timer runs its function again when it fires.
//
//go:norace
func (tm *TimerOf[T]) Reset(d time.Duration) bool {
	armed := tm.change("Reset", max(int64(d), 0), false, nil)
	if !armed && tm.f != nil {
		tm.wait() // the previous goroutine ran the function, or ended
	}
	return armed
}

// ResetAt makes the timer fire at the virtual instant deadline (the
// virtual time since the execution started, as T.Now gives; at once if it
// has passed), and reports whether it was armed, as Reset does. Unlike
// Reset(deadline - w.Now()), which is two steps when time may move at any
// step (WithTime), the instant does not depend on whether the clock
// advanced between them: weft test's stand-in of package time re-arms
// tickers so.
//
//go:norace
func (tm *TimerOf[T]) ResetAt(deadline time.Duration) bool {
	armed := tm.change("ResetAt", max(int64(deadline), 0), true, nil)
	if !armed && tm.f != nil {
		tm.wait()
	}
	return armed
}

// Deadline returns the virtual instant at which the timer fires, or fired:
// the deadline NewTimerOf, Reset or ResetAt gave it last.
//
//go:norace
func (tm *TimerOf[T]) Deadline() time.Duration {
	if tm.c == nil {
		panic("weft: Timer.Deadline called on a Timer not made by weft.NewTimer")
	}
	return time.Duration(tm.c.register(cur()).When())
}

// change stops (d < 0) or resets the timer in one step, to d from now or,
// if abs, to the instant d; what is the method, for the panic of a Timer
// not made by NewTimer. inStep, if not nil, runs inside the step, after
// the change: a ticker's state that decides what the goroutine receiving
// its tick does changes there, at a step that receive is dependent with,
// not in the local code before it, which a strategy takes as independent.
//
//go:norace
func (tm *TimerOf[T]) change(what string, d int64, abs bool, inStep func()) bool {
	if tm.c == nil {
		// time's panics too, for a Timer not made by NewTimer.
		panic("weft: Timer." + what + " called on a Timer not made by weft.NewTimer")
	}
	t := cur()
	o := tm.c.register(t)
	var armed bool
	if abs {
		armed = t.TimerBeginAt(o, d)
	} else {
		armed = t.TimerBegin(o, d)
	}
	if i := o.TimerEntry(); i >= 0 {
		tm.c.pend[i] = tm.value(time.Duration(o.When()))
	}
	if inStep != nil {
		inStep()
	}
	t.End(uint64(o.When()), armed)
	return armed
}
