// This file implements units of work for the strategies built on a Tree
// (the DPOR family here, flip): a unit is the path of nodes down to the
// state handed out, a handback what its exploration added to the states
// above it.

package dpor

import (
	"fmt"

	"github.com/weft-go/weft/strategy"
	"github.com/weft-go/weft/trace"
)

// nodeData is a Node as a unit carries it.
type nodeData struct {
	Enabled                []Enabled
	Thread                 trace.ThreadID
	Alt, Alts              int32
	Backtrack, Done, Force ThreadSet
	Race                   bool
	Racer                  trace.ThreadID
	Sleep, Pass            []Sleeper
	AnnThreads             []trace.ThreadID
	AnnAccesses            []trace.Access
	Objs                   int32
	// Changes are the node's (Node.chgLo): a unit carries every node
	// from the root on.
	Changes []pendChange
}

// treeUnit is a unit of a Tree: the nodes from the root to the state handed
// out, the last one's next choice taken already if Primed, and the threads
// fresh choices avoid (flip).
type treeUnit struct {
	Nodes  []nodeData
	Primed bool
	Avoid  ThreadSet
}

// treeHandback is what the exploration of a unit added to the states above
// its root: per state, the threads added to its backtracking set and to
// its forced set, and whether it flagged a race there (flip); the path of
// choices to the root, to find the states again; and the states as the
// unit's exploration left them, for the units Join makes of what lands
// where the splitter has moved on.
type treeHandback struct {
	Path  []choice
	Added []added
	Nodes []nodeData
}

// choice is the step a state's node took.
type choice struct {
	Thread trace.ThreadID
	Alt    int32
}

// added is what a unit's exploration added to one state above its root.
type added struct {
	Backtrack, Force ThreadSet
	Race             bool
}

// frozen is a node above a resumed tree's root as the unit brought it.
type frozen struct {
	backtrack, force ThreadSet
	race             bool
}

// data returns node n of t's path as a unit carries it.
func (t *Tree) data(n *Node) nodeData {
	d := n.data()
	for i := n.chgLo; i < n.chgLo+n.chgN; i++ {
		c := t.chgs.At(int(i))
		d.Changes = append(d.Changes, pendChange{c.thread, c.pending().op, c.alts})
	}
	return d
}

// data returns n as a unit carries it, but for its changes (Tree.data).
func (n *Node) data() nodeData {
	d := nodeData{
		Enabled: n.Enabled.List(), Thread: n.Thread, Alt: n.Alt, Alts: n.Alts,
		Backtrack: n.Backtrack, Done: n.Done, Force: n.Force, Race: n.Race, Racer: n.Racer,
		Sleep: n.Sleep, Pass: n.passed(), Objs: n.objs,
	}
	for _, a := range n.announcements() {
		d.AnnThreads = append(d.AnnThreads, a.thread)
		d.AnnAccesses = append(d.AnnAccesses, a.acc)
	}
	return d
}

// pushData pushes the node d describes on t's path.
func (t *Tree) pushData(d *nodeData) {
	k := t.Nodes.Len()
	n := t.Nodes.Push()
	n.load(d)
	t.startChanges(n, k)
	for _, c := range d.Changes {
		t.addChange(n, change{c.Thread, c.Op.Kind, c.Op.Class, c.Op.Obj, c.Alts})
	}
}

// load sets n to d, copying everything into n's own memory, but for its
// changes (Tree.pushData).
func (n *Node) load(d *nodeData) {
	n.reset()
	n.Enabled = enabledOf(d.Enabled)
	n.Thread, n.Alt, n.Alts = d.Thread, d.Alt, d.Alts
	n.Backtrack = append(n.Backtrack, d.Backtrack...)
	n.Done = append(n.Done, d.Done...)
	n.Force = append(n.Force, d.Force...)
	n.Race, n.Racer = d.Race, d.Racer
	for _, s := range d.Sleep {
		n.Sleep = n.extra().mem.appendSleeper(n.Sleep, s)
	}
	for _, s := range d.Pass {
		m := n.extra()
		m.pass = m.passMem.appendSleeper(m.pass, s)
	}
	for i, t := range d.AnnThreads {
		m := n.extra()
		m.ann = append(m.ann, announced{t, d.AnnAccesses[i]})
	}
	n.objs = d.Objs
}

// SplitUnit hands out the state at depth Start, which its owner's Next has
// just prepared to explore, with the path to it, and drops it from the
// tree: the owner goes on as if it were explored. tag names the strategy
// and its options.
func (t *Tree) SplitUnit(tag string) (strategy.Unit, bool) {
	k := t.Start
	if k < t.Floor || k >= t.Nodes.Len() {
		return nil, false
	}
	u := treeUnit{Primed: true, Avoid: t.Avoid}
	for i := 0; i <= k; i++ {
		u.Nodes = append(u.Nodes, t.data(t.Nodes.At(i)))
	}
	b, err := strategy.EncodeUnit(tag, &u)
	if err != nil {
		panic(err) // the payload is plain data: gob cannot fail on it
	}
	t.Nodes.Truncate(k)
	return b, true
}

// ResumeUnit sets the tree, new, to the unit u of a tree of the strategy
// tag: the states above its root frozen, and the root to explore. It
// reports whether the unit's first choice is taken already (Primed).
func (t *Tree) ResumeUnit(u strategy.Unit, tag string) (primed bool, err error) {
	var d treeUnit
	if err := strategy.DecodeUnit(u, tag, &d); err != nil {
		return false, err
	}
	if len(d.Nodes) == 0 {
		return false, fmt.Errorf("%w: a unit of %s with no state", strategy.ErrBadUnit, tag)
	}
	t.Nodes = NodeStack{}
	for i := range d.Nodes {
		// A new stack's nodes are zero.
		t.pushData(&d.Nodes[i])
	}
	k := len(d.Nodes) - 1
	t.Floor, t.Start = k, k
	t.Avoid = append(t.Avoid[:0], d.Avoid...)
	t.frozen = make([]frozen, k)
	for i := range t.frozen {
		n := t.Nodes.At(i)
		t.frozen[i] = frozen{append(ThreadSet(nil), n.Backtrack...), append(ThreadSet(nil), n.Force...), n.Race}
	}
	return d.Primed, nil
}

// HandbackUnit returns what the exploration of the tree, resumed from a
// unit, added to the states above the unit's root; nil for a tree not
// resumed from one.
func (t *Tree) HandbackUnit(tag string) strategy.Handback {
	if t.frozen == nil {
		return nil
	}
	var h treeHandback
	for i, f := range t.frozen {
		n := t.Nodes.At(i)
		h.Path = append(h.Path, choice{n.Thread, n.Alt})
		h.Added = append(h.Added, added{n.Backtrack.Minus(f.backtrack), n.Force.Minus(f.force), n.Race && !f.race})
		h.Nodes = append(h.Nodes, t.data(n))
	}
	b, err := strategy.EncodeHandback(tag, &h)
	if err != nil {
		panic(err) // plain data
	}
	return b
}

// JoinHandback takes in the handback of a unit the tree handed out: what it
// added to a state still on the tree's path is added there, and what it
// added to a state the tree has left becomes a unit, returned.
func (t *Tree) JoinHandback(hb strategy.Handback, tag string) ([]strategy.Unit, error) {
	var h treeHandback
	if err := strategy.DecodeHandback(hb, tag, &h); err != nil {
		return nil, err
	}
	if len(h.Path) != len(h.Added) || len(h.Path) != len(h.Nodes) {
		return nil, fmt.Errorf("%w: a handback of %s with %d choices, %d additions and %d states", strategy.ErrBadUnit, tag, len(h.Path), len(h.Added), len(h.Nodes))
	}
	var units []strategy.Unit
	same := true // the tree's path agrees with the handback's down to depth i
	for i, a := range h.Added {
		same = same && i < t.Nodes.Len()
		if same {
			n := t.Nodes.At(i)
			n.Backtrack.Union(a.Backtrack)
			n.Force.Union(a.Force)
			if a.Race && !n.Race {
				n.Race = true
			}
			same = n.Thread == h.Path[i].Thread && n.Alt == h.Path[i].Alt
			continue
		}
		if a.Backtrack.Len() == 0 && !a.Race {
			continue
		}
		// The tree has left the state: a unit explores what was added
		// there, and only that. A thread explored there already (Done) or
		// being explored (the node's choice) is not again.
		u := treeUnit{Nodes: append([]nodeData(nil), h.Nodes[:i+1]...)}
		root := &u.Nodes[i]
		var bt ThreadSet
		for _, e := range root.Enabled {
			if root.Done.Has(e.Thread) || e.Thread == root.Thread || a.Backtrack.Has(e.Thread) {
				bt.Add(e.Thread)
			}
		}
		root.Backtrack, root.Force, root.Race = bt, a.Force, a.Race
		root.Alt = root.Alts - 1 // its alternatives were explored with it
		b, err := strategy.EncodeUnit(tag, &u)
		if err != nil {
			panic(err) // plain data
		}
		units = append(units, b)
	}
	return units, nil
}

// The strategy as a strategy.Splitter.
var _ strategy.Splitter = (*Strategy)(nil)

// Split implements strategy.Splitter: it hands out the state the next
// execution would backtrack to, with the states above it.
func (s *Strategy) Split() (strategy.Unit, bool) { return s.SplitNext(s.Next) }

// SplitLarge implements strategy.LargeSplitter: it hands out the next
// branches of the shallowest state of the current path that has any (the
// current thread's other alternatives and the threads of its backtracking
// set not explored), while s goes on below that state; there s counts
// them as explored (Done), as sequential order would by the time it took a
// branch added later, so that such a branch has them asleep. A thread
// added to the state's backtracking set by both s and the unit is explored
// twice.
func (s *Strategy) SplitLarge() (strategy.Unit, bool) {
	t := &s.Tree
	if !s.Splittable() {
		return nil, false
	}
	for k := t.Floor; k < t.Nodes.Len()-1; k++ {
		n := t.Nodes.At(k)
		d := t.data(n)
		var c Node
		c.load(&d)
		if !s.advance(&c) {
			continue
		}
		u := treeUnit{Primed: true, Avoid: t.Avoid}
		for i := 0; i < k; i++ {
			u.Nodes = append(u.Nodes, t.data(t.Nodes.At(i)))
		}
		cd := c.data()
		cd.Changes = d.Changes
		u.Nodes = append(u.Nodes, cd)
		b, err := strategy.EncodeUnit(s.Tag, &u)
		if err != nil {
			panic(err) // the payload is plain data: gob cannot fail on it
		}
		n.Alts = n.Alt + 1
		for e := range n.Enabled.All() {
			if e.Thread != n.Thread && n.Backtrack.Has(e.Thread) {
				n.Done.Add(e.Thread)
			}
		}
		return b, true
	}
	return s.Split()
}

// Resume implements strategy.Splitter.
func (s *Strategy) Resume(u strategy.Unit) (strategy.Splitter, error) {
	r := New(s.opt)
	if err := r.ResumeUnit(u); err != nil {
		return nil, err
	}
	return r, nil
}
