// This file implements persistent vector clocks: immutable clocks that
// share their unchanged parts, so that keeping the clock of every event of
// an execution costs, per event, the entries that changed rather than the
// number of threads.

package trace

import (
	"slices"
	"unsafe"
)

// pbits is the number of bits of a thread number each level of a
// persistent clock's tree takes; pfan is the fanout.
const (
	pbits = 4
	pfan  = 1 << pbits
)

// pleaf holds pfan consecutive entries of a clock.
type pleaf [pfan]uint32

// pnode is an inner node of a clock's tree: its children are pnodes, or
// pleafs at the level above the leaves. A nil child stands for entries
// that are all 0.
type pnode [pfan]unsafe.Pointer

// PClock is a persistent vector clock: entry q is, as in VC, 1 + the index
// of the last event of thread q that happens before (or is) the point the
// clock describes. A PClock is never changed: Set and Join return new
// clocks that share with their operands every part of the tree that did
// not change, so copying a clock costs nothing, setting an entry costs the
// path to it (a few nodes of pfan words), and joining two clocks derived
// from a common one costs the parts where they differ. The zero value is
// the clock whose entries are all 0.
//
// Vector clocks that share their unchanged parts answer the same questions
// as the tree clocks of Mathur, Pavlogiannis, Tunç and Viswanathan ("A
// Tree Clock Data Structure for Causal Orderings in Concurrent
// Executions", ASPLOS 2022) at a cost that does not grow with the number of
// threads; unlike tree clocks, which are updated in place, every version of
// a persistent clock stays readable, which the analyses of a finished trace
// need (the clock of every event).
//
// One entry, own (the thread of the last entry set by Set to a value no
// less than its own), is held apart from the tree: the tree's entry for it
// is no more than ownV and is ignored. The clocks of the steps of one
// thread differ from each other only in that thread's entry, so a thread's
// run of steps with no synchronisation between sets none of its tree: a
// set of another entry, or a join with a clock that holds another thread
// apart, puts own's entry into the tree first (flat).
type PClock struct {
	root   unsafe.Pointer // a *pleaf if height is 0, else a *pnode
	top    uint32         // the largest entry
	height uint8          // levels of pnodes above the leaves
	// small holds the entries while root is nil: a clock of the first
	// few threads only, the common case of small programs, allocates
	// nothing.
	small [nsmall]uint32
	// own is 1 + the thread whose entry is ownV, held apart from the
	// tree, or 0 if none is.
	own  int32
	ownV uint32
}

// nsmall is the number of entries a clock holds without a tree.
const nsmall = 4

// tree returns c with its entries in a tree.
func (c PClock) tree() PClock {
	if c.root != nil || c.small == [nsmall]uint32{} {
		c.small = [nsmall]uint32{}
		return c
	}
	l := new(pleaf)
	copy(l[:], c.small[:])
	h := c.height
	c.root, c.height, c.small = unsafe.Pointer(l), 0, [nsmall]uint32{}
	return c.grow(h)
}

// width returns the number of entries a tree of height h holds.
func width(h uint8) int { return 1 << (pbits * (int(h) + 1)) }

// Get returns entry q of c.
func (c PClock) Get(q ThreadID) uint32 {
	if c.own != 0 && c.own == int32(q)+1 {
		return c.ownV
	}
	if c.root == nil {
		if q >= 0 && q < nsmall {
			return c.small[q]
		}
		return 0
	}
	if q < 0 || int(q) >= width(c.height) {
		return 0
	}
	p := c.root
	for h := c.height; h > 0; h-- {
		if p == nil {
			return 0
		}
		p = (*pnode)(p)[(int(q)>>(pbits*int(h)))&(pfan-1)]
	}
	if p == nil {
		return 0
	}
	return (*pleaf)(p)[int(q)&(pfan-1)]
}

// Knows reports whether event i, an event of thread q, happens before (or
// is) the point c describes.
func (c PClock) Knows(i int, q ThreadID) bool { return int(c.Get(q)) > i }

// IsZero reports whether c is the zero clock as built: no entry was ever
// set in it or in the clocks it was joined from.
func (c PClock) IsZero() bool { return c.root == nil && c.small == [nsmall]uint32{} && c.own == 0 }

// Same reports whether c and o are the same clock by construction (one was
// derived from the other without change): a cheap test that may report
// false for equal clocks.
func (c PClock) Same(o PClock) bool {
	return c.root == o.root && c.height == o.height && c.small == o.small && c.own == o.own && c.ownV == o.ownV
}

// strip returns c without its entry held apart (own): its tree's entry
// for that thread may then be less than c's. Its top stays c's.
func (c PClock) strip() PClock {
	c.own, c.ownV = 0, 0
	return c
}

// flat returns c with every entry in the tree (or small): none held apart.
func (c PClock) flat() PClock {
	if c.own == 0 {
		return c
	}
	q, v := ThreadID(c.own-1), c.ownV
	return c.strip().setFlat(q, v)
}

// Max returns the largest entry of c.
func (c PClock) Max() uint32 { return c.top }

// grow returns c with a tree of height at least h.
func (c PClock) grow(h uint8) PClock {
	for c.height < h {
		if c.root != nil {
			n := new(pnode)
			n[0] = c.root
			c.root = unsafe.Pointer(n)
		}
		c.height++
	}
	return c
}

// Set returns c with entry q set to v. Setting an entry to no less than
// its value makes it the entry held apart (own), which costs nothing if it
// already was.
func (c PClock) Set(q ThreadID, v uint32) PClock {
	if q < 0 {
		panic("trace: PClock.Set of a negative thread")
	}
	if c.own == int32(q)+1 {
		if v >= c.ownV {
			c.ownV, c.top = v, max(c.top, v)
			return c
		}
		return c.flat().setFlat(q, v)
	}
	if c.own == 0 && c.root == nil && q < nsmall {
		return c.setFlat(q, v)
	}
	switch old := c.Get(q); {
	case v == old:
		return c
	case v < old:
		return c.flat().setFlat(q, v)
	}
	c = c.flat()
	c.own, c.ownV, c.top = int32(q)+1, v, max(c.top, v)
	return c
}

// setFlat returns c, which holds no entry apart, with entry q set to v in
// its tree (or small).
func (c PClock) setFlat(q ThreadID, v uint32) PClock {
	if c.root == nil && q < nsmall {
		old := c.small[q]
		c.small[q] = v
		switch {
		case v >= c.top:
			c.top = v
		case old == c.top:
			c.top = 0
			for _, x := range c.small {
				c.top = max(c.top, x)
			}
		}
		return c
	}
	c = c.tree()
	for int(q) >= width(c.height) {
		c = c.grow(c.height + 1)
	}
	old := c.Get(q)
	c.root = set(c.root, c.height, int(q), v)
	switch {
	case v >= c.top:
		c.top = v
	case old == c.top:
		c.top = maxEntry(c.root, c.height)
	}
	return c
}

// maxEntry returns the largest entry of tree p of height h.
func maxEntry(p unsafe.Pointer, h uint8) uint32 {
	if p == nil {
		return 0
	}
	if h == 0 {
		m := uint32(0)
		for _, x := range (*pleaf)(p) {
			m = max(m, x)
		}
		return m
	}
	m := uint32(0)
	for _, kid := range (*pnode)(p) {
		m = max(m, maxEntry(kid, h-1))
	}
	return m
}

// set returns the tree p of height h with entry q set to v.
func set(p unsafe.Pointer, h uint8, q int, v uint32) unsafe.Pointer {
	if h == 0 {
		l := new(pleaf)
		if p != nil {
			if (*pleaf)(p)[q&(pfan-1)] == v {
				return p
			}
			*l = *(*pleaf)(p)
		} else if v == 0 {
			return nil
		}
		l[q&(pfan-1)] = v
		return unsafe.Pointer(l)
	}
	k := (q >> (pbits * int(h))) & (pfan - 1)
	var old unsafe.Pointer
	if p != nil {
		old = (*pnode)(p)[k]
	}
	kid := set(old, h-1, q, v)
	if kid == old {
		return p
	}
	n := new(pnode)
	if p != nil {
		*n = *(*pnode)(p)
	}
	n[k] = kid
	return unsafe.Pointer(n)
}

// Join returns the pointwise maximum of c and o. When it equals one of
// them, it is that clock (Same), but for some joins of clocks that hold
// entries apart (own) whose trees' entries for them differ.
func (c PClock) Join(o PClock) PClock {
	// A clock whose largest entry is 0 is zero: joining it changes
	// nothing (the common case of an object's reads or shared updates
	// since its last write, which are none).
	if o.top == 0 {
		return c
	}
	if c.top == 0 {
		return o
	}
	if c.root == nil && o.root == nil && c.own == 0 && o.own == 0 {
		// Both in small (the clocks of the first few threads): the
		// pointwise maximum, which is one of them if it equals it.
		j := c
		for k, x := range o.small {
			j.small[k] = max(j.small[k], x)
		}
		j.top = max(c.top, o.top)
		return j
	}
	if c.Same(o) {
		return c
	}
	if c.own == 0 && o.own == 0 {
		return c.joinFlat(o)
	}
	cs, os := c.strip(), o.strip()
	switch {
	case (c.own == 0 || c.ownV <= o.Get(ThreadID(c.own-1))) && cs.below(os):
		return o
	case (o.own == 0 || o.ownV <= c.Get(ThreadID(o.own-1))) && os.below(cs):
		return c
	}
	j := cs.joinFlat(os)
	// The result holds c's entry apart (o's if c holds none), and o's,
	// if it is another, goes into the tree unless j's entry covers it.
	own, other, otherV := c.own, o.own, o.ownV
	if own == 0 {
		own, other = o.own, 0
	} else if other == own {
		other = 0
	}
	q := ThreadID(own - 1)
	v := max(c.Get(q), o.Get(q))
	if other != 0 && j.Get(ThreadID(other-1)) < otherV {
		j = j.setFlat(ThreadID(other-1), otherV)
	}
	j.own, j.ownV, j.top = own, v, max(c.top, o.top)
	return j
}

// below reports whether no entry of c is greater than o's, both holding no
// entry apart. It may report false when it is true, where telling costs
// more than walking the trees' shared parts: a Join then computes what it
// could have returned.
func (c PClock) below(o PClock) bool {
	if c.root == nil {
		for k, x := range c.small {
			if x > o.Get(ThreadID(k)) {
				return false
			}
		}
		return true
	}
	if o.root == nil || c.height > o.height {
		return false
	}
	p := o.root
	for h := o.height; h > c.height && p != nil; h-- {
		p = (*pnode)(p)[0]
	}
	return belowTree(c.root, p, c.height)
}

// belowTree reports whether no entry of tree a of height h is greater
// than tree b's, or false when b is nil and a is not.
func belowTree(a, b unsafe.Pointer, h uint8) bool {
	switch {
	case a == b || a == nil:
		return true
	case b == nil:
		return false
	}
	if h == 0 {
		la, lb := (*pleaf)(a), (*pleaf)(b)
		for k := range pfan {
			if la[k] > lb[k] {
				return false
			}
		}
		return true
	}
	na, nb := (*pnode)(a), (*pnode)(b)
	for k := range pfan {
		if !belowTree(na[k], nb[k], h-1) {
			return false
		}
	}
	return true
}

// joinFlat is Join of clocks that hold no entry apart (or whose entries
// held apart are left out).
func (c PClock) joinFlat(o PClock) PClock {
	if c.Same(o) {
		return c
	}
	if c.root == nil && o.root == nil {
		j := c
		for k, x := range o.small {
			j.small[k] = max(j.small[k], x)
		}
		switch j.small {
		case c.small:
			return c
		case o.small:
			return o
		}
		j.top = max(c.top, o.top)
		return j
	}
	c, o = c.tree(), o.tree()
	if o.root == nil {
		return c.grow(o.height)
	}
	if c.root == nil {
		return o.grow(c.height)
	}
	h := max(c.height, o.height)
	c, o = c.grow(h), o.grow(h)
	c.root = join(c.root, o.root, h)
	c.top = max(c.top, o.top)
	return c
}

// join returns the pointwise maximum of trees a and b of height h: a or b
// when it equals one of them.
func join(a, b unsafe.Pointer, h uint8) unsafe.Pointer {
	switch {
	case a == b || b == nil:
		return a
	case a == nil:
		return b
	}
	if h == 0 {
		la, lb := (*pleaf)(a), (*pleaf)(b)
		geA, geB := true, true
		for k := range pfan {
			if la[k] < lb[k] {
				geA = false
			} else if la[k] > lb[k] {
				geB = false
			}
		}
		switch {
		case geA:
			return a
		case geB:
			return b
		}
		l := new(pleaf)
		for k := range pfan {
			l[k] = max(la[k], lb[k])
		}
		return unsafe.Pointer(l)
	}
	na, nb := (*pnode)(a), (*pnode)(b)
	var kids pnode
	isA, isB := true, true
	for k := range pfan {
		kids[k] = join(na[k], nb[k], h-1)
		isA = isA && kids[k] == na[k]
		isB = isB && kids[k] == nb[k]
	}
	switch {
	case isA:
		return a
	case isB:
		return b
	}
	n := new(pnode)
	*n = kids
	return unsafe.Pointer(n)
}

// Min returns the pointwise minimum of c and o.
func (c PClock) Min(o PClock) PClock {
	if c.Same(o) {
		return c
	}
	c, o = c.flat(), o.flat()
	if c.root == nil && o.root == nil {
		m := PClock{height: c.height}
		for k := range m.small {
			m.small[k] = min(c.small[k], o.small[k])
			m.top = max(m.top, m.small[k])
		}
		return m
	}
	c, o = c.tree(), o.tree()
	if c.root == nil || o.root == nil {
		return PClock{}
	}
	h := max(c.height, o.height)
	c, o = c.grow(h), o.grow(h)
	c.root = minTree(c.root, o.root, h)
	c.top = maxEntry(c.root, h)
	return c
}

// minTree returns the pointwise minimum of trees a and b of height h: a or
// b when it equals one of them, so that the minimum of two clocks of which
// one is below the other costs no memory.
func minTree(a, b unsafe.Pointer, h uint8) unsafe.Pointer {
	p, _, _ := minSub(a, b, h)
	return p
}

// minSub is minTree, reporting also whether the minimum has a's entries
// (isA) and whether it has b's (isB); both when a and b have the same, so
// that a parent can return a or b whole when each of its children's
// minimums is one of a's children or has its entries.
func minSub(a, b unsafe.Pointer, h uint8) (p unsafe.Pointer, isA, isB bool) {
	switch {
	case a == b:
		return a, true, true
	case a == nil:
		return nil, true, false
	case b == nil:
		return nil, false, true
	}
	if h == 0 {
		la, lb := (*pleaf)(a), (*pleaf)(b)
		isA, isB = true, true
		for k := range pfan {
			if la[k] > lb[k] {
				isA = false
			} else if la[k] < lb[k] {
				isB = false
			}
		}
		switch {
		case isA:
			return a, true, isB
		case isB:
			return b, false, true
		}
		l := new(pleaf)
		for k := range pfan {
			l[k] = min(la[k], lb[k])
		}
		return unsafe.Pointer(l), false, false
	}
	na, nb := (*pnode)(a), (*pnode)(b)
	var kids pnode
	isA, isB = true, true
	for k := range pfan {
		var ka, kb bool
		kids[k], ka, kb = minSub(na[k], nb[k], h-1)
		isA, isB = isA && ka, isB && kb
	}
	switch {
	case isA:
		return a, true, isB
	case isB:
		return b, false, true
	}
	n := new(pnode)
	*n = kids
	return unsafe.Pointer(n), false, false
}

// MinEntry returns the least of the first n entries of c.
func (c PClock) MinEntry(n int) uint32 {
	if n <= 0 {
		return 0
	}
	c = c.flat()
	if c.root == nil {
		if n > nsmall {
			return 0
		}
		return slices.Min(c.small[:n])
	}
	if n > width(c.height) {
		return 0
	}
	return minEntry(c.root, c.height, 0, n)
}

// minEntry returns the least entry of tree p of height h, whose first
// entry is entry lo, among the entries before n.
func minEntry(p unsafe.Pointer, h uint8, lo, n int) uint32 {
	if p == nil {
		return 0
	}
	m := ^uint32(0)
	if h == 0 {
		for k, x := range (*pleaf)(p) {
			if lo+k < n {
				m = min(m, x)
			}
		}
		return m
	}
	step := width(h - 1)
	for k, kid := range (*pnode)(p) {
		if lo+k*step >= n {
			break
		}
		if m = min(m, minEntry(kid, h-1, lo+k*step, n)); m == 0 {
			return 0
		}
	}
	return m
}

// CopyTo sets the entries of v to those of c (entries of c beyond v's
// length are left out).
func (c PClock) CopyTo(v VC) {
	clear(v)
	if c.root == nil {
		copy(v, c.small[:])
	} else {
		copyTree(c.root, c.height, 0, v)
	}
	if q := int(c.own) - 1; q >= 0 && q < len(v) {
		v[q] = c.ownV
	}
}

// copyTree copies tree p of height h, whose first entry is entry lo, into v.
func copyTree(p unsafe.Pointer, h uint8, lo int, v VC) {
	if p == nil || lo >= len(v) {
		return
	}
	if h == 0 {
		copy(v[lo:], (*pleaf)(p)[:])
		return
	}
	step := width(h - 1)
	for k, kid := range (*pnode)(p) {
		copyTree(kid, h-1, lo+k*step, v)
	}
}

// VC returns c as a vector clock of n entries.
func (c PClock) VC(n int) VC {
	v := make(VC, n)
	c.CopyTo(v)
	return v
}

// Equal reports whether c and o have the same entries.
func (c PClock) Equal(o PClock) bool {
	if c.Same(o) {
		return true
	}
	c, o = c.flat(), o.flat()
	if c.root == nil && o.root == nil {
		return c.small == o.small
	}
	c, o = c.tree(), o.tree()
	h := max(c.height, o.height)
	c, o = c.grow(h), o.grow(h)
	return equalTree(c.root, o.root, h)
}

// equalTree reports whether trees a and b of height h have the same
// entries.
func equalTree(a, b unsafe.Pointer, h uint8) bool {
	switch {
	case a == b:
		return true
	case a == nil:
		a, b = b, a
	}
	if h == 0 {
		var zero pleaf
		if b == nil {
			return *(*pleaf)(a) == zero
		}
		return *(*pleaf)(a) == *(*pleaf)(b)
	}
	for k := range pfan {
		var kb unsafe.Pointer
		if b != nil {
			kb = (*pnode)(b)[k]
		}
		if !equalTree((*pnode)(a)[k], kb, h-1) {
			return false
		}
	}
	return true
}

// PClockOf returns the persistent clock with the entries of v.
func PClockOf(v VC) PClock {
	var c PClock
	for q, x := range v {
		if x != 0 {
			c = c.Set(ThreadID(q), x)
		}
	}
	return c
}
