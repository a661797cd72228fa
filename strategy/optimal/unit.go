// This file implements units of work (strategy.Splitter): Split and
// SplitLarge hand out branches left on the current path, a strategy Resume
// returns explores them, and Join takes in the wakeup sequences that
// exploration found for the states above the unit's root (its Handback),
// where the splitter waits for it (package doc, Units of work).

package optimal

import (
	"fmt"
	"slices"

	"github.com/weft-go/weft/strategy"
	"github.com/weft-go/weft/trace"
)

var _ strategy.Splitter = (*Strategy)(nil)

// unitLog is what a strategy resumed from a unit keeps for its handback.
type unitLog struct {
	// resumed marks a strategy resumed from a unit.
	resumed bool
	// inserts are the wakeup sequences inserted, in order, into the
	// states above the unit's root (Strategy.floor).
	inserts []insertion
	// merges are the key merges applied (merge.go), the joined units'
	// included.
	merges []trace.KeyMerge
}

// insertion is a wakeup sequence for the state at depth.
type insertion struct {
	depth int
	seq   []event
}

// record records wakeup sequence seq for the state at depth.
func (l *unitLog) record(depth int, seq []*event) {
	in := insertion{depth: depth, seq: make([]event, len(seq))}
	for i, e := range seq {
		in.seq[i] = e.clone()
	}
	l.inserts = append(l.inserts, in)
}

// clone returns a copy of e that shares no memory with it.
func (e *event) clone() event {
	c := *e
	c.Op.Cases = slices.Clone(e.Op.Cases)
	c.PartnerOp.Cases = slices.Clone(e.PartnerOp.Cases)
	c.ann = slices.Clone(e.ann)
	c.kids = slices.Clone(e.kids)
	c.accx = slices.Clone(e.accx)
	return c
}

// tag names the strategy and its options in its units and handbacks.
func (s *Strategy) tag() string { return fmt.Sprintf("optimal(seed=%d)", s.seed) }

// waits returns the depth of the deepest root of a unit s handed out and
// has not joined, or -1: s takes no new branch at that state or above
// until it has joined them (package doc, Units of work).
func (s *Strategy) waits() int {
	r := -1
	for _, k := range s.handed {
		r = max(r, k)
	}
	return r
}

// Split implements strategy.Splitter: it hands out the deepest state of
// the current path whose wakeup tree has branches left and that s may
// take a branch at (below the roots of the units out), the one Next would
// continue at, with the branch explored last added to its sleep set as
// Next would add it, and pops it: Next continues above it once the unit
// is joined.
func (s *Strategy) Split() (strategy.Unit, bool) {
	if !s.started || s.diverged != nil {
		return nil, false
	}
	k := -1
	for d := len(s.nodes) - 1; d >= s.floor && d > s.waits(); d-- {
		if len(s.nodes[d].wut) > 0 {
			k = d
			break
		}
	}
	if k < 0 {
		return nil, false
	}
	s.staleCovers()
	return s.splitAt(k), true
}

// SplitLarge implements strategy.LargeSplitter: it hands out the branches
// left at the shallowest state of the current path that has any and that
// s may take a branch at, while s goes on with the branch it is exploring
// there (give). If no state below has branches left, it hands out the
// state itself, as Split does.
func (s *Strategy) SplitLarge() (strategy.Unit, bool) {
	if !s.started || s.diverged != nil {
		return nil, false
	}
	k := -1
	for d := max(s.floor, s.waits()+1); d < len(s.nodes); d++ {
		if len(s.nodes[d].wut) > 0 {
			k = d
			break
		}
	}
	if k < 0 {
		return nil, false
	}
	s.staleCovers()
	deepest := true
	for d := k + 1; d < len(s.nodes); d++ {
		deepest = deepest && len(s.nodes[d].wut) == 0
	}
	if deepest {
		return s.splitAt(k), true
	}
	return s.give(k), true
}

// give hands out the branches left at the state at depth k: s goes on
// with the branch it is exploring there, drops the wakeup sequences that
// a branch handed out covers, and takes no new branch there until the
// unit is joined.
func (s *Strategy) give(k int) strategy.Unit {
	b := s.unitAt(k)
	n := &s.nodes[k]
	if s.logf != nil {
		s.log("node %d: split off its branches left (sleep %v)", k, nil, n.sleep)
	}
	n.given = append(n.given, n.wut...)
	n.wut = n.wut[:0]
	s.handed = append(s.handed, k)
	return b
}

// unitAt returns the unit of the branches left at the state at depth k:
// the path down to it, whose last state has the branch s took there
// asleep, as Next would add it.
func (s *Strategy) unitAt(k int) strategy.Unit {
	u := unitData{Names: s.wireNames(), FailedBefore: s.failedBefore, Rand: s.randState()}
	u.Nodes = make([]wireNode, k+1)
	for i := range k + 1 {
		u.Nodes[i] = wireNodeOf(&s.nodes[i])
	}
	root := &u.Nodes[k]
	root.Ev = wireEvent{}
	root.Sleep = append(root.Sleep, wireEventOf(&s.nodes[k].ev))
	b, err := strategy.EncodeUnit(s.tag(), &u)
	if err != nil {
		panic("weft internal error: optimal: " + err.Error())
	}
	return b
}

// splitAt hands out the state at depth k, the deepest with branches left,
// and pops it.
func (s *Strategy) splitAt(k int) strategy.Unit {
	b := s.unitAt(k)
	n := &s.nodes[k]
	if s.logf != nil {
		s.log("node %d: split off (sleep %v)", k, nil, n.sleep)
	}
	for _, c := range n.wut {
		s.nm.freeTree(c)
	}
	for i := k; i < len(s.nodes); i++ {
		s.nodes[i].clear()
	}
	s.nodes = s.nodes[:k]
	s.handed = append(s.handed, k)
	return b
}

// Resume implements strategy.Splitter: the strategy returned replays the
// path to the unit's root and explores its subtree. It starts with
// statistics at zero.
func (s *Strategy) Resume(u strategy.Unit) (strategy.Splitter, error) {
	var d unitData
	if err := strategy.DecodeUnit(u, s.tag(), &d); err != nil {
		return nil, err
	}
	if len(d.Nodes) == 0 || len(d.Nodes[len(d.Nodes)-1].Wut) == 0 {
		return nil, fmt.Errorf("%w: a unit of %s without a branch to explore", strategy.ErrBadUnit, s.tag())
	}
	r := &Strategy{seed: s.seed, logf: s.logf, floor: len(d.Nodes) - 1}
	r.an.hb.verify = s.an.hb.verify
	r.units.resumed = true
	r.failedBefore = d.FailedBefore
	if err := r.setRand(d.Rand); err != nil {
		return nil, err
	}
	if err := r.setNames(&d.Names); err != nil {
		return nil, err
	}
	r.nodes = make([]node, len(d.Nodes))
	for i := range d.Nodes {
		if err := r.nodeFrom(&r.nodes[i], &d.Nodes[i], nil); err != nil {
			return nil, err
		}
	}
	return r, nil
}

// Handback implements strategy.Splitter.
func (s *Strategy) Handback() strategy.Handback {
	if !s.units.resumed {
		return nil
	}
	h := handbackData{
		Names:        s.wireNames(),
		Merges:       s.units.merges,
		FailedBefore: s.failedBefore,
		Rand:         s.randState(),
		Stats:        s.Stats(),
	}
	h.Path = make([]wireEvent, min(s.floor, len(s.nodes)))
	for i := range h.Path {
		h.Path[i] = wireEventOf(&s.nodes[i].ev)
	}
	for _, in := range s.units.inserts {
		w := wireInsert{Depth: in.depth, Seq: make([]wireEvent, len(in.seq))}
		for i := range in.seq {
			w.Seq[i] = wireEventOf(&in.seq[i])
		}
		h.Inserts = append(h.Inserts, w)
	}
	b, err := strategy.EncodeHandback(s.tag(), &h)
	if err != nil {
		panic("weft internal error: optimal: " + err.Error())
	}
	return b
}

// Join implements strategy.Splitter. s has taken no new branch at the
// states above the unit's root since it handed the unit out (Next waits
// for it): it is still exploring there the branch the unit is in. Each
// wakeup sequence of h is inserted into the wakeup tree of its state
// unless a sleeper there or a branch handed out covers it, as the race
// analysis inserts one. Join also applies the key merges the unit found,
// keeps the random order's state where the unit left it, and adds its
// statistics to s's. It returns no unit.
func (s *Strategy) Join(h strategy.Handback) ([]strategy.Unit, error) {
	var d handbackData
	if err := strategy.DecodeHandback(h, s.tag(), &d); err != nil {
		return nil, err
	}
	root := len(d.Path)
	for _, in := range d.Inserts {
		if in.Depth < 0 || in.Depth >= root || len(in.Seq) == 0 {
			return nil, fmt.Errorf("%w: a handback of %s inserting into state %d of %d", strategy.ErrBadUnit, s.tag(), in.Depth, root)
		}
	}
	out := slices.Index(s.handed, root)
	if out < 0 {
		return nil, fmt.Errorf("%w: a handback of %s from a unit rooted at state %d, which it has not handed out (or has joined)", strategy.ErrBadUnit, s.tag(), root)
	}
	s.staleCovers()
	for _, m := range d.Merges {
		s.mergeKey(m)
		if s.units.resumed {
			s.units.merges = append(s.units.merges, m)
		}
	}
	x, err := s.translator(&d.Names)
	if err != nil {
		return nil, err
	}
	// s is still in the same branch at every state above the root: the
	// same events up to them, and the same event taken there.
	for t := range root {
		if t >= len(s.nodes) || !s.nodes[t].ev.cached {
			return nil, fmt.Errorf("%w: a handback of %s whose path leaves that of the strategy it is joined into", strategy.ErrBadUnit, s.tag())
		}
		e, err := x.event(&d.Path[t])
		if err != nil {
			return nil, err
		}
		if e.key() != s.nodes[t].ev.key() {
			return nil, fmt.Errorf("%w: a handback of %s whose path leaves that of the strategy it is joined into", strategy.ErrBadUnit, s.tag())
		}
	}
	s.handed = slices.Delete(s.handed, out, out+1)
	created := s.nm.nodes // the unit counted the nodes it inserted (Stats)
	for _, in := range d.Inserts {
		seq, err := x.events(in.Seq)
		if err != nil {
			return nil, err
		}
		s.joinInsert(in.Depth, seq)
	}
	s.nm.nodes = created
	s.failedBefore = s.failedBefore || d.FailedBefore
	if s.pcg != nil && d.Rand != nil {
		if err := s.pcg.UnmarshalBinary(d.Rand); err != nil {
			return nil, fmt.Errorf("%w: a handback of %s with a bad random state: %v", strategy.ErrBadUnit, s.tag(), err)
		}
	}
	s.addStats(&d.Stats)
	return nil, nil
}

// joinInsert inserts wakeup sequence seq, which a unit's exploration found
// for the state at depth t, unless a sleeper or a branch handed out there
// covers it.
func (s *Strategy) joinInsert(t int, seq []event) {
	n := &s.nodes[t]
	ptrs := make([]*event, len(seq))
	for i := range seq {
		ptrs[i] = &seq[i]
	}
	for i := range n.sleep {
		if ok, _ := s.nm.weakInitial(ptrs, &n.sleep[i]); ok {
			return
		}
	}
	if s.givenCovers(n, ptrs) {
		return
	}
	if s.place(t, ptrs, nil) && s.logf != nil {
		s.logf("joined: insert at node %d: %v", t, seqString(ptrs))
	}
}

// givenCovers reports whether a branch of n handed out in a unit
// (SplitLarge) covers seq: an execution extending one of its leaves.
func (s *Strategy) givenCovers(n *node, seq []*event) bool {
	return len(n.given) > 0 && s.nm.covers(n.given, seq)
}

// place inserts wakeup sequence seq, which no sleeper covers, into the
// wakeup tree of the state at depth t, recording in track what decided
// it, if not nil (cover.go). A state above the root of the unit s was
// resumed from is a copy: a sequence that adds a branch there is recorded
// for the handback. place reports whether seq added a branch.
func (s *Strategy) place(t int, seq []*event, track *coverTrack) bool {
	added := s.nm.insertAt(&s.nodes[t].wut, seq, track)
	if added && t < s.floor {
		s.units.record(t, seq)
	}
	return added
}

// addStats adds the statistics of a unit's exploration to s's.
func (s *Strategy) addStats(o *Stats) {
	st := &s.stats
	st.Races += o.Races
	st.Inserted += o.Inserted
	st.SleepBlocked += o.SleepBlocked
	st.Infeasible += o.Infeasible
	st.Unmodelled += o.Unmodelled
	st.MaxDepth = max(st.MaxDepth, o.MaxDepth)
	st.WakeupNodes += o.WakeupNodes
	st.Merges += o.Merges
	st.Candidates += o.Candidates
}

// randState returns the state of the random order, or nil.
