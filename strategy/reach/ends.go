// This file implements the end races of failing runs: when only postponed
// failing calls can move, the one taken ends the run, and the others'
// steps, with the branches their threads take before they fail, are
// events of the sequence too, after its end (doc.go, End races).

package reach

import (
	"slices"

	"github.com/weft-go/weft/strategy"
	"github.com/weft-go/weft/trace"
)

// deferredAlt is an alternative a run defers to the end (failures.go),
// and the postponement that defers it (nil for a variant's event that
// fails).
type deferredAlt struct {
	o    option
	post *postponement
}

// A tail is the step of a postponed call that a probe run took at an end
// race instead of the one the run takes, with the branches its threads
// took after it, before one of them failed, the pending operations its
// threads were left with and the inputs the probe read.
type tail struct {
	step     trace.Event
	branches []trace.BranchEvent
	final    [2]trace.Op
	failed   trace.ThreadID
	inputs   []trace.InputEvent
}

// A chain is the runs of one end race: a probe run for each hidden
// alternative, which takes it instead of the end race's pick, and then
// the run that takes the pick, analysed with the probes' tails; each
// takes the choices of the first (trail) before.
type chain struct {
	trail  []strategy.Choice
	hidden []strategy.Choice
	next   int
	tails  []tail
}

// endRace is called when, in state st, only deferred alternatives can move
// and pick is to be taken: an end race. The alternatives of other threads
// that are postponed calls whose failure came after a branch on an input
// the variant does not have are hidden behind pick: taken, it fails and
// ends the run, and such a call's branch would be in no sequence
// analysed. If there are, and pick is a postponed call too (otherwise the
// run is run again with it postponed, failures.go), the run starts a
// chain: it is the probe of the first hidden alternative, which endRace
// returns to be taken instead.
func (s *Strategy) endRace(st *strategy.State, pick *option, forcing bool) *option {
	if s.ch != nil || forcing || s.postponedBy(st, pick.c.Thread, pick.c.Alt) == nil {
		return nil
	}
	var hidden []strategy.Choice
	var first *option
	busy := []trace.ThreadID{pick.c.Thread, alternative(st, pick.c.Thread, pick.c.Alt).Partner}
	for i := range s.defs {
		d := &s.defs[i]
		if d.post == nil || !d.post.Branch || s.v.hasEvent(branchRef(d.post.T, d.post.K+1), &s.gs) {
			continue
		}
		q := alternative(st, d.o.c.Thread, d.o.c.Alt).Partner
		if slices.Contains(busy, d.o.c.Thread) || (q != trace.NoThread && slices.Contains(busy, q)) {
			continue
		}
		busy = append(busy, d.o.c.Thread, q)
		hidden = append(hidden, d.o.c)
		if first == nil {
			first = &d.o
		}
	}
	if first == nil {
		return nil
	}
	s.ch = &chain{trail: append(slices.Clone(s.trail), pick.c), hidden: hidden}
	return first
}

// hasEvent reports whether v has an event on the object of r.
func (v *variant) hasEvent(r ref, gs *groups) bool {
	return gs.known(r) && len(v.Pos[gs.of(r)]) > 0
}

// chainRun handles a run of the variant, to be analysed, that ended as
// tr and end: a probe run of a chain is not analysed (true), and the next
// run of the chain is prepared; otherwise it returns the trace to
// analyse: tr, with the probes' tails appended if it is a chain's last
// run.
func (s *Strategy) chainRun(tr *trace.Trace, end trace.End) (*trace.Trace, bool) {
	ch := s.ch
	if ch == nil {
		return tr, false
	}
	if ch.next < len(ch.hidden) {
		if t, ok := s.tailOf(tr, end, len(ch.trail)-1); ok {
			ch.tails = append(ch.tails, t)
		}
		ch.next++
		s.force = append(s.force[:0], ch.trail[:len(ch.trail)-1]...)
		if ch.next < len(ch.hidden) {
			s.force = append(s.force, ch.hidden[ch.next])
		} else {
			s.force = append(s.force, ch.trail[len(ch.trail)-1])
		}
		s.stats.Probes++
		return nil, true
	}
	s.ch, s.force = nil, s.force[:0]
	if s.diverged || len(tr.Events) != len(ch.trail) || !stops(end) {
		s.stats.Hidden += len(ch.hidden)
		return tr, false
	}
	return s.withTails(tr, ch), false
}

// abandon drops the chain of end races under way, if any.
func (s *Strategy) abandon() {
	s.ch, s.force = nil, s.force[:0]
}

// tailOf returns the tail of probe run tr, which took its n-th choice
// instead of the end race's: that step, if a thread of it failed right
// after it, with the branches taken after it.
func (s *Strategy) tailOf(tr *trace.Trace, end trace.End, n int) (tail, bool) {
	if s.diverged || !stops(end) || len(tr.Events) != n+1 {
		return tail{}, false
	}
	e := tr.Events[n]
	if e.Spawned > 0 || (end.Thread != e.Thread && end.Thread != e.Partner) {
		return tail{}, false
	}
	t := tail{step: e, failed: end.Thread}
	t.final[0] = tr.Final[e.Thread]
	if e.Partner != trace.NoThread {
		t.final[1] = tr.Final[e.Partner]
	}
	for _, b := range tr.Branches {
		if int(b.Step) > n {
			t.branches = append(t.branches, b)
		}
	}
	t.inputs = slices.Clone(tr.Inputs)
	return t, true
}

// withTails returns tr, the chain's last run, with the tails of its
// probes appended after its end: each step (at the next position of its
// object), then its branches, counted as the run's (s.k, s.count). A tail
// whose step completes on the object of the run's last step or of another
// tail cannot follow them: it could have taken that step's position
// instead, and is left out for the race set there (s.onLast, checked by
// raced). One with a thread of theirs, or of a probe that did not end at
// the step it took, is left out and counted in Stats.Hidden.
func (s *Strategy) withTails(tr *trace.Trace, ch *chain) *trace.Trace {
	s.stats.Hidden += len(ch.hidden) - len(ch.tails)
	if len(ch.tails) == 0 {
		return tr
	}
	out := &s.tailed
	out.Events = append(out.Events[:0], tr.Events...)
	out.Branches = append(out.Branches[:0], tr.Branches...)
	out.Final = append(out.Final[:0], tr.Final...)
	out.Threads, out.Objects, out.Inputs, out.Merged, out.Evals = tr.Threads, tr.Objects, tr.Inputs, tr.Merged, tr.Evals
	last := &tr.Events[len(tr.Events)-1]
	busy := []trace.ThreadID{last.Thread, last.Partner}
	var objs []int32
	if r, ok := stepRef(last.Op, last.Case, tr.Objects); ok {
		objs = append(objs, s.gs.of(r))
	}
	for _, t := range ch.tails {
		e := t.step
		r, ok := stepRef(e.Op, e.Case, tr.Objects)
		g := int32(-1)
		if ok {
			g = s.gs.of(r)
		}
		if slices.Contains(busy, e.Thread) || (e.Partner != trace.NoThread && slices.Contains(busy, e.Partner)) ||
			!sameInputs(t.inputs, tr.Inputs) {
			s.stats.Hidden++
			continue
		}
		if g >= 0 && slices.Contains(objs, g) {
			// It could have taken the position of the object's last
			// step instead: generate checks that the race set there has
			// it (raced).
			s.onLast = append(s.onLast, onLast{g: g, threads: [2]trace.ThreadID{e.Thread, e.Partner}})
			continue
		}
		busy = append(busy, e.Thread, e.Partner)
		objs = append(objs, g)
		out.Events = append(out.Events, e)
		out.Final[e.Thread] = t.final[0]
		if e.Partner != trace.NoThread {
			out.Final[e.Partner] = t.final[1]
		}
		for _, b := range t.branches {
			b.Step = int32(len(out.Events))
			out.Branches = append(out.Branches, b)
		}
		if g >= 0 {
			if specs := s.v.Pos[g]; int(s.count[g]) < len(specs) && specs[s.count[g]].Black {
				// The run did not take a black event of its variant:
				// its sequence, which ends before it, is not the
				// variant's (Stats.Behind).
				s.behind = true
			}
			s.count[g]++
		}
		s.k[e.Thread]++
		if e.Partner != trace.NoThread {
			s.k[e.Partner]++
		}
		s.countBranches(out)
		s.tailThreads = append(s.tailThreads, t.failed)
	}
	return out
}

// onLast is a tail left out because its step completes on the object of
// the run's last step or of an earlier tail (group g): the threads of
// that step (the second NoThread if it has no partner).
type onLast struct {
	g       int32
	threads [2]trace.ThreadID
}

// raced checks, for event i of the analysed run, the last on its object,
// with race set races (before the pruning of Fig. 10, lines 1-2, which
// leaves to a sibling what it drops), the tails left out on that object:
// one whose step is in the race set is explored there, as a pending call
// is (its variant takes that step at this position, then its branches,
// which its run analyses); one that is not, or whose event is black (no
// column), stays hidden (Stats.Hidden).
func (s *Strategy) raced(i int, black bool, races []outcome) {
	a := &s.an
	g := a.grp[i]
	if len(s.onLast) == 0 || g < 0 || !s.lastOn(i) {
		return
	}
	for _, l := range s.onLast {
		if l.g != g {
			continue
		}
		found := false
		for _, o := range races {
			if l.is(o) {
				found = true
				break
			}
		}
		if black || !found {
			s.stats.Hidden++
		}
	}
}

// is reports whether o is an outcome of the threads of l's step, named
// in either order.
func (l onLast) is(o outcome) bool {
	x, y := int32(l.threads[0]), int32(-1)
	if l.threads[1] != trace.NoThread {
		y = int32(l.threads[1])
	}
	return (o.exec.t == x && o.par.t == y) || (y >= 0 && o.exec.t == y && o.par.t == x)
}

// lastOn reports whether step i of the analysed run is the last on its
// object.
func (s *Strategy) lastOn(i int) bool {
	a := &s.an
	for j := i + 1; j < len(a.grp); j++ {
		if a.grp[j] == a.grp[i] {
			return false
		}
	}
	return true
}

// sameInputs reports whether the inputs a probe read are inputs the run
// read too, under the same names.
func sameInputs(probe, run []trace.InputEvent) bool {
	if len(probe) > len(run) {
		return false
	}
	for i := range probe {
		if probe[i].Name != run[i].Name {
			return false
		}
	}
	return true
}

// failedSteps returns the steps after which a thread failed at the end of
// tr, whose thread p failed (f.fails): p's, and those of the tails
// appended after the end.
func (s *Strategy) failedSteps(tr *trace.Trace, p trace.ThreadID) [][2]int32 {
	last := int32(len(tr.Events) - 1)
	var out [][2]int32
	for _, q := range append([]trace.ThreadID{p}, s.tailThreads...) {
		i, b := failedAfterBranch(tr, q, last)
		out = append(out, [2]int32{i, b})
	}
	return out
}
