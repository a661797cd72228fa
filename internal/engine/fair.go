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
//     w.Yield) and, when time moves at any step, each advance of the clock
//     thread (time passing is the scheduler being slow).
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

// fairState is an execution's bookkeeping of the fairness rule.
type fairState struct {
	// on is set at the first yield: an execution without one skips the
	// rule.
	on bool
	// seen is the number of events accounted for.
	seen int
	// yielder is the thread that yielded since the last scheduling
	// point, or nil.
	yielder *Thread
	// alts is the number of alternatives the thread chosen at the last
	// scheduling point had: more than one if it could have done
	// something else than what it did.
	alts int32
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
// the number of threads still enabled (at least one if any was).
func (e *Exec) fairView(enabled int) int {
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
	yielder := f.yielder
	f.yielder = nil
	v := e.view.Threads
	starving, ticks := false, false
	for i, t := range e.threads {
		if yielder != nil && t != yielder && t.wanted {
			t.waited++
		}
		if v[i].Alts > 0 {
			t.wanted = true
			starving = starving || t.waited >= FairYields
		}
		ticks = ticks || t.tickSkips >= FairYields
	}
	if !starving && !ticks {
		return enabled
	}
	for i, t := range e.threads {
		if v[i].Alts == 0 || t.waited >= FairYields {
			continue
		}
		// Once a thread starves, every other thread gives way to it; a
		// select starved by ticks stops the clock.
		if starving || t == e.clock {
			v[i].Alts = 0
			enabled--
		}
	}
	return enabled
}

// fairStep accounts for event ev: its threads took a step, and a receive
// of a timer's tick that passed over another alternative counts against
// the clock.
func (e *Exec) fairStep(ev *trace.Event) {
	t := e.threads[ev.Thread]
	t.waited, t.wanted = 0, false
	if ev.Op.Kind == trace.KindAdvance {
		e.fair.yielder = t
		return
	}
	if ev.Partner == trace.NoThread {
		if ev.Op.Kind == trace.KindSelect || ev.Op.Kind == trace.KindRecv {
			t.tickSkips = 0
		}
		return
	}
	u := e.threads[ev.Partner]
	u.waited, u.wanted = 0, false
	switch {
	case !u.daemon || u == e.clock:
		t.tickSkips = 0
	case e.fair.alts > 1:
		t.tickSkips++
	default:
		t.tickSkips = 0
	}
}
