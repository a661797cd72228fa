// This file implements weft's fairness rule: the schedules a strategy may
// choose are those of a fair scheduler, so that a loop that yields (a
// runtime.Gosched or w.Yield spin, a ticker's loop when time moves at any
// step) never keeps the other threads from running until the step bound,
// and a possible livelock is reported only when every fair schedule loops.
//
// The rule is after CHESS's fair scheduling (Musuvathi and Qadeer, "Fair
// stateless model checking", PLDI 2008), where a thread that yields gives
// way to the threads it passes over, with a budget, so that programs that
// yield a few times (a timeout or two, a short spin) keep every execution
// they had, and with priority to the threads passed over, not only the
// lowering of the yielder's, as a loop driven by ticks never yields:
//
//   - A yield is a call of Yield that does not block (the turn of a
//     busy-wait loop did more than load: runtime.Gosched in weft test, or
//     w.Yield), the end of a turn of a polling loop that only read and
//     polled channels (turn.go) and, when time moves at any step, each
//     advance of the clock thread (time passing is the scheduler being
//     slow).
//   - A yield passes over every other thread that has been enabled at a
//     scheduling point since its last step (strong fairness: a mutex that
//     a loop takes and releases at every turn does not hide its waiters
//     for ever, as Go's mutex, after a millisecond, does not either). A
//     thread's count of the yields that passed it over restarts at 0 when
//     it takes a step.
//   - A thread passed over FairYields times is starving: while it is
//     enabled, every thread but the starving ones is hidden from the
//     strategy, as if blocked, so a starving thread runs next.
//   - A select that received a timer's tick FairYields times in a row
//     while it could have taken another of its alternatives stops the
//     clock: the clock thread is hidden, so no tick comes until the select
//     takes another case (Go's select chooses uniformly among the ready
//     cases: a case ready at every turn is taken eventually).
//
// Hiding is a function of the execution so far, so replays reproduce it.
// A strategy that cannot run the starving thread (a sleep set holds it,
// as its step was explored in another branch) finds nothing to choose and
// cuts the execution, which is redundant. Executions without yields and
// without a clock thread are not affected.

package engine

import "github.com/weft-go/weft/trace"

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
}

// reset empties f for a new execution, keeping its memory.
func (f *fairState) reset() {
	bases := f.bases[:0]
	*f = fairState{bases: append(bases, 0)}
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
	defer e.clearDirty()
	f := &e.fair
	evs := e.tr.Events
	if !f.on {
		if e.clock == nil || f.seen == len(evs) {
			f.seen = len(evs)
			return enabled
		}
		f.on = true
	}
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
		f.yields++
		f.bases = append(f.bases, 0)
		if b := f.yields - FairYields; b >= 0 {
			f.starving += int(f.bases[b])
		}
		if wanted {
			f.enter(y)
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
	// Once a thread starves, every other thread gives way to it.
	for _, t := range e.threads {
		if t.vAlts > 0 && t.waited() < FairYields {
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
