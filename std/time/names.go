// This file implements WeftName: timers and tickers named in reports
// after the expression of the program they were made for.

package time

// Named makes timers and tickers that reports name after an expression
// of the program. It is not in package time: weft test's rewriting turns
// t := time.NewTimer(d) into t := time.WeftName("t").NewTimer(d), and
// <-time.After(d), with nothing to assign to, into
// <-time.WeftName("time.After(d)").After(d), so that a report reads
// "recv t" and "recv time.After(d)" rather than "recv timer#1".
type Named struct{ name string }

// WeftName returns the maker of timers and tickers named name.
func WeftName(name string) Named { return Named{name} }

// NewTimer is NewTimer, the timer named.
func (n Named) NewTimer(d Duration) *Timer {
	t := NewTimer(d)
	if t.w != nil {
		t.w.SetName(n.name)
	}
	return t
}

// After is After, the timer named.
func (n Named) After(d Duration) <-chan Time { return n.NewTimer(d).C }

// AfterFunc is AfterFunc, the timer named.
func (n Named) AfterFunc(d Duration, f func()) *Timer {
	t := AfterFunc(d, f)
	if t.w != nil {
		t.w.SetName(n.name)
	}
	return t
}

// NewTicker is NewTicker, the ticker named.
func (n Named) NewTicker(d Duration) *Ticker {
	t := NewTicker(d)
	if t.w != nil {
		t.w.C.SetName(n.name)
	}
	return t
}

// Tick is Tick, the ticker named.
func (n Named) Tick(d Duration) <-chan Time {
	if d <= 0 {
		return nil
	}
	return n.NewTicker(d).C
}
