// This file implements wakeup trees (Abdulla et al., POPL 2014, §6): ordered
// trees of event sequences still to explore from a state, weak initials,
// and the insertion of a new wakeup sequence.

package optimal

import "fmt"

// wnode is a node of a wakeup tree: an event and the ordered subtrees of the
// sequences that continue with it.
//
// A walk of the tree (walk) reads, at each level, the children and each
// child's key, with the key kept apart from ev, whose key fields lie far
// apart in it. The event itself is kept apart too (alloc): a node is then
// one 64-byte cache line, and the nodes of a chain, which insert takes
// one after the other from a block, lie next to each other, where the
// processor fetches the next before the walk reaches it. With the event
// inside, a node took 264 bytes, and the walks of indexer n=15 spent most
// of their time waiting for each level's node (its exploration took 3-8%
// more CPU). Whatever sets ev sets k too (set); SetVerify checks that
// they agree.
type wnode struct {
	children []*wnode
	k        label // ev.key()
	// given marks a node of the tree of branches a unit that takes
	// letters was handed, or that a letter added (mail.go).
	given bool
	// ev is the node's event, which belongs to the node for its life,
	// reused with it (free).
	ev *event
}

// set makes e the node's event.
func (c *wnode) set(e *event) {
	*c.ev = *e
	c.k = e.key()
}

// firstDependent returns the index in seq of the first event dependent with
// e, or -1.
func (n *names) firstDependent(seq []*event, e *event) int {
	for i, x := range seq {
		if n.dependent(x, e) {
			return i
		}
	}
	return -1
}

// weakInitial reports whether e, an event enabled in the state seq starts
// from, is a weak initial of seq (the paper's WI): either e is independent of
// every event of seq (so e can run first and seq after it), or e is in seq
// and no event of seq before it is dependent with it (an initial: seq can be
// reordered to start with e). It returns the index of e in seq, or -1 when it
// is not in seq.
func (n *names) weakInitial(seq []*event, e *event) (ok bool, at int) {
	i := n.firstDependent(seq, e)
	switch {
	case i < 0:
		return true, -1
	case sameKey(seq[i], e):
		return true, i
	}
	return false, -1
}

// weakInitialOf is weakInitial's first result. If unique, no element of
// seq has e's key (sameKey): e is then a weak initial of seq only if no
// element is dependent with it, which it looks for from the end, where
// the reversed step of a race, dependent with e, is.
func (n *names) weakInitialOf(seq []*event, e *event, unique bool) bool {
	if unique {
		for k := len(seq) - 1; k >= 0; k-- {
			if n.dependent(seq[k], e) {
				if seq[k].key() != e.key() {
					return false // the first dependent element is not e
				}
				break
			}
		}
	}
	ok, _ := n.weakInitial(seq, e)
	return ok
}

// insert inserts the wakeup sequence seq into the ordered forest *children
// (the paper's insert_[E](w, wut)): it follows, level by level, the first
// child that is a weak initial of what remains of seq, dropping it from seq;
// if it reaches a leaf, an execution extending that leaf covers seq and
// nothing is added; otherwise what remains of seq becomes a new branch after
// the existing ones. insert reports whether it added a branch.
func (n *names) insert(children *[]*wnode, seq []*event) bool {
	return n.insertAt(children, seq, nil, nil)
}

// insertAt is insert, which records in t, if not nil, what decided each
// child it looked at, and what would decide the nodes it added in a check
// of seq again (cover.go). If from is not empty, the walk starts below it:
// from are the first levels of the walk, as an earlier check of the same
// sequence took them (cover.go, resumeAt).
func (n *names) insertAt(children *[]*wnode, seq []*event, t *coverTrack, from []walkStep) bool {
	children, rest, leaf := n.end(children, seq, t, from)
	if leaf || len(rest) == 0 {
		return false
	}
	// A new branch: a chain of the remaining events.
	var first, last *wnode
	for _, e := range rest {
		c := n.alloc()
		c.set(e)
		if t != nil {
			// A check of seq again would find each at the head of what
			// remains.
			t.decided(c.ev, 0)
			t.drop(0)
		}
		if last == nil {
			first = c
		} else {
			last.children = append(last.children, c)
		}
		last = c
	}
	*children = append(*children, first)
	n.nodes += len(rest)
	return true
}

// end returns where insert would add a branch for seq in the forest
// *children, from below from (see insertAt): the forest where the walk
// stopped, what remains of seq (in n.rest's memory), and whether it
// stopped at a leaf.
func (n *names) end(children *[]*wnode, seq []*event, t *coverTrack, from []walkStep) (*[]*wnode, []*event, bool) {
	// rest loses its first elements as follow drops them: n.rest keeps
	// the memory.
	n.rest = append(n.rest[:0], seq...)
	rest := n.rest
	if k := len(from); k > 0 {
		// The walk's first k levels: the children taken, the elements
		// dropped.
		for _, x := range from {
			switch at := int(x.at); {
			case at == 0:
				rest = rest[1:]
			case at > 0:
				rest = append(rest[:at], rest[at+1:]...)
			}
		}
		if t != nil {
			t.resumed(from)
		}
		last := from[k-1].c
		if len(last.children) == 0 {
			return children, rest, true
		}
		children = &last.children
	}
	return n.follow(children, rest, t)
}

// covers reports whether an execution extending a leaf of the forest
// children covers seq: whether insert would add nothing to it.
func (n *names) covers(children []*wnode, seq []*event) bool {
	n.rest = append(n.rest[:0], seq...)
	_, rest, leaf := n.follow(&children, n.rest, nil)
	return leaf || len(rest) == 0
}

// follow follows, from the forest *children, level by level, the first
// child that is a weak initial of what remains of rest, dropping it from
// rest, as insert does. It returns the forest where it stopped, what
// remains of rest, and whether it stopped at a leaf (an execution
// extending the leaf covers the sequence). If t is not nil, it records
// there the element of rest that decided each child it looked at (the
// first one dependent with it, or none).
func (n *names) follow(children *[]*wnode, rest []*event, t *coverTrack) (*[]*wnode, []*event, bool) {
	children, rest, leaf := n.walk(children, rest, t)
	if n.summed {
		// The summary's tables go back to zero for the next walk: by
		// taking out what remains, or, when more remains than clearing
		// the tables costs (about sumClear events), by clearing them.
		if len(rest) > sumClear {
			n.sum = depSum{}
		} else {
			for _, x := range rest {
				n.sum.remove(x)
			}
		}
		n.summed = false
	}
	return children, rest, leaf
}

// walk is follow, which leaves in n.sum, if n.summed, the summary of what
// remains of rest.
func (n *names) walk(children *[]*wnode, rest []*event, t *coverTrack) (*[]*wnode, []*event, bool) {
	for {
		var next *wnode
		dropped := -1
		for _, c := range *children {
			// weakInitial, keeping the element that decided.
			at := -1
			if len(rest) > 0 && hasKey(rest[0], &c.k) {
				at = 0 // the tree follows the sequence: an event is dependent with itself
			} else {
				// Most other children are independent of every element:
				// a summary of them, made on first use, says so without
				// comparing them one by one.
				if !n.summed {
					n.sum.add(rest)
					n.summed = true
				}
				if n.sum.mayDepend(c.ev) {
					at = n.firstDependent(rest, c.ev)
				}
			}
			if t != nil {
				t.decided(c.ev, at)
			}
			if at >= 0 && !hasKey(rest[at], &c.k) {
				continue // not a weak initial: rest[at] comes first
			}
			if at >= 0 {
				if n.summed {
					n.sum.remove(rest[at])
				}
				if at == 0 {
					rest = rest[1:] // the common case: no copy
				} else {
					rest = append(rest[:at], rest[at+1:]...)
				}
				if t != nil {
					t.drop(at)
				}
			}
			next = c
			dropped = at
			break
		}
		if next == nil {
			return children, rest, false
		}
		if t != nil {
			// A level of a later check's resumption (resumeAt).
			t.step(next, dropped)
		}
		if len(next.children) == 0 {
			return children, rest, true
		}
		children = &next.children
	}
}

// checkKeys panics if a node of forest f keeps a key that is not its
// event's (wnode.k).
func checkKeys(f []*wnode) {
	for _, c := range f {
		if c.k != c.ev.key() {
			panic(fmt.Sprintf("weft internal error: optimal: a wakeup-tree node keeps key %v for event %v, whose key is %v", c.k, c.ev, c.ev.key()))
		}
		checkKeys(c.children)
	}
}

// alloc returns an empty wakeup-tree node: a freed one, or one of a new
// block.
func (n *names) alloc() *wnode {
	if k := len(n.spare); k > 0 {
		c := n.spare[k-1]
		n.spare = n.spare[:k-1]
		return c
	}
	if len(n.block) == 0 {
		n.block = make([]wnode, 64)
		n.links = make([]*wnode, 64)
		n.events = make([]event, 64)
	}
	c := &n.block[0]
	n.block = n.block[1:]
	c.ev = &n.events[0]
	n.events = n.events[1:]
	// Room for one child, the chain insert builds.
	c.children = n.links[0:0:1]
	n.links = n.links[1:]
	return c
}

// free makes wakeup-tree node c, which no tree holds any more, available to
// alloc, with its list of children (copied out by the caller if needed).
// Each list of children belongs to its node alone, as each node's wut and
// sub belong to it, so reusing the memory of c is safe.
func (n *names) free(c *wnode) {
	*c.ev, c.k, c.given = event{}, label{}, false
	c.children = c.children[:0]
	n.spare = append(n.spare, c)
}

// freeTree frees c and its descendants.
func (n *names) freeTree(c *wnode) {
	for _, d := range c.children {
		n.freeTree(d)
	}
	n.free(c)
}
