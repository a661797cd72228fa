// This file implements the persistent sets of enabled threads the states
// of a path keep: a state's set shares with its parent's every part its
// changes did not touch, so that a step that enables or disables a thread
// costs a path of a small tree, not a copy of every enabled thread.

package dpor

import (
	"iter"
	"unsafe"

	"github.com/weft-go/weft/trace"
)

// ebits is the number of bits of a thread number each level of an
// EnabledSet's tree takes; efan is the fanout.
const (
	ebits = 4
	efan  = 1 << ebits
)

// eleaf holds the alternatives of efan consecutive threads (0: not
// enabled); einner is an inner node of a tree, whose children are einners,
// or eleafs at the level above the leaves. A nil child stands for threads
// none of which is enabled. A node is never changed once it is in a set.
type (
	eleaf  [efan]int32
	einner [efan]unsafe.Pointer
)

// EnabledSet is the set of the enabled threads of a state, with their
// numbers of alternatives. Copying a set costs nothing; With returns a new
// set and leaves s as it was. A set of a few threads is a list of them in
// order (flat), written anew by each change; a larger one is a persistent
// tree over thread numbers, whose changes copy the path to the thread and
// share the rest. The zero value is empty.
type EnabledSet struct {
	// root is the list's first entry (*Enabled) if the set is flat, else
	// the tree: an *eleaf if height is 0, else an *einner.
	root   unsafe.Pointer
	n      int32 // the number of threads
	height uint8 // levels of einners above the leaves
	tree   bool
}

// flatMax is the most threads a flat set holds; a tree becomes flat again
// when it falls to flatMax/2.
const flatMax = 8

// flat returns the list of a flat set.
func (s EnabledSet) flat() []Enabled {
	if s.root == nil {
		return nil
	}
	return unsafe.Slice((*Enabled)(s.root), s.n)
}

// fits reports whether the tree has room for thread t.
func (s EnabledSet) fits(t trace.ThreadID) bool {
	return uint64(t)>>(ebits*(uint(s.height)+1)) == 0
}

// Alts returns the number of alternatives of thread t, 0 if it is not
// enabled.
func (s EnabledSet) Alts(t trace.ThreadID) int32 {
	if !s.tree {
		for _, e := range s.flat() {
			if e.Thread == t {
				return e.Alts
			}
		}
		return 0
	}
	if t < 0 || s.root == nil || !s.fits(t) {
		return 0
	}
	p := s.root
	for h := s.height; h > 0; h-- {
		p = (*einner)(p)[(int(t)>>(ebits*uint(h)))&(efan-1)]
		if p == nil {
			return 0
		}
	}
	return (*eleaf)(p)[int(t)&(efan-1)]
}

// With returns s with thread t's alternatives set to alts (0: t not
// enabled).
func (s EnabledSet) With(t trace.ThreadID, alts int32) EnabledSet {
	old := s.Alts(t)
	if t < 0 || alts == old {
		return s
	}
	n := s.n
	if old > 0 {
		n--
	}
	if alts > 0 {
		n++
	}
	switch {
	case !s.tree && n <= flatMax:
		return flatWith(s.flat(), t, alts, n)
	case !s.tree:
		// Outgrown: the list becomes a tree.
		var r EnabledSet
		for _, e := range s.flat() {
			r = r.treeWith(e.Thread, e.Alts)
		}
		s = r
	case n <= flatMax/2:
		l := make([]Enabled, 0, flatMax)
		for e := range s.All() {
			l = append(l, e)
		}
		return flatWith(l, t, alts, n)
	}
	s = s.treeWith(t, alts)
	s.n = n
	return s
}

// flatWith returns the flat set of the n threads of list l with thread t's
// alternatives set to alts.
func flatWith(l []Enabled, t trace.ThreadID, alts int32, n int32) EnabledSet {
	if n == 0 {
		return EnabledSet{}
	}
	m := make([]Enabled, 0, n)
	added := alts == 0
	for _, e := range l {
		if !added && t < e.Thread {
			m, added = append(m, Enabled{t, alts}), true
		}
		if e.Thread != t {
			m = append(m, e)
		}
	}
	if !added {
		m = append(m, Enabled{t, alts})
	}
	return EnabledSet{root: unsafe.Pointer(&m[0]), n: n}
}

// treeWith returns the tree s, or an empty tree, with thread t's
// alternatives set to alts; its count is left to the caller.
func (s EnabledSet) treeWith(t trace.ThreadID, alts int32) EnabledSet {
	s.tree = true
	for !s.fits(t) {
		// Grow a level: the old tree is the first subtree.
		if s.root != nil {
			r := new(einner)
			r[0] = s.root
			s.root = unsafe.Pointer(r)
		}
		s.height++
	}
	s.root = eset(s.root, s.height, int(t), alts)
	return s
}

// eset returns the tree p of height h with thread t's entry set to alts,
// or nil if no thread is enabled in it then.
func eset(p unsafe.Pointer, h uint8, t int, alts int32) unsafe.Pointer {
	k := (t >> (ebits * uint(h))) & (efan - 1)
	if h == 0 {
		l := new(eleaf)
		if p != nil {
			*l = *(*eleaf)(p)
		}
		l[k] = alts
		if *l == (eleaf{}) {
			return nil
		}
		return unsafe.Pointer(l)
	}
	n := new(einner)
	var old unsafe.Pointer
	if p != nil {
		*n = *(*einner)(p)
		old = n[k]
	}
	n[k] = eset(old, h-1, t, alts)
	if *n == (einner{}) {
		return nil
	}
	return unsafe.Pointer(n)
}

// All returns the enabled threads in increasing order.
func (s EnabledSet) All() iter.Seq[Enabled] {
	return func(yield func(Enabled) bool) {
		if !s.tree {
			for _, e := range s.flat() {
				if !yield(e) {
					return
				}
			}
			return
		}
		if s.root != nil {
			eall(s.root, s.height, 0, yield)
		}
	}
}

// eall yields the enabled threads of tree p of height h, whose first
// thread is base, in order; it reports whether to go on.
func eall(p unsafe.Pointer, h uint8, base int, yield func(Enabled) bool) bool {
	if h == 0 {
		for k, a := range (*eleaf)(p) {
			if a > 0 && !yield(Enabled{trace.ThreadID(base + k), a}) {
				return false
			}
		}
		return true
	}
	for k, c := range (*einner)(p) {
		if c != nil && !eall(c, h-1, base+k<<(ebits*uint(h)), yield) {
			return false
		}
	}
	return true
}

// List returns the enabled threads in increasing order, as a new slice.
func (s EnabledSet) List() []Enabled {
	var l []Enabled
	for e := range s.All() {
		l = append(l, e)
	}
	return l
}

// enabledOf returns the set of the threads of l.
func enabledOf(l []Enabled) EnabledSet {
	var s EnabledSet
	for _, e := range l {
		s = s.With(e.Thread, e.Alts)
	}
	return s
}
