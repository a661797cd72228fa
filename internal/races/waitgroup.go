// This file implements the check of Go's rule on WaitGroups: an Add with
// a positive delta made when the counter is zero must happen before Wait.

package races

import (
	"fmt"
	"slices"

	"github.com/weft-go/weft/trace"
)

// AddWait is a misuse of a WaitGroup: an Add with a positive delta from a
// counter of zero and a Wait of the same WaitGroup, in other threads,
// that no synchronisation but the WaitGroup's own orders. Add and Wait
// are indices of trace events.
type AddWait struct {
	Object    trace.ObjectID
	Add, Wait int
}

// wgEvent is an Add from zero or a Wait of the WaitGroup being checked,
// with its thread's clock after it.
type wgEvent struct {
	event int
	wait  bool
	clock clock
}

// AddWait returns the first misuse of a WaitGroup in tr, by the index of
// its later event, then of its earlier one: sync.WaitGroup's rule
// "calls with a positive delta that occur when the counter is zero must
// happen before a Wait". Such an Add and a Wait are ordered neither way
// by the execution's synchronisation without the WaitGroup's own (an Add
// releases to every later Wait, which would order any Add before a Wait
// that follows it). A Wait that returned before an Add from zero that
// it happens before is a reuse of the WaitGroup, which Go allows.
func (d *Detector) AddWait(tr *trace.Trace) (AddWait, bool) {
	var best AddWait
	found := false
	for _, obj := range d.suspects(tr) {
		if m, ok := d.addWait(tr, obj); ok && (!found || earlier(m, best)) {
			best, found = m, true
		}
	}
	return best, found
}

// earlier reports whether misuse a is found before b: by its later
// event, then by its earlier one.
func earlier(a, b AddWait) bool {
	al, ae := max(a.Add, a.Wait), min(a.Add, a.Wait)
	bl, be := max(b.Add, b.Wait), min(b.Add, b.Wait)
	return al < bl || al == bl && ae < be
}

// suspects returns the WaitGroups of tr with an Add from zero and a Wait
// in another thread: the only ones a misuse can involve.
func (d *Detector) suspects(tr *trace.Trace) []trace.ObjectID {
	if !slices.ContainsFunc(tr.Objects, func(o trace.ObjectInfo) bool { return o.Class == trace.ClassWaitGroup }) {
		return nil // no WaitGroup: the events need no pass
	}
	var adds, waits []trace.ObjectID
	var addBy, waitBy []trace.ThreadID
	for i := range tr.Events {
		ev := &tr.Events[i]
		if ev.Op.Class != trace.ClassWaitGroup {
			continue
		}
		switch {
		case ev.Op.Kind == trace.KindWGAdd && ev.Op.Arg > 0 && int64(ev.Value) == ev.Op.Arg:
			adds, addBy = append(adds, ev.Op.Obj), append(addBy, ev.Thread)
		case ev.Op.Kind == trace.KindWGWait:
			waits, waitBy = append(waits, ev.Op.Obj), append(waitBy, ev.Thread)
		}
	}
	var out []trace.ObjectID
	for i, a := range adds {
		for j, w := range waits {
			if a == w && addBy[i] != waitBy[j] && !containsObj(out, a) {
				out = append(out, a)
			}
		}
	}
	return out
}

func containsObj(s []trace.ObjectID, o trace.ObjectID) bool {
	for _, x := range s {
		if x == o {
			return true
		}
	}
	return false
}

// addWait checks WaitGroup obj of tr: it orders the events as Find does,
// but for obj's own Adds and Waits, and compares the clocks of its Adds
// from zero with those of its Waits in other threads.
func (d *Detector) addWait(tr *trace.Trace, obj trace.ObjectID) (AddWait, bool) {
	d.reset(tr)
	var evs []wgEvent
	for i := range tr.Events {
		ev := &tr.Events[i]
		t := ev.Thread
		c := d.threads[t]
		c[t]++
		isObj := ev.Op.Class == trace.ClassWaitGroup && ev.Op.Obj == obj
		if !isObj {
			d.step(tr, i, ev, c) // a race it finds is another matter
		}
		switch {
		case isObj && ev.Op.Kind == trace.KindWGAdd && ev.Op.Arg > 0 && int64(ev.Value) == ev.Op.Arg:
			evs = append(evs, wgEvent{event: i, clock: append(clock(nil), c...)})
		case isObj && ev.Op.Kind == trace.KindWGWait:
			evs = append(evs, wgEvent{event: i, wait: true, clock: append(clock(nil), c...)})
		}
		for _, u := range d.started[i] {
			d.threads[u] = join(d.threads[u], d.threads[t], d.n)
		}
	}
	for j, b := range evs {
		for _, a := range evs[:j] {
			if a.wait == b.wait {
				continue
			}
			ta, tb := tr.Events[a.event].Thread, tr.Events[b.event].Thread
			if ta == tb || a.clock[ta] <= b.clock[ta] {
				continue // a happens before b
			}
			add, wait := a.event, b.event
			if a.wait {
				add, wait = b.event, a.event
			}
			return AddWait{Object: obj, Add: add, Wait: wait}, true
		}
	}
	return AddWait{}, false
}

// End returns the failure m makes of its execution: Go's panic message
// for the misuse, in the thread of the Wait, naming both events.
func (m AddWait) End(tr *trace.Trace) trace.End {
	return trace.End{Status: trace.Failed, Kind: trace.WaitGroupMisuse, Thread: tr.Events[m.Wait].Thread, Message: m.Message(tr)}
}

// Message describes m: Go's panic message, and both events by thread and
// step.
func (m AddWait) Message(tr *trace.Trace) string {
	add, wait := &tr.Events[m.Add], &tr.Events[m.Wait]
	order := "after"
	if m.Wait < m.Add {
		order = "before"
	}
	return fmt.Sprintf("sync: WaitGroup misuse: Add called concurrently with Wait: %v's Add(%d) at step %d, from a counter of 0, is ordered by no synchronisation but the WaitGroup's own with %v's Wait at step %d, which ran %s it (Go: \"calls with a positive delta that occur when the counter is zero must happen before a Wait\")",
		add.Thread, add.Op.Arg, m.Add+1, wait.Thread, m.Wait+1, order)
}
