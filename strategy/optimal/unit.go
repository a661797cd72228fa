// This file implements units of work (strategy.Splitter): Split hands out
// the deepest state of the current path with branches left, a strategy
// Resume returns explores its subtree, and Join takes in the wakeup
// sequences that exploration inserted into the states above the unit's
// root (its Handback).

package optimal

import (
	"cmp"
	"fmt"
	"maps"
	"math/rand/v2"
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
		next := -1
		for i, c := range children {
			ok, j := n.weakInitial(rest, &c.ev)
			if !ok {
				continue
			}
			if j >= 0 {
				rest = slices.Delete(rest, j, j+1)
			}
			next = i
			break
		}
		if next < 0 {
			break
		}
		branch = append(branch, children[next].ev.clone())
		at = append(at, next)
		children = children[next].children
	}
	return branch, at
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
			next.ev = branch[j]
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
	c.ann = slices.Clone(e.ann)
	c.kids = slices.Clone(e.kids)
	c.accx = slices.Clone(e.accx)
	return c
}

// The wire forms of units and handbacks (encoding/gob).

// wireEvent is an event (event.go).
type wireEvent struct {
	Event         trace.Event
	Step, PStep   int32
	Ann           []trace.Access
	SpawnLo       trace.ThreadID
	Th, Part, Jn  trace.ThreadID
	Kids          []trace.ThreadID
	Cached, Fails bool
}

// wireTree is a node of a wakeup tree.
type wireTree struct {
	Ev       wireEvent
	Children []wireTree
}

// wireNode is a state of the path (node).
type wireNode struct {
	Ev    wireEvent
	Alt   int32
	Sleep []wireEvent
	Wut   []wireTree
}

// wireNames are the name tables (names.go): threads by their parent's
// stable number and rank, objects by key.
type wireNames struct {
	Threads []wireThread
	Objects []wireObject
}

type wireThread struct {
	Parent, Rank int32
	ID           trace.ThreadID
}

type wireObject struct {
	Key uint64
	ID  trace.ObjectID
}

// unitData is a unit: the states of the path from the initial one to the
// unit's root, the last one, whose sleep set holds the branch explored
// last and whose wakeup tree holds the branches left; the name tables the
// events are written in; whether an execution failed before (see
// analysis.run); and the state of the random order (Options.Seed).
type unitData struct {
	Nodes        []wireNode
	Names        wireNames
	FailedBefore bool
	Rand         []byte
}

// handbackData is a handback: the states above the unit's root, as the
// exploration left them (for the path they are on, and for the units Join
// makes where the splitter has left it); the wakeup sequences inserted
// there, in order; the name tables the events are written in and the key
// merges found; whether an execution failed; the state of the random
// order; and the exploration's statistics.
type handbackData struct {
	Path         []wireNode
	Inserts      []wireInsert
	Names        wireNames
	Merges       []trace.KeyMerge
	FailedBefore bool
	Rand         []byte
	Stats        Stats
}

type wireInsert struct {
	Depth       int
	Seq, Branch []wireEvent
	At          []int
}

// tag names the strategy and its options in its units and handbacks.
func (s *Strategy) tag() string { return fmt.Sprintf("optimal(seed=%d)", s.seed) }

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
	for d := len(s.nodes) - 1; d >= s.floor; d-- {
		if len(s.nodes[d].wut) > 0 {
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
// goes on with the branch it is exploring there. Races that s finds below
// that state and whose reversal starts there are checked against the
// branches handed out (a reversal one of them covers is dropped) and
// otherwise explored by s; one that sequential order would have explored
// inside a branch handed out is explored again from the state.
func (s *Strategy) SplitLarge() (strategy.Unit, bool) {
	if !s.started || s.diverged != nil {
		return nil, false
	}
	s.staleCovers()
	k := -1
	for d := s.floor; d < len(s.nodes); d++ {
		if len(s.nodes[d].wut) > 0 {
			k = d
			break
		}
	}
	if k < 0 {
		return nil, false
	}
	deepest := true
	for d := k + 1; d < len(s.nodes); d++ {
		deepest = deepest && len(s.nodes[d].wut) == 0
	}
	if deepest {
		return s.splitAt(k)
	}
	b := s.unitAt(k)
	n := &s.nodes[k]
	if s.logf != nil {
		s.log("node %d: split off its branches left (sleep %v)", k, nil, n.sleep)
	}
	n.given = append(n.given, n.wut...)
	n.wut = n.wut[:0]
	return b, true
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
func (s *Strategy) splitAt(k int) (strategy.Unit, bool) {
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
	h.Path = make([]wireNode, min(s.floor, len(s.nodes)))
	for i := range h.Path {
		h.Path[i] = wireNodeOf(&s.nodes[i])
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
// tree (joinInsert). For a state s has moved on from, or left, Join returns
// a unit rooted there: the path to it as the unit's exploration left it,
// the sleep set the state had when the unit was split off plus the branch
// the unit was in, and a wakeup tree of the branches the sequences made in
// the unit's copy of the state (see insertion), alone. Inserting the
// sequences into the state's wakeup tree, or checking them against its
// sleep set, would be unsound: the branches s explored there since had the
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
	for on < len(d.Path) && on < len(s.nodes) && s.nodes[on].ev.cached {
		e, err := x.event(&d.Path[on].Ev)
		if err != nil {
			return nil, err
		}
		if e.key() != s.nodes[on].ev.key() {
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
// reach the tree does not matter.
func (s *Strategy) joinInsert(t int, seq []event) {
	n := &s.nodes[t]
	ptrs := make([]*event, len(seq))
	for i := range seq {
		ptrs[i] = &seq[i]
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

// randState returns the state of the random order, or nil.
func (s *Strategy) randState() []byte {
	if s.pcg == nil {
		return nil
	}
	b, err := s.pcg.MarshalBinary()
	if err != nil {
		panic("weft internal error: optimal: " + err.Error())
	}
	return b
}

// setRand sets the state of the random order of s, resumed from a unit.
func (s *Strategy) setRand(b []byte) error {
	if s.seed == 0 {
		return nil
	}
	s.pcg = rand.NewPCG(uint64(s.seed), 0x9e3779b97f4a7c15)
	s.rand = rand.New(s.pcg)
	if b == nil {
		return nil
	}
	if err := s.pcg.UnmarshalBinary(b); err != nil {
		return fmt.Errorf("%w: a unit of %s with a bad random state: %v", strategy.ErrBadUnit, s.tag(), err)
	}
	return nil
}

// wireNames returns s's name tables, in the order of their numbers.
func (s *Strategy) wireNames() wireNames {
	var w wireNames
	for k, id := range s.tn.Paths() {
		w.Threads = append(w.Threads, wireThread{Parent: k.Parent, Rank: k.Rank, ID: id})
	}
	slices.SortFunc(w.Threads, func(a, b wireThread) int { return cmp.Compare(a.ID, b.ID) })
	for k, id := range s.nm.ids {
		w.Objects = append(w.Objects, wireObject{Key: k, ID: id})
	}
	slices.SortFunc(w.Objects, func(a, b wireObject) int {
		return cmp.Or(cmp.Compare(a.ID, b.ID), cmp.Compare(a.Key, b.Key))
	})
	return w
}

// setNames sets the name tables of s, resumed from a unit.
func (s *Strategy) setNames(w *wireNames) error {
	paths := make(map[trace.ThreadPath]trace.ThreadID, len(w.Threads))
	for _, t := range w.Threads {
		k := trace.ThreadPath{Parent: t.Parent, Rank: t.Rank}
		if _, dup := paths[k]; dup {
			return fmt.Errorf("%w: a unit of %s with a bad table of threads", strategy.ErrBadUnit, s.tag())
		}
		paths[k] = t.ID
	}
	if !s.tn.SetPaths(paths) {
		return fmt.Errorf("%w: a unit of %s with a bad table of threads", strategy.ErrBadUnit, s.tag())
	}
	s.nm.ids = make(map[uint64]trace.ObjectID, len(w.Objects))
	for _, o := range w.Objects {
		if _, dup := s.nm.ids[o.Key]; dup || o.ID < 0 {
			return fmt.Errorf("%w: a unit of %s with a bad table of objects", strategy.ErrBadUnit, s.tag())
		}
		s.nm.ids[o.Key] = o.ID
	}
	return nil
}

// translator translates the stable numbers of threads and objects of a
// handback's events into those of the strategy that joins it: the same
// path of spawns, the same object key. Threads and objects the strategy
// has not named yet get new numbers, as if it had met them.
type translator struct {
	tag     string
	threads map[trace.ThreadID]trace.ThreadID
	objects map[trace.ObjectID]trace.ObjectID
}

// translator returns the translator of the names w into s's, which it
// extends with the names s has not met.
func (s *Strategy) translator(w *wireNames) (*translator, error) {
	x := &translator{tag: s.tag(), threads: map[trace.ThreadID]trace.ThreadID{}, objects: map[trace.ObjectID]trace.ObjectID{}}
	bad := func(what string) error {
		return fmt.Errorf("%w: a handback of %s with a bad table of %s", strategy.ErrBadUnit, x.tag, what)
	}
	keyOf := make(map[trace.ThreadID][2]int32, len(w.Threads))
	for _, t := range w.Threads {
		if _, dup := keyOf[t.ID]; dup || t.ID < 0 {
			return nil, bad("threads")
		}
		keyOf[t.ID] = [2]int32{t.Parent, t.Rank}
	}
	// A thread's key holds its parent's number, named before it: the
	// parent is translated first (depth bounds a cycle in a bad table).
	var thread func(id trace.ThreadID, depth int) (trace.ThreadID, error)
	thread = func(id trace.ThreadID, depth int) (trace.ThreadID, error) {
		if t, ok := x.threads[id]; ok {
			return t, nil
		}
		k, ok := keyOf[id]
		if !ok || depth > len(keyOf) {
			return 0, bad("threads")
		}
		if k[0] >= 0 {
			p, err := thread(trace.ThreadID(k[0]), depth+1)
			if err != nil {
				return 0, err
			}
			k[0] = int32(p)
		}
		t := s.tn.Intern(trace.ThreadPath{Parent: k[0], Rank: k[1]})
		x.threads[id] = t
		return t, nil
	}
	for _, id := range slices.Sorted(maps.Keys(keyOf)) {
		if _, err := thread(id, 0); err != nil {
			return nil, err
		}
	}
	if s.nm.ids == nil {
		s.nm.ids = make(map[uint64]trace.ObjectID)
	}
	for _, o := range w.Objects {
		if o.ID < 0 {
			return nil, bad("objects")
		}
		t, known := s.nm.ids[o.Key]
		if u, ok := x.objects[o.ID]; ok {
			// Another key of the object.
			if !known {
				s.nm.ids[o.Key] = u
			}
			continue
		}
		if !known {
			t = trace.ObjectID(len(s.nm.ids))
			s.nm.ids[o.Key] = t
		}
		x.objects[o.ID] = t
	}
	return x, nil
}

// thread translates stable thread number t.
func (x *translator) thread(t trace.ThreadID) (trace.ThreadID, error) {
	if x == nil || t < 0 {
		return t, nil
	}
	u, ok := x.threads[t]
	if !ok {
		return 0, fmt.Errorf("%w: a handback of %s naming a thread it has no name for", strategy.ErrBadUnit, x.tag)
	}
	return u, nil
}

// object translates stable object number o.
func (x *translator) object(o trace.ObjectID) (trace.ObjectID, error) {
	if x == nil || o < 0 {
		return o, nil
	}
	u, ok := x.objects[o]
	if !ok {
		return 0, fmt.Errorf("%w: a handback of %s naming an object it has no key for", strategy.ErrBadUnit, x.tag)
	}
	return u, nil
}

// op translates the objects of op in place (its select cases are its
// own).
func (x *translator) op(op *trace.Op) (err error) {
	if x == nil {
		return nil
	}
	if op.Obj, err = x.object(op.Obj); err != nil {
		return err
	}
	for i := range op.Cases {
		if op.Cases[i].Obj, err = x.object(op.Cases[i].Obj); err != nil {
			return err
		}
	}
	if m := trace.ArgObject(op); m != trace.NoObject {
		o, err := x.object(m)
		if err != nil {
			return err
		}
		op.Arg = int64(o)
	}
	return nil
}

// wireEventOf returns the wire form of e.
func wireEventOf(e *event) wireEvent {
	return wireEvent{Event: e.Event, Step: e.step, PStep: e.pstep, Ann: e.ann, SpawnLo: e.spawnLo,
		Th: e.sth, Part: e.spart, Jn: e.sjoin, Kids: e.kids, Cached: e.cached, Fails: e.fails}
}

// event returns the event of wire form w, with x's names (no translation if
// x is nil).
func (x *translator) event(w *wireEvent) (event, error) {
	e := event{Event: w.Event, step: w.Step, pstep: w.PStep, ann: slices.Clone(w.Ann), spawnLo: w.SpawnLo,
		sth: w.Th, spart: w.Part, sjoin: w.Jn, kids: slices.Clone(w.Kids), fails: w.Fails}
	e.Op.Cases = slices.Clone(e.Op.Cases)
	e.PartnerOp.Cases = slices.Clone(e.PartnerOp.Cases)
	var err error
	if e.sth, err = x.thread(e.sth); err != nil {
		return e, err
	}
	if e.spart, err = x.thread(e.spart); err != nil {
		return e, err
	}
	if e.sjoin, err = x.thread(e.sjoin); err != nil {
		return e, err
	}
	for i := range e.kids {
		if e.kids[i], err = x.thread(e.kids[i]); err != nil {
			return e, err
		}
	}
	if err := x.op(&e.Op); err != nil {
		return e, err
	}
	if err := x.op(&e.PartnerOp); err != nil {
		return e, err
	}
	for i := range e.ann {
		if e.ann[i].Obj, err = x.object(e.ann[i].Obj); err != nil {
			return e, err
		}
	}
	if w.Cached {
		e.cache()
	}
	return e, nil
}

// events returns the events of wire forms ws, with x's names.
func (x *translator) events(ws []wireEvent) ([]event, error) {
	out := make([]event, len(ws))
	for i := range ws {
		var err error
		if out[i], err = x.event(&ws[i]); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// wireNodeOf returns the wire form of n (without the subtree of the branch
// it is exploring, which the next state holds).
func wireNodeOf(n *node) wireNode {
	w := wireNode{Ev: wireEventOf(&n.ev), Alt: n.alt, Sleep: make([]wireEvent, len(n.sleep)), Wut: wireForest(n.wut)}
	for i := range n.sleep {
		w.Sleep[i] = wireEventOf(&n.sleep[i])
	}
	return w
}

// wireForest returns the wire form of a wakeup forest.
func wireForest(f []*wnode) []wireTree {
	if len(f) == 0 {
		return nil
	}
	out := make([]wireTree, len(f))
	for i, c := range f {
		out[i] = wireTree{Ev: wireEventOf(&c.ev), Children: wireForest(c.children)}
	}
	return out
}

// nodeFrom sets n to the state of wire form w, with x's names. Its wakeup
// tree's nodes are s's; they are not counted as created (Stats).
func (s *Strategy) nodeFrom(n *node, w *wireNode, x *translator) error {
	var err error
	if n.ev, err = x.event(&w.Ev); err != nil {
		return err
	}
	n.alt = w.Alt
	n.sleep = make([]event, len(w.Sleep))
	for i := range w.Sleep {
		if n.sleep[i], err = x.event(&w.Sleep[i]); err != nil {
			return err
		}
	}
	n.wut, err = s.forestFrom(w.Wut, x)
	return err
}

// forestFrom returns the wakeup forest of wire form f, with x's names.
func (s *Strategy) forestFrom(f []wireTree, x *translator) ([]*wnode, error) {
	if len(f) == 0 {
		return nil, nil
	}
	out := make([]*wnode, len(f))
	for i := range f {
		c := s.nm.alloc()
		var err error
		if c.ev, err = x.event(&f[i].Ev); err != nil {
			return nil, err
		}
		kids, err := s.forestFrom(f[i].Children, x)
		if err != nil {
			return nil, err
		}
		c.children = append(c.children, kids...)
		out[i] = c
	}
	return out, nil
}
