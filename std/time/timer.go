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
	r *time.Timer         // a timer made outside an execution
	w *weft.TimerOf[Time] // a timer made inside one
	f func()              // AfterFunc's function
	// stop is closed when Stop stops an AfterFunc timer, to end the
	// goroutine that waits for it.
	stop *weft.Chan[struct{}]
	// label, for AfterFuncAt, names the steps of the goroutine that waits
	// for the timer in reports.
	label string
}

// weftTimer returns a weft timer that fires after d, and the channel of
// the program that stands for its channel in the current execution.
func weftTimer(d Duration) (*weft.TimerOf[Time], <-chan Time) {
	tm := weft.NewTimerOf(d, at)
	c := make(chan Time)
	shim.Lookup(shim.ChanPointer(c), func() *weft.Chan[Time] { return tm.C })
	return tm, c
}

// NewTimer is time.NewTimer: inside an execution, a weft timer on virtual
// time.
func NewTimer(d Duration) *Timer {
	if !shim.Active() {
		r := time.NewTimer(d)
		return &Timer{C: r.C, r: r}
	}
	tm, c := weftTimer(d)
	return &Timer{C: c, w: tm}
}

// After is time.After: NewTimer(d).C.
func After(d Duration) <-chan Time { return NewTimer(d).C }

// AfterFunc is time.AfterFunc: inside an execution, f runs in a goroutine
// of its own when the weft timer fires.
func AfterFunc(d Duration, f func()) *Timer {
	if !shim.Active() {
		return &Timer{r: time.AfterFunc(d, f)}
	}
	tm, _ := weftTimer(d)
	t := &Timer{w: tm, f: f}
	t.wait()
	return t
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
	// Due at once until the ResetAt to the instant, whatever the clock
	// does between the two steps: no goroutine waits for it yet.
	tm, _ := weftTimer(0)
	tm.ResetAt(t.Sub(Epoch))
	timer := &Timer{w: tm, f: f, label: label}
	timer.wait()
	return timer
}

// wait starts the goroutine of an AfterFunc timer, which runs its function
// when the timer fires and ends when Stop stops it.
func (t *Timer) wait() {
	stop := weft.MakeChan[struct{}](0)
	t.stop = stop
	weft.Go(func() {
		if t.label != "" {
			shim.BeginCall(t.label)
			defer shim.EndCall()
		}
		if weft.Select(weft.OnRecv(t.w.C, nil), weft.OnRecv(stop, nil)) == 0 {
			t.f()
		}
	})
}

// Stop is Timer.Stop: it reports whether it stopped the timer (false if it
// had fired or been stopped).
func (t *Timer) Stop() bool {
	if t.r != nil {
		return t.r.Stop()
	}
	armed := t.w.Stop()
	if armed && t.f != nil {
		t.stop.Close()
	}
	return armed
}

// Reset is Timer.Reset: the timer fires after d from now (an AfterFunc
// timer runs its function again); it reports whether the timer was armed.
func (t *Timer) Reset(d Duration) bool {
	if t.r != nil {
		return t.r.Reset(d)
	}
	armed := t.w.Reset(d)
	if !armed && t.f != nil {
		t.wait() // the previous goroutine ran the function, or ended
	}
	return armed
}
