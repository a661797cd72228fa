// This file implements tickers on virtual time: NewTicker, Tick, and a
// ticker's Stop and Reset, made of a timer that the goroutine receiving
// its tick re-arms.

package weft

import "time"

// Ticker is a ticker on virtual time, like time.Ticker: a receive from C
// gets the instant of a tick (the virtual time since the execution
// started, as T.Now gives), one each period. As in Go, ticks a slow
// receiver missed are dropped: after a receive, the next tick is the first
// multiple of the period after the current time. The ticker is a timer
// (Timer) that the receive re-arms, so it never takes a step of its own,
// and in the default time mode it moves time only when every thread is
// blocked. Once the test body has returned, its ticks no longer move time
// (a tick already due is still received, and time moved by a sleep or a
// timer still makes ticks due): a goroutine that reads a ticker for ever
// is then a leak, as in a Go test that returned without stopping it
// (testing/synctest stops time altogether once the test returns). When
// time moves at any step (WithTime), the body's return stops the tickers
// the execution made, each in a step of its own after the body's last.
// Neither rule depends on state that a step a strategy takes as
// independent of the tick's receive could change.
type Ticker = TickerOf[time.Duration]

// TickerOf is a Ticker whose channel carries values of type T, the
// function given to NewTickerOf made of the instant of each tick (weft
// test's stand-in of package time sends time.Time values).
type TickerOf[T any] struct {
	C     *Chan[T]
	timer *TimerOf[T]
	// period is the ticker's period, next the instant of its armed tick.
	period, next time.Duration
	// stopped says whether Stop was called last; changes counts the calls
	// of Stop and Reset.
	stopped bool
	changes int
}

// NewTicker returns a ticker that ticks every d of virtual time, like
// time.NewTicker. It panics if d <= 0, as time.NewTicker does.
func NewTicker(d time.Duration) *Ticker {
	return NewTickerOf(d, func(deadline time.Duration) time.Duration { return deadline })
}

// NewTickerOf returns a ticker that ticks every d of virtual time, sending
// value(instant) on each tick. It panics if d <= 0.
//
//go:norace
func NewTickerOf[T any](d time.Duration, value func(instant time.Duration) T) *TickerOf[T] {
	if d <= 0 {
		panic("weft: non-positive interval for NewTicker")
	}
	tm := NewTimerOf(d, value)
	t := cur()
	t.MarkTicker(tm.c.register(t))
	tk := &TickerOf[T]{C: tm.C, timer: tm, period: d, next: tm.Deadline()}
	tm.C.onRecv = tk.tick
	if e := t.Exec(); e.AnyStep() {
		// The clock thread would tick it for ever once the body has
		// returned: the body's return stops it, in a step of its own.
		e.AtBodyReturn(tk.Stop)
	}
	return tk
}

// Tick returns NewTicker(d).C, or nil if d <= 0, like time.Tick: a ticker
// no one can stop.
func Tick(d time.Duration) *Chan[time.Duration] {
	if d <= 0 {
		return nil
	}
	return NewTicker(d).C
}

// tick re-arms the ticker after a receive of its tick, in the receiving
// thread, for the first multiple of its period after the current time. A
// Stop or Reset changes the ticker's state inside its step, which the
// receive is dependent with, so what tick reads is what the steps before
// the receive left. A Stop or Reset that another thread called while the
// re-arming waited for its turn is applied again after it. The tick is
// re-armed at its instant (ResetAt): when time may move at any step, it
// may have moved since the reading of the time, and the tick is then due
// at once, as a real ticker's would be.
//
//go:norace
func (tk *TickerOf[T]) tick() {
	if tk.stopped {
		return
	}
	// The state read here is the receive's: when time moves at any step,
	// the reading of the clock is a step, independent of a Stop or Reset
	// (both only read the time), after which one may already have come (it
	// is applied again below). So nothing of the ticker's state is read
	// after the reading of the clock: the deadline is the one the receive
	// saw, which the same steps in another order give too.
	changes, next, period := tk.changes, tk.next, tk.period
	now := time.Duration(cur().Now())
	for next <= now {
		next += period
	}
	tk.timer.ResetAt(next)
	if tk.changes == changes {
		tk.next = next
		return
	}
	if tk.stopped {
		tk.timer.Stop()
		return
	}
	tk.timer.ResetAt(tk.next)
}

// Stop turns the ticker off, like time.Ticker.Stop: no more ticks are
// sent, and none sent before is received after it.
//
//go:norace
func (tk *TickerOf[T]) Stop() {
	tk.timer.change("Stop", -1, false, func() {
		tk.stopped = true
		tk.changes++
	})
}

// Reset stops the ticker and makes its period d, the next tick d from now,
// like time.Ticker.Reset. It panics if d <= 0.
//
//go:norace
func (tk *TickerOf[T]) Reset(d time.Duration) {
	if d <= 0 {
		panic("weft: non-positive interval for Ticker.Reset")
	}
	tm := tk.timer
	tm.change("Reset", int64(d), false, func() {
		tk.period = d
		tk.stopped = false
		tk.changes++
		tk.next = time.Duration(tm.c.o.When()) // d from the time at the Reset's step
	})
}
