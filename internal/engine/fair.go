// This file implements weft's fairness rule: the schedules a strategy may
// choose are those of a fair scheduler, so that a loop that yields (a
// runtime.Gosched or w.Yield spin, a ticker's loop when time moves at any
// step) never keeps the other threads from running until the step bound,
// and a possible livelock is reported only when every fair schedule loops.
//
// The rule is CHESS's fair scheduling (Musuvathi and Qadeer, "Fair
// stateless model checking", PLDI 2008), where a thread that yields gives
// way to the threads it passes over, with a budget, so that programs that
// yield a few times (a timeout or two, a short spin) keep every execution
// they had:
//
//   - A yield is a call of Yield that does not block (the turn of a
//     busy-wait loop did more than load: runtime.Gosched in weft test, or
//     w.Yield), the end of a turn of a polling loop that only read and
//     polled channels (turn.go) and, when time moves at any step, each
//     advance of the clock thread (time passing is the scheduler being
//     slow). A poll of the clock that sleeps (poll.go) makes its thread
//     a yielder too, though the clock's advance is the yield.
//   - A yield passes over every other thread that has been enabled at a
//     scheduling point since its last step (strong fairness: a mutex that
//     a loop takes and releases at every turn does not hide its waiters
//     for ever, as Go's mutex, after a millisecond, does not either). A
//     thread's count of the yields that passed it over restarts at 0 when
//     it takes a step.
//   - A thread passed over FairYields times is starving: while it is
//     enabled, the threads that yielded since it began to wait (the
//     yielders that passed it over, the clock among them) are hidden from
//     the strategy, as if blocked, until it takes a step. The threads that
//     did not yield keep their choices, as in CHESS, where a yield only
//     lowers the yielder's priority: hiding them as well (an earlier form
//     of the rule) dropped fair schedules that end, such as a spin lock's
//     holder releasing it before a starving waiter tries again, which the
//     strategies reach as the reversal of a race, and lost final states. A
//     loop driven by ticks, which never yields, gets no tick while the
//     clock is hidden.
//   - A select that received a timer's tick FairYields times in a row
//     while it could have taken another of its alternatives stops the
//     clock: the clock thread is hidden, so no tick comes until the select
//     takes another case (Go's select chooses uniformly among the ready
//     cases: a case ready at every turn is taken eventually).
//   - A thread blocked for good in a loop that yields (Yield, LoopTurn)
//     whose variables another thread wrote since its turn read them is
//     runnable in Go: it would take another turn. Yields pass it over as
//     any enabled thread; once FairYields of them have since it was first
//     found so, a fair scheduler runs it, and the execution is assumed
//     away (starvedSpinner), as it is when no thread is left to run
//     (pickNext, before virtual time moves: Go's time moves only when
//     every goroutine is blocked, and this one is not). Without this, a
//     loop that polls a channel or a select's default until such a thread
//     acts spun to the step bound and was reported as a livelock, and a
//     timer fired before the woken thread's turn. It is sound for the
//     reason the end of an execution left with such a thread is: the
//     failed turn only read, so leaving it out changes no state; the
//     executions without it, where the thread's next turn follows the
//     writes, are the reversals of the turn's loads with those writes,
//     which the complete strategies explore, and every state the dropped
//     continuation reaches is reached there.
//
// Hiding is a function of the execution so far, so replays reproduce it.
// A strategy that cannot run the starving thread (a sleep set holds it,
// as its step was explored in another branch) finds nothing to choose and
// cuts the execution, which is redundant. Executions without yields and
// without a clock thread are not affected.

package engine

import (
	"fmt"

	"github.com/weft-go/weft/trace"
)

// FairYields is how many yields of other threads may pass over an enabled
// thread before it runs ahead of every thread but those passed over as
// often.
const FairYields = 5

// fairState is an execution's bookkeeping of the fairness rule. A
// thread's count of the yields that passed it over is kept as the count of
// yields when it became wanted (Thread.waitBase), so that a yield costs the
// same with any number of threads.
type fairState struct {
	// on is set at the first yield: an execution without one skips the
	// rule; primed is set once every thread has been accounted for.
	on, primed bool
	// seen is the number of events accounted for.
	seen int
	// yielder is the thread that yielded since the last scheduling
	// point, or nil.
	yielder *Thread
	// alts is the number of alternatives the thread chosen at the last
	// scheduling point had: more than one if it could have done
	// something else than what it did.
	alts int32
	// yields counts the yields of the execution; bases[b] is the number
	// of enabled wanted threads whose waitBase is b, starving the number
	// whose count reached FairYields, ticked the number of threads whose
	// tickSkips did.
	yields           int32
	bases            []int32
	starving, ticked int
	// spinners are the threads blocked for good in a loop that yields
	// (Thread.block), in the order they blocked.
	spinners []*Thread
}

// reset empties f for a new execution, keeping its memory.
func (f *fairState) reset() {
	bases, spinners := f.bases[:0], f.spinners[:0]
	clear(f.spinners)
	*f = fairState{bases: append(bases, 0), spinners: spinners}
}

// waited is the number of yields of other threads that passed over t since
// its last step.
func (t *Thread) waited() int32 {
	if !t.wanted {
		return 0
	}
	return t.e.fair.yields - t.waitBase
}

// leave stops counting t among the enabled wanted threads.
func (f *fairState) leave(t *Thread) {
	if t.fairIn {
		t.fairIn = false
		f.bases[t.waitBase]--
		if t.waitBase <= f.yields-FairYields {
			f.starving--
		}
	}
}

// enter counts t among the enabled wanted threads if it is one.
func (f *fairState) enter(t *Thread) {
	if !t.fairIn && t.wanted && t.vAlts > 0 {
		t.fairIn = true
		f.bases[t.waitBase]++
		if t.waitBase <= f.yields-FairYields {
			f.starving++
		}
	}
}

// setTickSkips sets t's count of ticks in a row to n.
func (f *fairState) setTickSkips(t *Thread, n int32) {
	if (t.tickSkips >= FairYields) != (n >= FairYields) {
		if n >= FairYields {
			f.ticked++
		} else {
			f.ticked--
		}
	}
	t.tickSkips = n
}

// noteYield records that t yields: a call of Yield that did not block.
func (t *Thread) noteYield() {
	e := t.e
	e.fair.on = true
	e.fair.yielder = t
}

// fairView applies the fairness rule to the view fillView computed: it
// updates the threads' counts with the steps and yields since the last
// scheduling point and hides the threads that must give way. It returns
// the number of threads still enabled (at least one if any was). It
// empties the list of the threads fillView recomputed, the only ones
// whose being wanted may change (a thread that took a step is one).
func (e *Exec) fairView(enabled int) int {
	f := &e.fair
	evs := e.tr.Events
	if !f.on {
		if e.clock == nil || f.seen == len(evs) {
			// The common case, at every step: no deferred call.
			f.seen = len(evs)
			if len(e.dirty) > 0 {
				e.clearDirty()
			}
			return enabled
		}
		f.on = true
	}
	defer e.clearDirty()
	for i := f.seen; i < len(evs); i++ {
		e.fairStep(&evs[i])
	}
	f.seen = len(evs)
	if y := f.yielder; y != nil {
		f.yielder = nil
		// Every wanted thread but the yielder is passed over once more.
		wanted := y.wanted
		if wanted {
			f.leave(y)
			y.waitBase++
		}
		y.lastYield = f.yields
		f.yields++
		f.bases = append(f.bases, 0)
		if b := f.yields - FairYields; b >= 0 {
			f.starving += int(f.bases[b])
		}
		if wanted {
			f.enter(y)
		}
		if t := e.starvedSpinner(); t != nil {
			e.assumeTurn(t, "a fair scheduler runs it now")
			return 0
		}
	}
	want := func(t *Thread) {
		if t.vAlts > 0 && !t.wanted {
			t.wanted, t.waitBase = true, f.yields
		}
		if t.fairIn != (t.wanted && t.vAlts > 0) {
			f.leave(t)
			f.enter(t)
		}
	}
	if !f.primed || e.viewSmall {
		f.primed = true
		for _, t := range e.threads {
			want(t)
		}
	} else {
		for _, t := range e.dirty {
			want(t)
		}
	}
	if f.starving == 0 && f.ticked == 0 {
		return enabled
	}
	if f.starving == 0 {
		// A select starved by ticks stops the clock.
		if c := e.clock; c != nil && c.vAlts > 0 && c.waited() < FairYields {
			e.hide(c)
			enabled--
		}
		return enabled
	}
	// Once a thread starves, the threads whose yields passed it over give
	// way to it.
	base := f.yields
	for _, t := range e.threads {
		if t.vAlts > 0 && t.waited() >= FairYields {
			base = min(base, t.waitBase)
		}
	}
	for _, t := range e.threads {
		if t.vAlts > 0 && t.waited() < FairYields && t.lastYield >= base {
			e.hide(t)
			enabled--
		}
	}
	return enabled
}

// hide hides thread t from the strategy at this scheduling point, as if
// blocked.
func (e *Exec) hide(t *Thread) {
	e.showAlts(t.id, 0)
	e.hiddenTh = append(e.hiddenTh, t)
	e.changed = append(e.changed, t.id)
}

// fairStep accounts for event ev: its threads took a step, and a receive
// of a timer's tick that passed over another alternative counts against
// the clock.
func (e *Exec) fairStep(ev *trace.Event) {
	f := &e.fair
	t := e.threads[ev.Thread]
	f.leave(t)
	t.wanted = false
	if ev.Op.Kind == trace.KindAdvance {
		f.yielder = t
		return
	}
	if ev.Partner == trace.NoThread {
		if ev.Op.Kind == trace.KindSelect || ev.Op.Kind == trace.KindRecv {
			f.setTickSkips(t, 0)
		}
		return
	}
	u := e.threads[ev.Partner]
	f.leave(u)
	u.wanted = false
	switch {
	case !u.daemon || u == e.clock:
		f.setTickSkips(t, 0)
	case f.alts > 1:
		f.setTickSkips(t, t.tickSkips+1)
	default:
		f.setTickSkips(t, 0)
	}
}

// starvedSpinner returns a thread blocked for good in a loop that yields
// whose variables another thread wrote since its turn read them (woken)
// and that FairYields yields of other threads have passed over since it
// was first found so, or nil. In the program such a thread is runnable:
// a fair scheduler runs it, but weft takes its next turn in other
// executions only (Yield).
func (e *Exec) starvedSpinner() *Thread {
	f := &e.fair
	for _, t := range f.spinners {
		switch {
		case t.done || !t.spinning() || !t.woken():
		case t.wokenAt < 0:
			t.wokenAt = f.yields
		case f.yields-t.wokenAt >= FairYields:
			return t
		}
	}
	return nil
}

// wokenSpinner returns a thread blocked for good in a loop that yields
// whose variables another thread wrote since its turn read them, or nil.
func (e *Exec) wokenSpinner() *Thread {
	for _, t := range e.fair.spinners {
		if !t.done && t.spinning() && t.woken() {
			return t
		}
	}
	return nil
}

// spinning reports whether t's pending operation is the await of a loop
// that yields (Thread.block).
func (t *Thread) spinning() bool {
	return t.op.Kind == trace.KindAwait && t.op.Arg == trace.AwaitYield
}

// assumeTurn ends the execution as assumed away: t, blocked for good in a
// loop that yields, would take another turn now, which the strategies
// reach as the reversal of its turn's loads with the writes since, in
// other executions (Yield).
func (e *Exec) assumeTurn(t *Thread, why string) {
	e.finish(trace.End{Status: trace.Assumed, Thread: trace.NoThread,
		Message: fmt.Sprintf("%s's busy-wait loop (w.Yield) read variables that changed since, and %s: its next turn is taken in other executions", t.label(), why)})
}
