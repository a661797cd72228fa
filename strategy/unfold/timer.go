// This file models timers on virtual time that moves only when every
// thread is blocked: a timer is its own thread (the runtime's daemon,
// which offers a send on the timer's channel for ever), whose conditions
// carry the timer's state; a firing is a receive that meets that thread,
// enabled where the timer is armed and its deadline has come; Stop and
// Reset take the timer thread's condition, and so conflict with a firing.

package unfold

import "github.com/weft-go/weft/trace"

// The state of a timer, held in the value of its thread's conditions:
// the deadline, shifted, and whether the timer is armed.
const timerArmed = 1

// timerState returns the value of a timer thread's condition: armed or
// not, with deadline when.
func timerState(armed bool, when int64) int64 {
	v := when << 1
	if armed {
		v |= timerArmed
	}
	return v
}

// timerWhen returns the deadline of timer state v, and whether it is
// armed.
func timerWhen(v int64) (when int64, armed bool) { return v >> 1, v&timerArmed != 0 }

// daemon reports whether thread condition c is the condition of a
// timer's thread.
func (n *net) daemon(c int32) bool { return n.daemonPlace(n.conds[c].place) }

// daemonPlace reports whether place p is a timer's thread's.
func (n *net) daemonPlace(p int32) bool {
	pl := &n.places[p]
	if pl.kind != threadPlace {
		return false
	}
	_, ok := n.timerOf[pl.thread]
	return ok
}

// timerPlace returns the place of the thread of the timer whose channel
// is stable object o, or -1 if o is no timer's channel.
func (n *net) timerPlace(o int32) int32 {
	th, ok := n.timerThread[o]
	if !ok {
		return -1
	}
	return n.threads[th]
}

// noteTimer records that stable thread th is the thread of the timer
// whose channel is stable object o.
func (n *net) noteTimer(th, o int32) {
	n.timerOf[th] = o
	n.timerThread[o] = th
	n.sleeps = true // time moves for timers too
}

// due reports whether the timer whose thread's condition is d fires at
// time now: it is armed and its deadline has come.
//
// The time of d counts too: when time moves at any step, every advance
// takes d's place, so d's time is the clock's, where the receiver's may
// lag behind it (clock.go); when it moves only when every thread is
// blocked, both are the clock's.
func (n *net) due(d int32, now int64) bool {
	when, armed := timerWhen(n.conds[d].value)
	return armed && when <= max(now, n.nowOf(d))
}

// timerAfter returns the state of the timer whose thread's condition
// event ev took, with state v: a Stop disarms it, a Reset arms it at its
// new deadline, a receive that met its thread disarms it, and anything
// else (an advance, a select's default) leaves it.
func (n *net) timerAfter(ev *event, v int64) int64 {
	when, _ := timerWhen(v)
	switch {
	case ev.op.kind == trace.KindTimerStop && ev.op.arg < 0:
		return timerState(false, when)
	case ev.op.kind == trace.KindTimerStop:
		return timerState(true, ev.op.arg)
	case n.rendezvous(ev):
		return timerState(false, when)
	}
	return v
}

// timerChanged adds the extensions that d, a new condition of a timer's
// thread, gives other threads: the Stops and Resets of the timer that are
// concurrent with it, and the defaults of the selects with a case on the
// timer's channel, which d may make ready or not. (The receives that meet
// its thread are meets'.) These are tried the naive way, for the one
// place.
func (n *net) timerChanged(d int32) {
	o := n.timerOf[n.threadOf(d)]
	ob := n.objects[o]
	if ob == nil {
		return
	}
	for _, t := range ob.users {
		switch k := n.conds[t].op; {
		case n.conds[t].state != pending:
		case k.kind == trace.KindTimerStop && k.class == trace.ClassClock:
			n.naiveFrom(t, n.conds[d].place, d) // with the thread's copy of the clock (clock.go)
		case k.kind == trace.KindTimerStop:
			n.tryPair(t, d)
		case k.kind == trace.KindSelect && k.arg == 1:
			n.selectExts(t)
		}
	}
	n.clockDaemonNew(d)
}
