// This file finds the alternatives of receives and selects that a step
// disabled before their thread chose among them, and reverses those races.

package optimal

import (
	"slices"

	"github.com/weft-go/weft/trace"
)

// alternatives looks for the races of the alternatives of receives and
// selects that an event disabled without their thread taking them: the
// partner another receiver took, the case a close or a receive made not
// ready, the sibling alternatives of the one taken.
func (a *analysis) alternatives() {
	tr := a.tr
	n := len(a.evs)
	nt := len(tr.Threads)
	if !a.multi && !slices.ContainsFunc(tr.Final, multi) {
		return
	}
	w := &a.fw
	w.Reset(tr.Objects, nt)
	w.Evals = tr.Evals
	refresh := func(i int) {
		for q := range nt {
			st := tr.Threads[q].Step
			if st < 0 || int(st) < i {
				t := &w.Threads[q]
				t.Op, t.Done = a.pendingOp(trace.ThreadID(q), int(t.Steps))
			}
		}
	}
	for i := range n {
		if a.s.stop.Poll() {
			return // a bound of the exploration passed: it ends here
		}
		refresh(i)
		e := &tr.Events[i]
		// The labels of every receive and select before and after e.
		a.labs = a.labs[:0]
		type span struct {
			p      trace.ThreadID
			lo, hi int
		}
		var spans [8]span
		sp := spans[:0]
		for q := range nt {
			if !multi(w.Threads[q].Op) {
				continue
			}
			lo := len(a.labs)
			labels(w, trace.ThreadID(q), w.Threads[q].Op, func(l label) bool { a.labs = append(a.labs, l); return true })
			if len(a.labs) > lo {
				sp = append(sp, span{trace.ThreadID(q), lo, len(a.labs)})
			}
		}
		w.Apply(e)
		if len(sp) == 0 {
			continue
		}
		refresh(i + 1)
		taken := a.evs[i].label()
		for _, x := range sp {
			a.labs2 = a.labs2[:0]
			if op := w.Threads[x.p].Op; multi(op) {
				labels(w, x.p, op, func(l label) bool { a.labs2 = append(a.labs2, l); return true })
			}
			for _, l := range a.labs[x.lo:x.hi] {
				if l == taken || contains(a.labs2, l) {
					continue
				}
				// e disabled alternative l of x.p.
				a.disabled(i, x.p, l)
			}
		}
	}
}

// disabled reverses the race of event i with alternative l of thread p,
// which i disabled.
func (a *analysis) disabled(i int, p trace.ThreadID, l label) {
	w := a.worldAt(i, len(a.evs))
	found := false
	op := w.Threads[p].Op
	labels(w, p, op, func(m label) bool { found = m == l; return !found })
	if !found {
		return
	}
	base := event{Event: trace.Event{Thread: p, Op: a.s.nm.op(p, op), OK: true}, spawnLo: trace.NoThread}
	nameThreads(&a.s.tn, &base)
	m := a.eventOf(w, base, l)
	m.cache()
	a.limit = i + 1 // the alternative is pending after i
	a.reverse(i, &m)
}

func contains(ls []label, l label) bool {
	for _, x := range ls {
		if x == l {
			return true
		}
	}
	return false
}

// eventOf returns the event of base's thread with label l in world w.
func (a *analysis) eventOf(w *world, base event, l label) event {
	m := base
	m.step, m.Case, m.Partner, m.PartnerCase, m.pstep = l.step, l.cas, l.partner, l.pcas, l.pstep
	m.spart = a.s.tn.Stable(l.partner)
	if l.partner != trace.NoThread {
		m.PartnerOp = a.s.nm.op(l.partner, w.Threads[l.partner].Op)
	}
	return m
}
