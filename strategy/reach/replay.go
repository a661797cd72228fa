// This file implements the modified prefix-based run of Lei and Carver 2006, §7.3
// (Fig. 11): the events of the variant are replayed with their partners,
// an unmatched receiving event takes only a sending event that is not in
// the variant, and what is not in the variant runs freely.

package reach

import (
	"github.com/weft-go/weft/strategy"
	"github.com/weft-go/weft/trace"
)

// option is an enabled alternative of a state, as the run sees it.
type option struct {
	c strategy.Choice
	// g is the group the step completes on (-1: none), spec its event in
	// the variant (nil: a free step).
	g    int32
	spec *spec
}

// Choose implements strategy.Strategy. The variant's events go first, a
// select's default before the others (its default is possible only while
// no partner is ready: the order of the steps that make one ready is not
// part of the variant), then in the order they had in the run the variant
// comes from; the rest runs freely (the first option in thread order, or
// at random). If only steps the variant forbids are enabled, the run is
// cut: a partial run (§7.3).
func (s *Strategy) Choose(st *strategy.State) strategy.Choice {
	if s.err != nil || s.restart {
		return strategy.Cut
	}
	objs := st.Trace.Objects
	s.names.Sync(st.Trace.Threads)
	for len(s.k) < len(st.Threads) {
		s.k = append(s.k, 0)
	}
	s.countBranches(st.Trace)
	for _, th := range st.Threads {
		if th.Done || th.Op.Kind == trace.KindNone {
			continue
		}
		if err := refusal(th.Op, objs); err != nil {
			s.err = err
			return strategy.Cut
		}
		if joins(th.Op) && s.gs.join(th.Op, objs) && s.analysed > 0 {
			s.restart = true
			return strategy.Cut
		}
	}
	s.pendingDefaults()
	var best, free, deferred, forced *option
	var frees, allowed int
	var buf option
	forcing := len(s.trail) < len(s.force)
	s.defs = s.defs[:0]
	for p := range st.Threads {
		th := &st.Threads[p]
		for a := range th.Alts {
			if !s.classify(st, trace.ThreadID(p), a, &buf) {
				continue
			}
			sp := buf.spec
			allowed++
			if forcing && buf.c == s.force[len(s.trail)] {
				c := buf
				forced = &c
			}
			if post := s.postponedBy(st, trace.ThreadID(p), a); post != nil || (sp != nil && sp.Fails) {
				if deferred == nil || deferRank(sp) < deferRank(deferred.spec) {
					c := buf
					deferred = &c
				}
				s.defs = append(s.defs, deferredAlt{o: buf, post: post})
				continue
			}
			if sp != nil && s.heldBack(sp, trace.ThreadID(p)) {
				continue
			}
			switch {
			case sp != nil:
				if best == nil || better(sp, best.spec, st, buf.c, best.c) {
					c := buf
					best = &c
				}
			default:
				frees++
				if free == nil || (s.rnd != nil && s.rnd.IntN(frees) == 0) {
					c := buf
					free = &c
				}
			}
		}
	}
	// A failure of this step comes early if another step could have
	// been taken instead, postponed or not: the run is taken again with
	// the failing call postponed too (failures.go).
	s.early = allowed > 1
	pick := best
	if pick == nil {
		pick = free
	}
	if pick == nil && deferred != nil {
		pick = deferred
		if h := s.endRace(st, pick, forcing); h != nil {
			pick = h
		}
	}
	if forcing {
		// A run of an end race's chain (ends.go) takes the choices given.
		if forced == nil {
			s.diverged = true
		} else {
			pick = forced
		}
	}
	if pick == nil {
		s.cut = true
		return strategy.Cut
	}
	s.took(st, pick)
	s.trail = append(s.trail, pick.c)
	return pick.c
}

// deferRank orders the steps a run takes only when nothing else can move:
// the variant's black events first (a later run must keep them: §7.3,
// C1), then its other events, then free steps.
func deferRank(sp *spec) int {
	switch {
	case sp == nil:
		return 2
	case sp.Black:
		return 0
	}
	return 1
}

// better reports whether variant event a goes before b: a select's
// default first, then by their order in the run they come from.
func better(a, b *spec, st *strategy.State, ca, cb strategy.Choice) bool {
	da, db := isDefault(a, st, ca), isDefault(b, st, cb)
	if da != db {
		return da
	}
	return a.Hint < b.Hint
}

func isDefault(sp *spec, st *strategy.State, c strategy.Choice) bool {
	return !sp.Exec.Unset && sp.Exec.Case < 0 && st.Threads[c.Thread].Op.Kind == trace.KindSelect
}

// alternative describes alternative a of thread p's pending operation.
func alternative(st *strategy.State, p trace.ThreadID, a int32) strategy.Alternative {
	if st.Alternatives != nil {
		return st.Alternatives.Alternative(p, a)
	}
	return strategy.Alternative{Case: -1, Partner: trace.NoThread, PartnerCase: -1}
}

// classify fills o with alternative a of thread p and reports whether the
// variant allows it: a step at a position of the variant must be its
// event there, with its partners (an unset one taken by a call not in the
// variant); a step beyond the variant's positions is free.
func (s *Strategy) classify(st *strategy.State, p trace.ThreadID, a int32, o *option) bool {
	*o = option{c: strategy.Choice{Thread: p, Alt: a}, g: -1}
	alt := alternative(st, p, a)
	r, ok := stepRef(st.Threads[p].Op, alt.Case, st.Trace.Objects)
	if !ok {
		return true
	}
	o.g = s.gs.of(r)
	specs := s.v.Pos[o.g]
	pos := s.count[o.g]
	if int(pos) >= len(specs) {
		return true
	}
	sp := &specs[pos]
	o.spec = sp
	hasPar := alt.Partner != trace.NoThread
	if sp.Exec.Unset && (!sp.HasPar || sp.Par.Unset) {
		// Every call of the event was removed: any step of calls that are
		// not in the variant may take its place.
		return s.matches(sp.Exec, p, alt.Case) && (!hasPar || s.matches(sp.Par, alt.Partner, alt.PartnerCase))
	}
	if !s.matches(sp.Exec, p, alt.Case) || sp.HasPar != hasPar {
		return false
	}
	return !sp.HasPar || s.matches(sp.Par, alt.Partner, alt.PartnerCase)
}

// matches reports whether the call of thread p (of the run) with select
// case cas is the variant's call v: the same call, or, if v is unset, a
// call that is not in the variant.
func (s *Strategy) matches(v vside, p trace.ThreadID, cas int32) bool {
	t, k := int32(s.names.Stable(p)), s.k[p]
	if v.Unset {
		return !s.v.old(t, k)
	}
	return v.T == t && v.K == k && v.Case == cas
}

// took records the step the run takes.
func (s *Strategy) took(st *strategy.State, o *option) {
	if o.g >= 0 {
		s.count[o.g]++
	}
	s.k[o.c.Thread]++
	if alt := alternative(st, o.c.Thread, o.c.Alt); alt.Partner != trace.NoThread {
		s.k[alt.Partner]++
	}
}

// pendingDefaults lists the variant's selects' defaults not taken yet.
func (s *Strategy) pendingDefaults() {
	s.defaults = s.defaults[:0]
	for g, specs := range s.v.Pos {
		for p := int(s.count[g]); p < len(specs); p++ {
			if specs[p].Past != nil {
				s.defaults = append(s.defaults, &specs[p])
			}
		}
	}
}

// heldBack reports whether variant event sp, whose executor is thread p,
// waits for a select's default that does not need it: run first, it might
// make a case of the select ready.
func (s *Strategy) heldBack(sp *spec, p trace.ThreadID) bool {
	if sp.Past != nil {
		return false // a default changes nothing another one observes
	}
	t, k := s.names.Stable(p), s.k[p]
	for _, d := range s.defaults {
		if d != sp && (int(t) >= len(d.Past) || k >= d.Past[t]) {
			return true
		}
	}
	return false
}
