// This file implements the canonical values of object keys, which name an
// object alike in every runtime, and the export and import of what a
// runtime learned about names (Tables), for a unit of work explored in
// another runtime or process.

package engine

import (
	"cmp"
	"slices"

	"github.com/weft-go/weft/trace"
)

// Tables is what naming tables learned across executions that another
// runtime cannot derive: the key each name of a thread for an object it
// touched stands for (objectName), in canonical values. Created objects
// need none: their keys derive from their creators alone.
type Tables struct {
	Bindings []Binding
}

// A Binding is a thread's name for an object (its canonical hash, the
// number of its announcement and the object's rank among the objects it
// touched for the first time there) and the canonical key it stands for.
type Binding struct {
	Thread         uint64
	Announce, Rank uint32
	Key            uint64
}

// Hash tags, apart for the names of threads, created objects, touched
// ones, and those made outside the test body (outsideCanon).
const (
	hashThread = iota + 1
	hashCreated
	hashTouched
	hashRebound
	hashOutside
)

// mainThreadHash is the canonical hash of the test body's thread.
const mainThreadHash = 0x6a09e667f3bcc908

// mix hashes v into h.
func mix(h, v uint64) uint64 { return trace.Mix(h*0x9e3779b97f4a7c15 ^ trace.Mix(v)) }

// canonical returns a canonical key value of hash h: never 0 and never an
// outside key.
func canonical(h uint64) uint64 {
	h &^= outsideKey
	if h == 0 {
		h = 1
	}
	return h
}

// threadHash returns the canonical hash of the thread of stable name k;
// n.mu is held.
func (n *Names) threadHash(k uint32) uint64 {
	if int(k) < len(n.thash) {
		return n.thash[k]
	}
	return mainThreadHash
}

// internThread returns the stable name of the thread of canonical hash h,
// a new one if h is new; n.mu is held.
func (n *Names) internThread(h uint64) uint32 {
	if len(n.thash) == 0 {
		n.thash = append(n.thash, mainThreadHash) // the test body's, 0
		n.byThread = map[uint64]uint32{mainThreadHash: 0}
	}
	if v, ok := n.byThread[h]; ok {
		return v
	}
	v := uint32(len(n.thash))
	n.thash = append(n.thash, h)
	n.byThread[h] = v
	return v
}

// createdCanon returns the canonical key of the object made by the
// creations-th constructor call of the thread of stable name k; n.mu is
// held.
func (n *Names) createdCanon(k, creations uint32) uint64 {
	return mix(mix(n.threadHash(k), hashCreated), uint64(creations))
}

// touchedCanon returns the canonical key of the object name o first
// stood for; n.mu is held.
func (n *Names) touchedCanon(o objectName) uint64 {
	h := mix(n.threadHash(o.thread), hashTouched)
	return mix(h, uint64(o.announce)<<32|uint64(o.rank))
}

// newCanonKey returns a new key of canonical value c, or of the next value
// of c's sequence if a key of the tables has c already (a name bound anew:
// rebind); n.mu is held.
func (n *Names) newCanonKey(c uint64) uint64 {
	c = canonical(c)
	for {
		if _, ok := n.byCanon[c]; !ok {
			break
		}
		c = canonical(mix(c, hashRebound))
	}
	n.nkeys++
	k := n.id<<32 | n.nkeys
	for uint64(len(n.canon)) <= n.nkeys {
		n.canon = append(n.canon, 0)
	}
	n.canon[n.nkeys] = c
	if n.byCanon == nil {
		n.byCanon = make(map[uint64]uint64)
	}
	n.byCanon[c] = k
	return k
}

// canonOf returns the canonical value of key k; n.mu is held.
func (n *Names) canonOf(k uint64) uint64 {
	if k&outsideKey != 0 || k>>32 != n.id || k&(1<<32-1) >= uint64(len(n.canon)) {
		return k
	}
	return n.canon[k&(1<<32-1)]
}

// lockedCanonOf is canonOf for a caller that does not hold n.mu.
func (n *Names) lockedCanonOf(k uint64) uint64 {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.canonOf(k)
}

// Export returns what the tables learned (Tables), for Import into
// another runtime's: every name bound to a key, with the key it stands
// for after the merges found.
func (n *Names) Export() Tables {
	n.mu.Lock()
	defer n.mu.Unlock()
	merged := make(map[uint64]uint64, len(n.log))
	find := func(k uint64) uint64 {
		for {
			to, ok := merged[k]
			if !ok {
				return k
			}
			k = to
		}
	}
	for _, l := range n.log {
		if a, b := find(l.m.To), find(l.m.From); a != b {
			merged[b] = a
		}
	}
	t := Tables{Bindings: make([]Binding, 0, len(n.okeys))}
	for o, k := range n.okeys {
		t.Bindings = append(t.Bindings, Binding{Thread: n.threadHash(o.thread), Announce: o.announce, Rank: o.rank, Key: n.canonOf(find(k))})
	}
	slices.SortFunc(t.Bindings, func(a, b Binding) int {
		return cmp.Or(cmp.Compare(a.Thread, b.Thread), cmp.Compare(a.Announce, b.Announce), cmp.Compare(a.Rank, b.Rank))
	})
	return t
}

// Import adds to the tables the bindings of t, another runtime's (Export),
// of the names they do not bind yet: a name bound here keeps its key. It
// must not be called while an execution runs.
func (n *Names) Import(t Tables) {
	n.mu.Lock()
	defer n.mu.Unlock()
	for _, b := range t.Bindings {
		o := objectName{thread: n.internThread(b.Thread), announce: b.Announce, rank: b.Rank}
		if _, ok := n.okeys[o]; ok {
			continue
		}
		k, ok := n.byCanon[canonical(b.Key)]
		if !ok {
			k = n.newCanonKey(b.Key)
		}
		if n.okeys == nil {
			n.okeys = make(map[objectName]uint64)
		}
		n.okeys[o] = k
	}
}
