// This file implements Timer, After and AfterFunc: weft timers on virtual
// time inside an execution, the standard library's outside.

package time

import (
	"time"

	"github.com/weft-go/weft"
	"github.com/weft-go/weft/internal/shim"
)

// Timer is time.Timer. C is nil for a timer made by AfterFunc.
type Timer struct {
	C <-chan Time
	r *time.Timer // a timer made outside an execution
	w weftTimer   // a timer made inside one
}

// weftTimer is a weft timer: a *weft.TimerOf[Time], or the *weft.Timer of
// an AfterFunc, whose channel the program never sees.
type weftTimer interface {
	Stop() bool
	Reset(d Duration) bool
	SetName(name string)
}

// newWeftTimer returns a weft timer that fires after d, and the channel of
// the program that stands for its channel in the current execution.
func newWeftTimer(d Duration) (*weft.TimerOf[Time], <-chan Time) {
	tm := weft.NewTimerOf(d, at)
	return tm, standIn(tm.C)
}

// standIn returns a channel of the program that stands for weft channel
// wc in the current execution.
func standIn(wc *weft.Chan[Time]) <-chan Time {
	c := make(chan Time)
	shim.Lookup(shim.ChanPointer(c), func() *weft.Chan[Time] { return wc })
	return c
}

// NewTimer is time.NewTimer: inside an execution, a weft timer on virtual
// time.
func NewTimer(d Duration) *Timer {
	if !shim.Active() {
		r := time.NewTimer(d)
		return &Timer{C: r.C, r: r}
	}
	tm, c := newWeftTimer(d)
	return &Timer{C: c, w: tm}
}

// After is time.After: NewTimer(d).C.
func After(d Duration) <-chan Time { return NewTimer(d).C }

// AfterFunc is time.AfterFunc: inside an execution, weft.AfterFunc, whose
// f runs in a goroutine of its own when the weft timer fires.
func AfterFunc(d Duration, f func()) *Timer {
	if !shim.Active() {
		return &Timer{r: time.AfterFunc(d, f)}
	}
	return &Timer{w: weft.AfterFunc(d, f)}
}

// AfterFuncAt is AfterFunc for the instant t rather than a duration from
// now; it is not in package time. weft's std/context uses it for a
// context's deadline: when virtual time may move at any step, the clock
// may advance between a reading of the time (Until) and the step that
// arms a timer, which would then fire after the deadline. The steps of
// the goroutine that waits for the timer and runs f, weft's own, are
// shown in reports as one, labelled label.
func AfterFuncAt(t Time, label string, f func()) *Timer {
	if !shim.Active() {
		return AfterFunc(time.Until(t), f)
	}
	return &Timer{w: weft.AfterFuncAt(t.Sub(epoch()), label, f)}
}

// Stop is Timer.Stop: it reports whether it stopped the timer (false if it
// had fired or been stopped).
func (t *Timer) Stop() bool {
	if t.r != nil {
		return t.r.Stop()
	}
	return t.w.Stop()
}

// Reset is Timer.Reset: the timer fires after d from now (an AfterFunc
// timer runs its function again); it reports whether the timer was armed.
func (t *Timer) Reset(d Duration) bool {
	if t.r != nil {
		return t.r.Reset(d)
	}
	return t.w.Reset(d)
}
