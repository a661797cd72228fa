// This file names threads and objects stably across executions, as
// strategy/optimal does (names.go there): the trace numbers both in the
// order of their first appearance, which depends on the interleaving.

package unfold

import "github.com/weft-go/weft/trace"

// threadNames maps the threads of the current execution to stable numbers:
// one per path of spawns (the parent's stable number and the rank among
// its children), kept for the whole exploration.
type threadNames struct {
	ids  map[[2]int32]int32 // (parent's stable number, rank) -> stable number
	cur  []int32            // ThreadID of the current execution -> stable number
	inv  []trace.ThreadID   // stable number -> ThreadID of the current execution, or NoThread
	kids []int32            // children started so far, per thread of the current execution
}

// reset starts a new execution.
func (n *threadNames) reset() {
	n.cur, n.kids = n.cur[:0], n.kids[:0]
	for i := range n.inv {
		n.inv[i] = trace.NoThread
	}
}

// sync names the threads of ts not named yet.
func (n *threadNames) sync(ts []trace.ThreadInfo) {
	if n.ids == nil {
		n.ids = make(map[[2]int32]int32)
	}
	for c := len(n.cur); c < len(ts); c++ {
		key := [2]int32{-1, 0}
		if p := ts[c].Parent; p != trace.NoThread && int(p) < len(n.cur) {
			key = [2]int32{n.cur[p], n.kids[p]}
			n.kids[p]++
		}
		id, ok := n.ids[key]
		if !ok {
			id = int32(len(n.ids))
			n.ids[key] = id
		}
		n.cur = append(n.cur, id)
		n.kids = append(n.kids, 0)
		for int(id) >= len(n.inv) {
			n.inv = append(n.inv, trace.NoThread)
		}
		n.inv[id] = trace.ThreadID(c)
	}
}

// stable returns the stable number of thread t of the current execution,
// or -1.
func (n *threadNames) stable(t trace.ThreadID) int32 {
	if t < 0 || int(t) >= len(n.cur) {
		return -1
	}
	return n.cur[t]
}

// current returns the ThreadID in the current execution of the thread of
// stable number t, or NoThread if it has not started.
func (n *threadNames) current(t int32) trace.ThreadID {
	if t < 0 || int(t) >= len(n.inv) {
		return trace.NoThread
	}
	return n.inv[t]
}

// objectNames maps the objects of the current execution to stable numbers,
// by their keys (trace.ObjectInfo.Key).
type objectNames struct {
	ids   map[uint64]int32 // object key -> stable number
	canon []int32          // ObjectID of the current execution -> stable number
	n     int32            // stable numbers given
	names []string         // stable number -> the name the program gave the object, if any
}

// reset starts a new execution.
func (n *objectNames) reset() { n.canon = n.canon[:0] }

// sync names the objects of objs not named yet. An object without a key
// (0) gets a number of its own in each execution.
func (n *objectNames) sync(objs []trace.ObjectInfo) {
	if n.ids == nil {
		n.ids = make(map[uint64]int32)
	}
	for o := len(n.canon); o < len(objs); o++ {
		k := objs[o].Key
		id, ok := n.ids[k]
		if !ok || k == 0 {
			id = n.n
			n.n++
			n.ids[k] = id
			n.names = append(n.names, objs[o].Name)
		}
		n.canon = append(n.canon, id)
	}
}

// stable returns the stable number of object o of the current execution,
// or -1.
func (n *objectNames) stable(o trace.ObjectID) int32 {
	if o < 0 || int(o) >= len(n.canon) {
		return -1
	}
	return n.canon[o]
}

// merge applies the key merges of an execution (trace.Trace.Merged): a key
// seen for the first time takes the number of the key it names. It reports
// false if two keys the strategy numbered apart name one object: the
// unfolding has places for both, which this strategy does not join.
func (n *objectNames) merge(ms []trace.KeyMerge) bool {
	for _, m := range ms {
		from, okf := n.ids[m.From]
		to, okt := n.ids[m.To]
		switch {
		case okf && okt && from != to:
			return false
		case okf && !okt:
			n.ids[m.To] = from
		case okt && !okf:
			n.ids[m.From] = to
		}
	}
	return true
}
