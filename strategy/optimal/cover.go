// This file keeps, for the races of the replayed prefix, which reversals an
// earlier execution found covered, and by what, so that the analysis of a
// later execution replaying the same race checks only what changed.

package optimal

import (
	"slices"
	"sort"
)

// coverRec records that the reversal of the race of event i with the step
// of label l (outcome ok, failing or not), whose races were looked for at
// position limit, was found covered by the sleep set or the wakeup tree of
// the state before i, in the execution the strategy's epoch was stamp in.
// The check compared a few events (sleepers, wakeup-tree nodes) with the
// wakeup sequence v = notdep(i, E).m: each was decided by an event of E at
// a position up to upto, or, for those in checks, by no event of E (by the
// reversed step m, by the events added after it, or by none).
type coverRec struct {
	i, limit int32
	l        label
	ok, fail bool
	upto     int32
	stamp    uint64
	checks   []*event
	// path holds the levels of the walk of the wakeup tree before the
	// first whose decisions read no event of E (resumeAt).
	path []walkStep
}

// walkStep is a level of a walk of a wakeup tree: the child it took, the
// element of what remained of the sequence that it dropped (at, -1 if
// none), and the last position in E of an element that decided a child
// at that level or before (upto).
type walkStep struct {
	c        *wnode
	at, upto int32
}

// coverTrack records what decided the weak initials a check of a wakeup
// sequence looked at (follow): pos holds the positions in E of the
// sequence's first elements, those that are events of E, less those
// dropped since.
type coverTrack struct {
	pos    []int32
	buf    []int32 // the memory of pos, which loses its first elements
	upto   int32
	checks []*event
	// path holds the levels the walk took while open: until a level
	// where a child was decided by no event of E (a check).
	path []walkStep
	open bool
}

func (t *coverTrack) reset(pos []int32) {
	t.buf = append(t.buf[:0], pos...)
	t.pos = t.buf
	t.upto = -1
	t.checks = t.checks[:0]
	t.path, t.open = t.path[:0], true
}

// step records that the walk took child c at a level, dropping element at
// of the sequence (-1: none).
func (t *coverTrack) step(c *wnode, at int) {
	if t.open = t.open && len(t.checks) == 0; t.open {
		t.path = append(t.path, walkStep{c, int32(at), t.upto})
	}
}

// resumed records that the walk took the levels from, as an earlier walk
// did (resumeAt).
func (t *coverTrack) resumed(from []walkStep) {
	for _, x := range from {
		if x.at >= 0 {
			t.drop(int(x.at))
		}
	}
	t.upto = max(t.upto, from[len(from)-1].upto)
	t.path = append(t.path, from...)
}

// decided records that element at of the sequence (or none, if at < 0)
// decided whether e is a weak initial.
func (t *coverTrack) decided(e *event, at int) {
	if at >= 0 && at < len(t.pos) {
		t.upto = max(t.upto, t.pos[at])
		return
	}
	t.checks = append(t.checks, e)
}

// drop records that element at left the sequence.
func (t *coverTrack) drop(at int) {
	switch {
	case at == 0 && len(t.pos) > 0:
		t.pos = t.pos[1:]
	case at < len(t.pos):
		t.pos = slices.Delete(t.pos, at, at+1)
	}
}

// coveredBefore reports whether the reversal of the race of event i with m
// (at a.limit, a replayed step) was found covered by an earlier execution
// whose check reads the same in this one.
//
// Why it is sound. Let E1 be the execution that recorded it and g the
// first position where some execution since (this one included) left the
// path of the one before (shared): E and E1 agree on the events before g,
// and the race, which they both have before g, has the same m. The state
// before i is above g on both paths: its sleep set is the same, and its
// wakeup tree has only grown (insert appends branches after the existing
// children of a node, and never below a leaf; the units' operations, which
// take branches away, make every record stale). The wakeup sequences
// v1 and v list the events after i that do not happen after i in the
// order of E1 and E, then m and what follows it (the same in both): their
// elements at positions before g are the same. The check followed, level
// by level, the first child (or a sleeper) that is a weak initial of what
// remains of v1: the first element dependent with it decides, and whether
// it is the same event. Where that element was an event of E1 before g,
// the same element decides in v. Where it was none of E1's events, every
// event of v1 was independent of it; so are those of v before g, and if
// the events of v from g on are too (checked here), the same element
// decides in v. The check of v then takes the same path to the same end:
// v is covered.
func (a *analysis) coveredBefore(i int, m *event) bool {
	n := a.s.nodes.At(a.limit)
	l := m.label()
	a.resumeRec = nil
	covered := n.covered()
	for k := range covered {
		r := &covered[k]
		if int(r.i) != i || r.l != l || r.ok != m.OK || r.fail != m.fails {
			continue
		}
		if r.stamp < a.s.coverStale {
			return false
		}
		g := a.s.sharedSince(r.stamp, a.fresh)
		if a.limit >= g {
			return false
		}
		// The check may not read the same, but its walk's first levels
		// do, up to g (resumeAt).
		a.resumeRec, a.resumeG = r, g
		if int(r.upto) >= g {
			return false
		}
		if len(r.checks) == 0 {
			return true
		}
		// The events of v from g on, summarised once for the records of
		// the races of i (depSum): a check the summary finds independent
		// of all of them is; another is compared with each.
		if !a.newOK || a.newI != i || a.newG != g {
			a.newSum.reset(nil)
			for q := g; q < len(a.evs); q++ {
				if !a.before(i, q) {
					a.newSum.apply(a.evs[q], 1)
				}
			}
			a.newOK, a.newI, a.newG = true, i, g
		}
		for _, c := range r.checks {
			if a.newSum.mayDepend(c) && a.dependentFrom(i, g, c) {
				return false
			}
		}
		return true
	}
	return false
}

// remember records that the reversal of the race of event i with m (at
// a.limit, a replayed step) was covered by sleeper e, which element at of
// the wakeup sequence decided (-1: none).
func (a *analysis) remember(i int, m *event, e *event, at int) {
	t := &a.track
	t.reset(a.pos)
	t.decided(e, at)
	a.rememberTrack(i, m)
}

// rememberTrack records that the reversal of the race of event i with m
// (at a.limit, a replayed step) was covered, decided as a.track says.
func (a *analysis) rememberTrack(i int, m *event) {
	n := a.s.nodes.At(a.limit).records()
	t := &a.track
	var r *coverRec
	for k := range n.covered {
		if x := &n.covered[k]; int(x.i) == i && x.l == m.label() && x.ok == m.OK && x.fail == m.fails {
			r = x
			break
		}
	}
	if r == nil {
		// A record of an earlier execution left in the list's memory
		// lends its list of checks.
		if k := len(n.covered); k < cap(n.covered) {
			n.covered = n.covered[:k+1]
		} else {
			n.covered = append(n.covered, coverRec{})
		}
		r = &n.covered[len(n.covered)-1]
	}
	*r = coverRec{i: int32(i), limit: int32(a.limit), l: m.label(), ok: m.OK, fail: m.fails,
		upto: t.upto, stamp: a.s.epoch, checks: append(r.checks[:0], t.checks...), path: append(r.path[:0], t.path...)}
}

// resumeAt returns the levels that the walk of the wakeup tree of the
// state before event i takes first in a check of the wakeup sequence
// v = notdep(i, E).m of the race whose record coveredBefore found last
// (a.resumeRec, with g its a.resumeG), or nil.
//
// Why the walk takes them. The record's walk of v1 (the record's
// sequence) decided, at each of the levels returned, every child it
// looked at by an element of v1 that is an event of E1 at a position
// before g: the first element dependent with the child, which the walk
// took and dropped if it was the child's event, and passed the child
// otherwise. The elements of v1 and v at positions before g are the same
// events in the same order, and come first (see coveredBefore), and the
// walks drop the same ones: at each of those levels, what remains of v
// has the same first element dependent with each child as what remained
// of v1. The wakeup tree of the state before i has only grown since
// (insert appends children after a node's existing ones), and no node of
// it was freed (a node is freed when its branch is taken, in a state at
// or after g): each level has the same children up to the one taken, the
// walk of v decides them alike, and takes the same child, dropping the
// same element.
func (a *analysis) resumeAt() []walkStep {
	r := a.resumeRec
	if r == nil {
		return nil
	}
	k := 0
	for k < len(r.path) && int(r.path[k].upto) < a.resumeG {
		k++
	}
	return r.path[:k]
}

// sharedSince returns the first position where some execution after the
// one of epoch stamp left the path of the one before it, fresh at most
// (the current execution's): the nodes from there on were taken anew
// since (node.epoch), and a node taken anew is followed by nodes taken
// anew.
func (s *Strategy) sharedSince(stamp uint64, fresh int) int {
	return sort.Search(fresh, func(d int) bool { return s.nodes.At(d).epoch > stamp })
}

// dependentFrom reports whether c is dependent with an event of E from
// position g on that does not happen after event i.
func (a *analysis) dependentFrom(i, g int, c *event) bool {
	for q := g; q < len(a.evs); q++ {
		if !a.before(i, q) && a.s.nm.dependent(c, a.evs[q]) {
			return true
		}
	}
	return false
}
