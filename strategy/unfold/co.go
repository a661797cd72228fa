// This file decides whether conditions are concurrent (seed 002 §4.2.1,
// "Checking for concurrency"): it collects the events that causally
// precede them; two of those that take one condition are in conflict, and
// a condition that one of them takes precedes another causally.

package unfold

// coScratch is the memory of co: marks stamped with an epoch, so that
// nothing is cleared between checks.
type coScratch struct {
	epoch  uint32
	evMark []uint32 // per event: collected in this check
	cMark  []uint32 // per condition: taken by a collected event in this check
	cBy    []int32  // per condition: the collected event that takes it
	stack  []int32
}

// co reports whether the conditions xs are pairwise concurrent: some
// reachable marking holds them all. fatal reports that an event whose step
// failed precedes them: no execution reaches such a marking.
func (n *net) co(xs ...int32) (ok, fatal bool) {
	s := &n.scratch
	n.stats.CoChecks++
	s.epoch++
	if s.epoch == 0 { // wrapped: clear the marks
		clear(s.evMark)
		clear(s.cMark)
		s.epoch = 1
	}
	for len(s.evMark) < len(n.events) {
		s.evMark = append(s.evMark, 0)
	}
	for len(s.cMark) < len(n.conds) {
		s.cMark = append(s.cMark, 0)
		s.cBy = append(s.cBy, -1)
	}
	ep := s.epoch
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
// that causally precede some condition of xs), in insertion order.
func (n *net) past(xs []int32) []int32 {
	seen := map[int32]bool{}
	var stack, out []int32
	for _, x := range xs {
		if e := n.conds[x].producer; e >= 0 {
			stack = append(stack, e)
		}
	}
	for len(stack) > 0 {
		e := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if seen[e] {
			continue
		}
		seen[e] = true
		out = append(out, e)
		for _, c := range n.events[e].pre {
			if p := n.conds[c].producer; p >= 0 && !seen[p] {
				stack = append(stack, p)
			}
		}
	}
	sortByOrder(n, out)
	return out
}
