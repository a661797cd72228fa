// This file implements Ticker and Tick: a weft timer that the goroutine
// receiving its tick re-arms inside an execution, the standard library's
// ticker outside.

package time

import (
	"time"

	"github.com/weft-go/weft"
	"github.com/weft-go/weft/internal/shim"
)

// Ticker is time.Ticker.
type Ticker struct {
	C <-chan Time
	r *time.Ticker
	w *weft.TimerOf[Time]
	// period is the ticker's period, next the virtual instant of its armed
	// tick.
	period, next Duration
	// stopped says whether Stop was called last; changes counts the calls
	// of Stop and Reset.
	stopped bool
	changes int
}

// NewTicker is time.NewTicker: inside an execution, a ticker on virtual
// time. It panics if d <= 0, as time.NewTicker does.
func NewTicker(d Duration) *Ticker {
	if !shim.Active() {
		r := time.NewTicker(d)
		return &Ticker{C: r.C, r: r}
	}
	if d <= 0 {
		panic("non-positive interval for NewTicker")
	}
	tm, c := weftTimer(d)
	t := &Ticker{C: c, w: tm, period: d, next: tm.Deadline()}
	shim.OnReceive(shim.ChanPointer(c), t.tick)
	return t
}

// Tick is time.Tick: NewTicker(d).C, or nil if d <= 0.
func Tick(d Duration) <-chan Time {
	if d <= 0 {
		return nil
	}
	return NewTicker(d).C
}

// tick re-arms the ticker after a receive of its tick, for the first
// multiple of its period after the current time: the ticks a slow
// receiver missed are dropped. Once the test's body has returned, the
// ticker is not re-armed. A Stop or Reset that another goroutine called
// while the re-arming waited for its turn is applied again after it. The
// tick is re-armed at its instant (ResetAt): when time may move at any
// step, it may have moved since the reading of the time, and the tick is
// then due at once, as a real ticker's would be.
func (t *Ticker) tick() {
	if shim.BodyReturned() || t.stopped {
		return
	}
	now := Duration(shim.Now())
	for t.next <= now {
		t.next += t.period
	}
	changes := t.changes
	t.w.ResetAt(t.next)
	if t.changes == changes {
		return
	}
	if t.stopped {
		t.w.Stop()
		return
	}
	t.w.ResetAt(t.next)
}

// Stop is Ticker.Stop: no more ticks are sent.
func (t *Ticker) Stop() {
	if t.r != nil {
		t.r.Stop()
		return
	}
	t.stopped = true
	t.changes++
	t.w.Stop()
}

// Reset is Ticker.Reset: it stops the ticker and makes its period d, the
// next tick d from now. It panics if d <= 0, as Ticker.Reset does.
func (t *Ticker) Reset(d Duration) {
	if t.r != nil {
		t.r.Reset(d)
		return
	}
	if d <= 0 {
		panic("non-positive interval for Ticker.Reset")
	}
	t.period = d
	t.stopped = false
	t.changes++
	t.w.Reset(d)
	t.next = t.w.Deadline() // d from the time at the Reset's step
}
