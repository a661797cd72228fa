// This file implements units of work (strategy.Splitter): Split hands out
// the deepest state of the current path with branches left, a strategy
// Resume returns explores its subtree, and Join takes in the wakeup
// sequences that exploration inserted into the states above the unit's
// root (its Handback).

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
	// inserts are the wakeup sequences inserted, in order, into the states
	// above the unit's root (Strategy.floor).
	inserts []insertion
	// merges are the key merges applied (merge.go), the joined units'
	// included.
	merges []trace.KeyMerge
	// large marks a strategy resumed from a unit of SplitLarge, whose
	// splitter waits for it at its root (Join counts it off there).
	large bool
}

// insertion is a wakeup sequence inserted into the wakeup tree of the
// state at depth, and the branch of the tree it made there: the events of
// the nodes the insertion followed (weak initials of the sequence), then
// the rest of the sequence, and the index of each among its siblings.
//
// A state still on the path of the strategy that joins the insertion gets
// the sequence, inserted as the race analysis inserts it. A unit made for
// a state it has left explores the branches, in the tree they make
// together with the same order of siblings as in the copy (orphan): the
// same sequences inserted into another tree can make other branches, since
// the events of a tree and of a sequence are compared by a dependency
// relation that, for a step not yet run, does not see what its thread
// announces after it; a weak initial of the sequence can then be a step
// that the sequence, run, orders after another (gen seed 3884, under the
// runtime, delayed: a unit of the sequences alone lost three failing
// traces). The order of siblings keeps the tree a wakeup tree (the first
// event of a branch is no weak initial of a branch to its right), which
// grafting the branches into another tree would not (gen seed 1405 lost
// two traces so).
type insertion struct {
	depth       int
	seq, branch []event
	at          []int
}

// record records that seq, inserted into the wakeup tree wut of the state
// at depth, added a branch there.
func (l *unitLog) record(nm *names, depth int, seq []*event, wut []*wnode) {
	in := insertion{depth: depth, seq: make([]event, len(seq))}
	for i, e := range seq {
		in.seq[i] = e.clone()
	}
	in.branch, in.at = nm.branchOf(wut, seq)
	l.inserts = append(l.inserts, in)
}

// branchOf returns the branch of the wakeup forest children that seq,
// inserted there, has: the events of the nodes insert follows, and their
// indices among their siblings. Its events share no memory with the
// forest's.
func (n *names) branchOf(children []*wnode, seq []*event) ([]event, []int) {
	rest := slices.Clone(seq)
	var branch []event
	var at []int
	for len(children) > 0 {
		var next int
		if next, rest = n.matchChild(children, rest); next < 0 {
			break
		}
		branch = append(branch, children[next].ev.clone())
		at = append(at, next)
		children = children[next].children
	}
	return branch, at
}

// matchChild returns the index of the first of children whose event is a
// weak initial of rest, and rest without the event of rest it matched (if
// it matched one); -1 and rest if none is.
func (n *names) matchChild(children []*wnode, rest []*event) (int, []*event) {
	for i, c := range children {
		ok, j := n.weakInitial(rest, c.ev)
		if !ok {
			continue
		}
		if j >= 0 {
			rest = slices.Delete(rest, j, j+1)
		}
		return i, rest
	}
	return -1, rest
}

// subForest builds a wakeup forest from branches of another one and the
// indices of their nodes among their siblings there, with the same order
// of siblings.
type subForest struct {
	nm    *names
	roots []*wnode
	index map[*wnode]int
}

// add adds branch, whose nodes had indices at among their siblings.
func (f *subForest) add(branch []event, at []int) {
	children := &f.roots
	for j := range branch {
		var next *wnode
		for _, c := range *children {
			if f.index[c] == at[j] {
				next = c
				break
			}
		}
		if next == nil {
			next = f.nm.alloc()
			next.set(&branch[j])
			f.index[next] = at[j]
			k := len(*children)
			for k > 0 && f.index[(*children)[k-1]] > at[j] {
				k--
			}
			*children = slices.Insert(*children, k, next)
		}
		children = &next.children
	}
}

// clone returns a copy of e that shares no memory with it.
func (e *event) clone() event {
	c := *e
	c.Op.Cases = slices.Clone(e.Op.Cases)
	c.PartnerOp.Cases = slices.Clone(e.PartnerOp.Cases)
	c.setMore(eventMore{slices.Clone(e.ann()), slices.Clone(e.kids()), slices.Clone(e.accx())})
	return c
}
func (s *Strategy) tag() string { return fmt.Sprintf("optimal/4(seed=%d)", s.seed) }

// Split implements strategy.Splitter: it hands out the deepest state of
// the current path whose wakeup tree has branches left, the one Next would
// continue at, with the branch explored last added to its sleep set as
// Next would add it, and pops it: Next continues above it.
func (s *Strategy) Split() (strategy.Unit, bool) {
	if !s.started || s.diverged != nil {
		return nil, false
	}
	s.staleCovers()
	k := -1
	for d := s.nodes.Len() - 1; d >= s.floor; d-- {
		if s.nodes.At(d).out > 0 || s.frozen(s.nodes.At(d)) {
			break // it waits for its units, or for letters: no work above it goes out
		}
		if len(s.nodes.At(d).wut) > 0 {
			k = d
			break
		}
	}
	if k < 0 {
		return nil, false
	}
	return s.splitAt(k)
}

// SplitLarge implements strategy.LargeSplitter: it hands out the branches
// left at the shallowest state of the current path that has any, while s
// goes on with the branch it is exploring there (below the states that
// wait for letters, and, without letters, below those whose units are
// out: with letters, a strategy that waits at a state for its units can
// still hand out the branches of a state above it). Races that s finds below
// that state and whose reversal starts there are checked against the
// branches handed out (a reversal one of them covers is dropped) and
// otherwise explored by s; one that sequential order would have explored
// inside a branch handed out is explored again from the state. A strategy
// resumed from a unit of SplitLarge splits so too, its units nested in
// its own.
func (s *Strategy) SplitLarge() (strategy.Unit, bool) {
	if !s.started || s.diverged != nil {
		return nil, false
	}
	s.staleCovers()
	k := -1
	for d := s.floor; d < s.nodes.Len(); d++ {
		if n := s.nodes.At(d); s.frozen(n) || n.out > 0 && !s.mail.on {
			// It waits for letters, or, without letters, for its units:
			// no work above it goes out. (With letters, a state above
			// one whose units are out can hand its branches out: the
			// reversals for it that those units hand back go to its
			// unit as letters, as its own do.)
			k = -1
			continue
		}
		if k < 0 && len(s.nodes.At(d).wut) > 0 {
			k = d
		}
	}
	if k < 0 {
		return nil, false
	}
	deepest := true
	for d := k + 1; d < s.nodes.Len(); d++ {
		deepest = deepest && len(s.nodes.At(d).wut) == 0
	}
	if deepest && !s.mail.on {
		// Nothing is left below k: the unit takes k whole and s goes on
		// above it. With letters, s rather waits at k for the unit, as
		// it waits for any of its large units: the handback of a unit
		// of k's, joined after s has left the states it inserts into,
		// would make units that repeat executions.
		return s.splitAt(k)
	}
	b := s.unitAt(k, true)
	n := s.nodes.At(k)
	if s.logf != nil {
		s.log("node %d: split off its branches left (sleep %v)", k, nil, n.sleep)
	}
	if s.mail.on {
		n.records().mailTo = s.mail.units + 1
	}
	s.mail.units++
	n.out++
	n.records().given = append(n.given(), n.wut...)
	n.wut = n.wut[:0]
	return b, true
}

// unitAt returns the unit of the branches left at the state at depth k:
// the path down to it, whose last state has the branch s took there
// asleep, as Next would add it.
func (s *Strategy) unitAt(k int, large bool) strategy.Unit {
	u := unitData{Names: s.wireNames(), FailedBefore: s.failedBefore, Rand: s.randState(), Large: large, Mail: large && s.mail.on}
	u.Nodes = make([]wireNode, k+1)
	for i := range k + 1 {
		u.Nodes[i] = wireNodeOf(s.nodes.At(i))
	}
	root := &u.Nodes[k]
	root.Ev = wireEvent{}
	if n := s.nodes.At(k); len(n.given()) == 0 || !s.isGiven(n) {
		root.Sleep = append(root.Sleep, wireEventOf(&n.ev))
	}
	b, err := strategy.EncodeUnit(s.tag(), &u)
	if err != nil {
		panic("weft internal error: optimal: " + err.Error())
	}
	return b
}

// splitAt hands out the state at depth k, the deepest with branches left,
// and pops it.
func (s *Strategy) splitAt(k int) (strategy.Unit, bool) {
	b := s.unitAt(k, false)
	n := s.nodes.At(k)
	if s.logf != nil {
		s.log("node %d: split off (sleep %v)", k, nil, n.sleep)
	}
	s.mail.units++
	if s.mail.on {
		s.mail.loose++
	}
	for _, c := range n.wut {
		s.nm.freeTree(c)
	}
	for i := k; i < s.nodes.Len(); i++ {
		s.nodes.At(i).clear()
	}
	s.nodes.SetLen(k)
	return b, true
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
	r.an.hb.persistent = s.an.hb.persistent
	r.units.resumed = true
	r.units.large = d.Large
	r.mail = mailState{on: s.mail.on, expect: d.Mail, closed: !d.Mail}
	r.failedBefore = d.FailedBefore
	if err := r.setRand(d.Rand); err != nil {
		return nil, err
	}
	if err := r.setNames(&d.Names); err != nil {
		return nil, err
	}
	r.nodes.SetLen(len(d.Nodes))
	for i := range d.Nodes {
		if err := r.nodeFrom(r.nodes.At(i), &d.Nodes[i], nil); err != nil {
			return nil, err
		}
	}
	if d.Mail {
		root := r.nodes.At(r.floor)
		root.gstate = true
		markGiven(root.wut)
	}
	return r, nil
}

// Handback implements strategy.Splitter.
func (s *Strategy) Handback() strategy.Handback {
	if !s.units.resumed {
		return nil
	}
	h := handbackData{
		Large:        s.units.large,
		Names:        s.wireNames(),
		Merges:       s.units.merges,
		FailedBefore: s.failedBefore,
		Rand:         s.randState(),
		Stats:        s.Stats(),
	}
	h.Path = make([]wireNode, min(s.floor, s.nodes.Len()))
	for i := range h.Path {
		h.Path[i] = wireNodeOf(s.nodes.At(i))
	}
	for _, in := range s.units.inserts {
		w := wireInsert{Depth: in.depth, Seq: make([]wireEvent, len(in.seq)), Branch: make([]wireEvent, len(in.branch)), At: in.at}
		for i := range in.seq {
			w.Seq[i] = wireEventOf(&in.seq[i])
		}
		for i := range in.branch {
			w.Branch[i] = wireEventOf(&in.branch[i])
		}
		h.Inserts = append(h.Inserts, w)
	}
	b, err := strategy.EncodeHandback(s.tag(), &h)
	if err != nil {
		panic("weft internal error: optimal: " + err.Error())
	}
	return b
}

// Join implements strategy.Splitter. A wakeup sequence of h for a state
// where s is still exploring the branch the unit is in (the same events up
// to the state and the same event taken there) is inserted into its wakeup
// tree (joinInsert). For a state s has moved on from (the same events up
// to it, another taken there), it goes where sequential order would have
// put it if that place is still ahead of s (lateInsert). Otherwise, and
// for a state s has left, Join returns a unit rooted there: the path to it as the unit's exploration left it,
// the sleep set the state had when the unit was split off plus the branch
// the unit was in, and a wakeup tree of the branches the sequences made in
// the unit's copy of the state (see insertion), alone. Inserting the
// sequences into the state's wakeup tree regardless of the branches
// explored there since, or checking them against its sleep set, would be
// unsound: the branches s explored there since had the
// unit's branch asleep, relying on its exploration and on the reversals of
// its races, so they cannot in turn cover those reversals (gen seed 279
// lost three failing traces so). Such a unit may repeat executions s made
// since, never miss one. Join also applies the key merges the unit found,
// keeps the random order's state where the unit left it, and adds its
// statistics to s's.
func (s *Strategy) Join(h strategy.Handback) ([]strategy.Unit, error) {
	var d handbackData
	if err := strategy.DecodeHandback(h, s.tag(), &d); err != nil {
		return nil, err
	}
	for _, in := range d.Inserts {
		if in.Depth < 0 || in.Depth >= len(d.Path) || len(in.Seq) == 0 || len(in.Branch) == 0 || len(in.At) != len(in.Branch) {
			return nil, fmt.Errorf("%w: a handback of %s inserting into state %d of %d", strategy.ErrBadUnit, s.tag(), in.Depth, len(d.Path))
		}
	}
	if len(d.Path) < s.floor {
		return nil, fmt.Errorf("%w: a handback of %s from above the root of the unit it is joined into", strategy.ErrBadUnit, s.tag())
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
	// on counts the states of the path s is still in the same branch of:
	// the same events up to them, and the same event taken there.
	on := 0
	for on < len(d.Path) && on < s.nodes.Len() && s.nodes.At(on).ev.cached {
		e, err := x.event(&d.Path[on].Ev)
		if err != nil {
			return nil, err
		}
		if e.key() != s.nodes.At(on).ev.key() {
			break
		}
		on++
	}
	if on < s.floor {
		return nil, fmt.Errorf("%w: a handback of %s whose path leaves that of the unit it is joined into", strategy.ErrBadUnit, s.tag())
	}
	created := s.nm.nodes // the unit counted the nodes it inserted (Stats)
	var orphans []int     // the states s has left, in the order of their branches
	left := map[int][]int{}
	if d.Large {
		if k := len(d.Path); k < s.nodes.Len() && s.nodes.At(k).out > 0 {
			s.nodes.At(k).out--
		}
	} else if s.mail.on {
		s.mail.loose--
	}
	for i, in := range d.Inserts {
		t := in.Depth
		if t < on {
			seq, err := x.events(in.Seq)
			if err != nil {
				return nil, err
			}
			s.joinInsert(t, seq)
			continue
		}
		if t == on && t < s.nodes.Len() {
			seq, err := x.events(in.Seq)
			if err != nil {
				return nil, err
			}
			ub, err := x.event(&d.Path[t].Ev)
			if err != nil {
				return nil, err
			}
			if s.lateInsert(t, &ub, seq) {
				continue
			}
		}
		if _, ok := left[t]; !ok {
			orphans = append(orphans, t)
		}
		left[t] = append(left[t], i)
	}
	var units []strategy.Unit
	for _, t := range orphans {
		u, err := s.orphan(&d, x, t, left[t])
		if err != nil {
			return nil, err
		}
		units = append(units, u)
	}
	s.nm.nodes = created
	if s.mail.on {
		s.mail.loose += len(units)
	}
	s.failedBefore = s.failedBefore || d.FailedBefore
	if s.pcg != nil && d.Rand != nil {
		if err := s.pcg.UnmarshalBinary(d.Rand); err != nil {
			return nil, fmt.Errorf("%w: a handback of %s with a bad random state: %v", strategy.ErrBadUnit, s.tag(), err)
		}
	}
	s.addStats(&d.Stats)
	return units, nil
}

// joinInsert inserts wakeup sequence seq, which a unit's exploration
// inserted into its copy of the state at depth t, into that state's wakeup
// tree as the race analysis inserts one. s is still exploring there the
// branch the unit is in: the state's sleep set is the one the unit checked
// seq against, and the order in which the races found in that branch
// reach the tree does not matter. As the race analysis, it drops a
// sequence that a branch handed out there in another unit (SplitLarge)
// covers: a unit split off after them has a copy of the state without
// them, but sequential order would have found the sequence covered by
// them, in the state's wakeup tree (on fib n=4 with four workers, the
// executions fell from 48,000-64,000 over runs to 30,000-35,000 so).
//
// A sequence that no branch handed out is a weak initial of goes into
// the wakeup tree alone, not into the tree of the branches handed out
// (node.given) too: the wakeup tree can have a branch there already with
// the sequence's first event and other children, which that tree would
// lack, and a state down the branch that took one of those children
// before the sequence's would have the sequence's asleep (takeGiven: a
// branch not in that tree comes after its branches), though nothing had
// explored it (gen seed 1213, SplitLarge after every second execution,
// each unit explored three late, units of SplitLarge within them: a
// maximal trace lost).
func (s *Strategy) joinInsert(t int, seq []event) {
	n := s.nodes.At(t)
	ptrs := make([]*event, len(seq))
	for i := range seq {
		ptrs[i] = &seq[i]
	}
	if len(n.given()) > 0 && s.placeGiven(t, ptrs) {
		return
	}
	if s.nm.insert(&n.wut, ptrs) {
		if s.logf != nil {
			s.logf("joined: insert at node %d: %v", t, seqString(ptrs))
		}
		if t < s.floor {
			s.units.record(&s.nm, t, ptrs, n.wut)
		}
	}
}

// orphan returns the unit that explores, from the state at depth t of the
// path of handback d, which s has left, the branches that the wakeup
// sequences ins of d made there.
func (s *Strategy) orphan(d *handbackData, x *translator, t int, ins []int) (strategy.Unit, error) {
	u := unitData{FailedBefore: s.failedBefore || d.FailedBefore, Rand: d.Rand}
	u.Nodes = make([]wireNode, t+1)
	for i := range t + 1 {
		var n node
		if err := s.nodeFrom(&n, &d.Path[i], x); err != nil {
			return nil, err
		}
		if i == t {
			// s has moved on from the branch the unit was in.
			for _, c := range n.wut {
				s.nm.freeTree(c)
			}
			n.sleep = append(n.sleep, n.ev)
			n.ev = event{}
			f := subForest{nm: &s.nm, index: map[*wnode]int{}}
			for _, k := range ins {
				b, err := x.events(d.Inserts[k].Branch)
				if err != nil {
					return nil, err
				}
				f.add(b, d.Inserts[k].At)
			}
			n.wut = f.roots
		}
		u.Nodes[i] = wireNodeOf(&n)
		for _, c := range n.wut {
			s.nm.freeTree(c)
		}
	}
	u.Names = s.wireNames()
	if s.logf != nil {
		s.logf("joined: node %d left: a unit for %d branches", t, len(ins))
	}
	return strategy.EncodeUnit(s.tag(), &u)
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

// lateInsert inserts wakeup sequence seq, which a unit's exploration
// inserted into its copy of the state at depth t, where the unit's path
// took ub and s has since taken another branch (the same events up to the
// state), where sequential order would have put it, if that place is
// still ahead of s, and reports whether it did.
//
// Sequential order inserts seq before any branch after ub is taken: it
// follows, level by level, the first branch that is a weak initial of
// what remains of seq, among the branches of the state in their order.
// The branches taken since at t, and below it on s's path, come first
// in that order: the ones explored (the sleepers a state added after
// those it inherited, and at t those after ub) and those handed out in a
// unit (SplitLarge) before the one being explored was taken
// (node.before), then the one being explored, those handed out since,
// and the ones left (the wakeup tree). Where the first weak initial is
// the branch being explored, seq follows s's path to the next state;
// where it is a branch handed out since, placeGiven drops seq if that
// branch's unit covers it and otherwise makes the branch of the wakeup
// tree that goes down it; where it is a branch left, or none, insert puts
// seq where the race analysis would, which is where sequential order
// would have, had the race been met now. Where it is a branch explored,
// seq belongs in a subtree explored already, and lateInsert reports
// false (Join then returns a unit for it, which may repeat executions);
// so too where it is a branch handed out before the one being explored,
// unless seq ends in that branch's tree (givenCovers), which its unit
// explores. Such a branch is no cover for seq otherwise, though it is for
// a race s finds (placeGiven): sequential order found seq before that
// branch was explored, and would have put it into the branch's wakeup
// tree, which the unit explored without it (gen seed 1360, SplitLarge
// after every third execution, each unit explored five late, two levels
// deep or more: a failure lost). A sequence that ends on s's path is
// covered by the execution that path is.
func (s *Strategy) lateInsert(t int, ub *event, seq []event) bool {
	n := s.nodes.At(t)
	from := -1
	for i := range n.sleep {
		if n.sleep[i].key() == ub.key() {
			from = i + 1
			break
		}
	}
	if from < 0 {
		return false
	}
	rest := make([]*event, len(seq))
	for i := range seq {
		rest[i] = &seq[i]
	}
	for j := t; ; j++ {
		if j >= s.nodes.Len() {
			return false
		}
		n := s.nodes.At(j)
		if j > t {
			from = n.inherited
		}
		for i := from; i < len(n.sleep); i++ {
			if ok, _ := s.nm.weakInitial(rest, &n.sleep[i]); ok {
				return false
			}
		}
		if len(n.before()) > 0 {
			if i, _ := s.nm.matchChild(n.before(), slices.Clone(rest)); i >= 0 {
				// A branch handed out before the one taken: its unit
				// covers seq only if seq ends in its tree.
				return s.givenCovers(n.before(), rest)
			}
		}
		if !n.ev.cached {
			return false // the end of the execution: no branch to follow
		}
		ok, at := s.nm.weakInitial(rest, &n.ev)
		if ok {
			if at >= 0 {
				rest = slices.Delete(rest, at, at+1)
			}
			if len(rest) == 0 {
				return true // the path s explores covers seq
			}
			continue
		}
		if len(n.given()) > 0 && s.placeGiven(j, rest) {
			return true
		}
		if s.nm.insert(&n.wut, rest) {
			if s.logf != nil {
				s.logf("joined late: insert at node %d: %v", j, seqString(rest))
			}
			if j < s.floor {
				s.units.record(&s.nm, j, rest, n.wut)
			}
		}
		return true
	}
}

// placeGiven places wakeup sequence seq, a reversal for the state at
// depth d, where branches were handed out in units (SplitLarge), where
// sequential order would have put it: into the wakeup tree the branches
// handed out made with the ones left, which sequential order explores
// after the branch being explored. It follows, level by level, the first
// branch handed out that is a weak initial of what remains of seq: if
// that reaches a leaf or exhausts seq, the unit's exploration covers seq
// and placeGiven drops it; otherwise it inserts into the state's own
// wakeup tree the events it followed and then the rest of seq, a branch
// that takes the units' events down to where seq leaves their tree, with
// the branches before it there asleep (takeGiven, inheritGiven) and the
// ones after still handed out. It reports false, and does nothing, when
// no branch handed out is a weak initial of seq (insert it as any
// other). A branch handed out that comes before the one the state is
// exploring (takeGiven) covers seq, as an explored one does.
//
// Without it, a reversal a branch handed out does not cover was explored
// from the state as a new branch, which explored again much of what the
// unit did (fib n=4 on four workers: 33,000 executions, 19,605
// undivided).
func (s *Strategy) placeGiven(d int, seq []*event) bool {
	n := s.nodes.At(d)
	children := n.given()
	var path []*event
	rest := slices.Clone(seq)
	for len(rest) > 0 && len(children) > 0 {
		var next int
		if next, rest = s.nm.matchChild(children, rest); next < 0 {
			break
		}
		if len(path) == 0 && next < len(n.before()) {
			return true // a branch explored before the one taken covers it
		}
		path = append(path, children[next].ev)
		if len(children[next].children) == 0 {
			return true // a leaf: an execution extending it covers seq
		}
		children = children[next].children
	}
	if len(path) == 0 && n.mailTo() == 0 {
		return false
	}
	if len(rest) == 0 {
		return true
	}
	full := append(path, rest...)
	if n.mailTo() > 0 {
		// The unit explores it, in the tree it was handed, where
		// sequential order would have (mail.go).
		s.nm.insert(&n.records().given, full)
		s.post(n, full)
		s.stats.Inserted++
		return true
	}
	// The branch joins the tree of the branches handed out, as it joins
	// it in sequential order: a reversal it covers is dropped, and it
	// leaves its sleepers as the others do (takeGiven). Only if it is a
	// branch to explore: one that a branch left covers, put there, would
	// have the branches after it take it for explored (gen seed 593 lost
	// maximal traces so). It starts with a branch handed out, below
	// which the wakeup tree has only the branches placeGiven put into
	// both trees: the two agree there (see joinInsert).
	if s.nm.insert(&n.wut, full) {
		s.nm.insert(&n.records().given, full)
		if s.logf != nil {
			s.logf("given: insert at node %d: %v", d, seqString(append(path, rest...)))
		}
		s.stats.Inserted++
		if d < s.floor {
			s.units.record(&s.nm, d, append(path, rest...), n.wut)
		}
	}
	return true
}

// givenCovers reports whether the units of children, branches handed out,
// explore seq: following, level by level, the first branch that is a weak
// initial of what remains of seq reaches a leaf or exhausts seq.
func (s *Strategy) givenCovers(children []*wnode, seq []*event) bool {
	rest := slices.Clone(seq)
	for len(rest) > 0 {
		var next int
		if next, rest = s.nm.matchChild(children, rest); next < 0 {
			return false
		}
		if len(children[next].children) == 0 {
			return true
		}
		children = children[next].children
	}
	return true
}

// takeGiven notes, at node n taking the event labelled l, whether l is
// the first event of a branch handed out (placeGiven made the branch that
// s takes): the next state then has the branches handed out before it
// asleep, and the subtree of the one it takes as its branches handed out.
func (s *Strategy) takeGiven(n *node, l label) {
	r := n.records()
	r.before, r.subGiven = nil, nil
	for i, g := range r.given {
		if g.k == l {
			r.before, r.subGiven = r.given[:i], g.children
			return
		}
	}
	// A branch after them: sequential order explored them before it.
	r.before = r.given
}

// inheritGiven gives node n, made below p, the branches handed out that
// p's step continues in (takeGiven), and has asleep those handed out
// before it at p that p's step does not wake.
func (s *Strategy) inheritGiven(n, p *node) {
	n.records().given = append([]*wnode(nil), p.subGiven()...)
	for _, b := range p.before() {
		if !s.nm.dependent(b.ev, &p.ev) && !asleep(n.sleep, b.ev.key()) {
			n.sleep = append(n.sleep, *b.ev)
		}
	}
}

// isGiven reports whether the step node n takes is the first event of a
// branch handed out, which its unit explores: it does not join n's sleep
// set when s's branch down it is done.
func (s *Strategy) isGiven(n *node) bool {
	l := n.ev.key()
	for _, g := range n.given() {
		if g.k == l {
			return true
		}
	}
	return false
}

// wait makes s, at node d, wait for the units of d's branches it handed
// out (Next returns false until Join took them all in): its branch joins
// the sleep set, and the states below it go.
func (s *Strategy) wait(d int) {
	n := s.nodes.At(d)
	if !n.retired && (len(n.given()) == 0 || !s.isGiven(n)) {
		n.sleep = append(n.sleep, n.ev)
	}
	n.retired = true
	for i := d + 1; i < s.nodes.Len(); i++ {
		s.nodes.At(i).clear()
	}
	s.nodes.SetLen(d + 1)
}
