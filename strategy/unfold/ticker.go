// This file detects tickers whose re-arming after a tick depends on
// state the net does not hold: weft's Ticker re-arms its timer in the
// local code of the receive of a tick unless the ticker was stopped or
// the test body returned, and it keeps that state outside the shared
// objects.

package unfold

import (
	"fmt"
	"slices"

	"github.com/weft-go/weft/trace"
)

// tickerWatch holds, for each ticker (stable object of its channel), the
// events of the unfolding whose local code reads or writes the state the
// Ticker keeps outside the net, and the events after which the body has
// returned.
type tickerWatch struct {
	// readers are the ticks (receives that met the ticker's thread) and
	// the re-armings that follow them; writers the events after which
	// their thread has a Stop or a Reset of the ticker pending (the
	// Ticker sets its state in the local code before that step).
	readers, writers map[int32][]int32
	// returns are the events after which the body (stable thread 0) has
	// finished.
	returns []int32
	err     error // the first pair found concurrent
}

// bodyThread is the stable number of the test body's thread.
const bodyThread = 0

// watchTicker records event e, just added, if its local code reads or
// writes a ticker's hidden state, and checks it against the events of
// the other side recorded before: a reader concurrent with a writer, or
// with the body's return, is a tick whose next operation the net does not
// decide (either event may come first).
func (n *net) watchTicker(e int32) {
	if len(n.tickers) == 0 || n.tick.err != nil {
		return
	}
	w := &n.tick
	if w.readers == nil {
		w.readers, w.writers = map[int32][]int32{}, map[int32][]int32{}
	}
	ev := &n.events[e]
	if o, ok := n.tickRead(e); ok {
		w.readers[o] = append(w.readers[o], e)
		for _, x := range w.writers[o] {
			n.checkTicker(e, x, o, "a Stop or Reset of the ticker by another thread")
		}
		if ev.thread != bodyThread {
			for _, x := range w.returns {
				n.checkTicker(e, x, o, "the return of the test body")
			}
		}
	}
	for _, d := range append([]int32{ev.post[0]}, ev.spawned...) {
		c := &n.conds[d]
		if c.state == pending && c.op.kind == trace.KindTimerStop && n.tickers[c.op.obj] {
			w.writers[c.op.obj] = append(w.writers[c.op.obj], e)
			for _, x := range w.readers[c.op.obj] {
				n.checkTicker(x, e, c.op.obj, "a Stop or Reset of the ticker by another thread")
			}
		}
	}
	if ev.thread == bodyThread && n.conds[ev.post[0]].state == done {
		w.returns = append(w.returns, e)
		for o, rs := range w.readers {
			for _, x := range rs {
				if n.events[x].thread != bodyThread {
					n.checkTicker(x, e, o, "the return of the test body")
				}
			}
		}
	}
}

// tickRead reports whether event e reads a ticker's hidden state in its
// local code, and the ticker's stable object: e is a receive that met
// the ticker's thread (a tick), or a Stop or Reset of the ticker that
// follows a tick in its thread (the re-arming, which looks at whether the
// ticker changed while it waited).
func (n *net) tickRead(e int32) (int32, bool) {
	ev := &n.events[e]
	if n.rendezvous(ev) {
		d := ev.pre[len(ev.pre)-1]
		if !n.daemon(d) {
			return 0, false
		}
		o := n.timerOf[n.threadOf(d)]
		return o, n.tickers[o]
	}
	if ev.op.kind != trace.KindTimerStop || !n.tickers[ev.op.obj] {
		return 0, false
	}
	p := n.conds[ev.pre[0]].producer
	if p < 0 {
		return 0, false
	}
	o, ok := n.tickRead(p)
	return o, ok && o == ev.op.obj && n.events[p].thread == ev.thread
}

// checkTicker records the refusal if reader r and event x (a writer of
// ticker o's hidden state, or the body's return, what) are concurrent:
// some reachable marking enables both, so either may come first, and r's
// thread goes on differently after r in the two orders.
func (n *net) checkTicker(r, x, o int32, what string) {
	if r == x || n.tick.err != nil {
		return
	}
	a, b := n.events[r].pre, n.events[x].pre
	for _, c := range a {
		if slices.Contains(b, c) {
			return // in conflict: never both
		}
	}
	ok, fatal := n.co(append(slices.Clone(a), b...)...)
	if !ok || fatal {
		return
	}
	n.tick.err = fmt.Errorf("unfold does not model a Ticker whose re-arming after a tick another thread's Stop or the body's return decides (a tick by stable thread %d may come before or after %s): the ticker keeps that state outside the shared objects; use optimal or dpor+sleep (%w)", n.events[r].thread, what, ErrUnmodelled)
}
