// This file decides whether conditions are concurrent (Kähkönen et al. 2014, §4.2.1,
// "Checking for concurrency").
//
// The paper collects the events that causally precede the conditions and
// looks for two that take one condition (a conflict) or one that takes
// one of the conditions (causality): linear in the size of the local
// configurations, for every check. The net here has a structure that
// makes it cheaper: every place has one token in every reachable marking
// (a thread, a copy, a mutex free or held), so the conditions of a place
// form a tree, and the events of a configuration that touch a place form a
// chain from its root. Each event keeps the front of its local
// configuration: for each place its events touched, the condition they
// left. Conditions are concurrent if, for every place, the fronts of their
// local configurations lie on one chain (none of the events that took a
// condition of the place conflicts with another), and each condition is
// the deepest of its place (no event of the union took it). The check
// costs the size of the fronts and a climb in each place's tree. coWalk is
// the paper's check, kept for the tests.

package unfold

import "slices"

// frontier is one place's condition in the front of a local
// configuration.
type frontier struct{ place, cond int32 }

// coScratch is the memory of co: marks stamped with an epoch, so that
// nothing is cleared between checks.
type coScratch struct {
	epoch  uint32
	pMark  []uint32 // per place: set in this check
	pCond  []int32  // per place: the deepest condition met
	evMark []uint32 // coWalk: per event, collected
	cMark  []uint32 // coWalk: per condition, taken by a collected event
	cBy    []int32  // coWalk: the collected event that takes it
	stack  []int32
	places []int32 // front: the places met
	// past's result, and its keys to sort: order<<32 | event.
	pastOut  []int32
	pastKeys []uint64
	// searchTuple's tuples, preset and queue.
	tuples, tuplePre []int32
	tupleQueue       []tupleItem
	// seen marks, per condition, the conditions a search of the place
	// trees met (searchPlace), with an epoch of its own: the search
	// checks concurrency (tick) as it goes.
	seen      []uint32
	seenEpoch uint32
}

// search starts a search of conditions: seen marks the conditions met
// with the epoch it returns.
func (s *coScratch) search(n *net) uint32 {
	s.seenEpoch++
	if s.seenEpoch == 0 {
		clear(s.seen)
		s.seenEpoch = 1
	}
	for len(s.seen) < len(n.conds) {
		s.seen = append(s.seen, 0)
	}
	return s.seenEpoch
}

// tick starts a check: a new epoch, and marks for every place, event and
// condition.
func (s *coScratch) tick(n *net) uint32 {
	s.epoch++
	if s.epoch == 0 { // wrapped: clear the marks
		clear(s.pMark)
		clear(s.evMark)
		clear(s.cMark)
		s.epoch = 1
	}
	for len(s.pMark) < len(n.places) {
		s.pMark = append(s.pMark, 0)
		s.pCond = append(s.pCond, -1)
	}
	return s.epoch
}

// front computes the front of event e, of the unfolding, from those of
// the producers of its preset.
func (n *net) front(e int32) {
	s := &n.scratch
	ep := s.tick(n)
	ev := &n.events[e]
	places := s.places[:0]
	set := func(p, c int32) {
		if s.pMark[p] != ep {
			s.pMark[p] = ep
			places = append(places, p)
		} else if n.conds[c].depth <= n.conds[s.pCond[p]].depth {
			return
		}
		s.pCond[p] = c
	}
	ev.pastFatal = ev.fatal
	for _, c := range ev.pre {
		if p := n.conds[c].producer; p >= 0 {
			ev.pastFatal = ev.pastFatal || n.events[p].pastFatal
			for _, f := range n.events[p].front {
				set(f.place, f.cond)
			}
		}
	}
	for _, c := range ev.post {
		set(n.conds[c].place, c)
	}
	for _, c := range ev.spawned {
		set(n.conds[c].place, c)
	}
	sortInt32(places)
	s.places = places
	if len(ev.front) != len(places) {
		ev.front = n.fronts.alloc(len(places))
	}
	for i, p := range places {
		ev.front[i] = frontier{p, s.pCond[p]}
	}
}

// below reports whether condition a is c or an ancestor of c in the tree
// of their place.
func (n *net) below(a, c int32) bool {
	da := n.conds[a].depth
	for n.conds[c].depth > da {
		c = n.conds[c].parent
	}
	return a == c
}

// co reports whether the conditions xs are pairwise concurrent: some
// reachable marking holds them all. fatal reports that an event whose step
// failed precedes them: no execution reaches such a marking.
func (n *net) co(xs ...int32) (ok, fatal bool) {
	n.stats.CoChecks++
	s := &n.scratch
	ep := s.tick(n)
	merge := func(p, c int32) bool {
		if s.pMark[p] != ep {
			s.pMark[p], s.pCond[p] = ep, c
			return true
		}
		a := s.pCond[p]
		switch da, dc := n.conds[a].depth, n.conds[c].depth; {
		case a == c:
			return true
		case dc > da:
			s.pCond[p] = c
			return n.below(a, c)
		case dc < da:
			return n.below(c, a)
		}
		return false
	}
	ok = true
	for _, x := range xs {
		if p := n.conds[x].producer; p >= 0 {
			ev := &n.events[p]
			fatal = fatal || ev.pastFatal
			for _, f := range ev.front {
				ok = ok && merge(f.place, f.cond)
			}
		}
		ok = ok && merge(n.conds[x].place, x)
	}
	if !ok {
		return false, fatal
	}
	for _, x := range xs {
		if s.pCond[n.conds[x].place] != x {
			return false, fatal // an event of the union took x
		}
	}
	return true, fatal
}

// coWalk is co as the paper computes it: it collects the events that
// causally precede xs, looking for two that take one condition (a
// conflict) and for one that takes a condition of xs (causality).
func (n *net) coWalk(xs ...int32) (ok, fatal bool) {
	s := &n.scratch
	ep := s.tick(n)
	for len(s.evMark) < len(n.events) {
		s.evMark = append(s.evMark, 0)
	}
	for len(s.cMark) < len(n.conds) {
		s.cMark = append(s.cMark, 0)
		s.cBy = append(s.cBy, -1)
	}
	stack := s.stack[:0]
	for _, x := range xs {
		if e := n.conds[x].producer; e >= 0 {
			stack = append(stack, e)
		}
	}
	ok = true
	for len(stack) > 0 && ok {
		e := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if s.evMark[e] == ep {
			continue
		}
		s.evMark[e] = ep
		ev := &n.events[e]
		fatal = fatal || ev.fatal
		for _, c := range ev.pre {
			if s.cMark[c] == ep && s.cBy[c] != e {
				ok = false // two events of the past take c: a conflict
				break
			}
			s.cMark[c], s.cBy[c] = ep, e
			if p := n.conds[c].producer; p >= 0 && s.evMark[p] != ep {
				stack = append(stack, p)
			}
		}
	}
	s.stack = stack[:0]
	if !ok {
		return false, fatal
	}
	for _, x := range xs {
		if s.cMark[x] == ep {
			return false, fatal // x is taken in the past of another: causality
		}
	}
	return true, fatal
}

// past returns the events of the local configuration of xs (the events
// that causally precede some condition of xs), in insertion order. The
// slice is valid until the next call.
func (n *net) past(xs []int32) []int32 {
	s := &n.scratch
	ep := s.tick(n)
	for len(s.evMark) < len(n.events) {
		s.evMark = append(s.evMark, 0)
	}
	stack := s.stack[:0]
	keys := s.pastKeys[:0]
	for _, x := range xs {
		if e := n.conds[x].producer; e >= 0 {
			stack = append(stack, e)
		}
	}
	for len(stack) > 0 {
		e := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if s.evMark[e] == ep {
			continue
		}
		s.evMark[e] = ep
		keys = append(keys, uint64(n.events[e].order)<<32|uint64(e))
		for _, c := range n.events[e].pre {
			if p := n.conds[c].producer; p >= 0 && s.evMark[p] != ep {
				stack = append(stack, p)
			}
		}
	}
	s.stack = stack[:0]
	slices.Sort(keys)
	out := s.pastOut[:0]
	for _, k := range keys {
		out = append(out, int32(uint32(k)))
	}
	s.pastKeys, s.pastOut = keys, out
	return out
}

// sortInt32 sorts xs.
func sortInt32(xs []int32) { slices.Sort(xs) }
