// This file implements Ticker and Tick: weft's ticker (a timer that the
// goroutine receiving its tick re-arms) inside an execution, the standard
// library's ticker outside.

package time

import (
	"time"

	"github.com/weft-go/weft"
	"github.com/weft-go/weft/internal/shim"
)

// Ticker is time.Ticker.
type Ticker struct {
	C <-chan Time
	r *time.Ticker         // a ticker made outside an execution
	w *weft.TickerOf[Time] // a ticker made inside one
}

// NewTicker is time.NewTicker: inside an execution, a ticker on virtual
// time (weft.NewTickerOf). It panics if d <= 0, as time.NewTicker does.
func NewTicker(d Duration) *Ticker {
	if !shim.Active() {
		r := time.NewTicker(d)
		return &Ticker{C: r.C, r: r}
	}
	if d <= 0 {
		panic("non-positive interval for NewTicker")
	}
	tk := weft.NewTickerOf(d, at)
	return &Ticker{C: standIn(tk.C), w: tk}
}

// Tick is time.Tick: NewTicker(d).C, or nil if d <= 0.
func Tick(d Duration) <-chan Time {
	if d <= 0 {
		return nil
	}
	return NewTicker(d).C
}

// Stop is Ticker.Stop: no more ticks are sent.
func (t *Ticker) Stop() {
	if t.r != nil {
		t.r.Stop()
		return
	}
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
	t.w.Reset(d)
}
