// This file names objects stably across executions (threads are named by
// trace.ThreadNames): the trace numbers them in the order of their first
// use, which depends on the interleaving.

package unfold

import (
	"strconv"

	"github.com/weft-go/weft/trace"
)

// objectNames maps the objects of the current execution to stable numbers,
// by their keys (trace.ObjectInfo.Key).
type objectNames struct {
	ids   map[uint64]int32 // object key -> stable number
	canon []int32          // ObjectID of the current execution -> stable number
	n     int32            // stable numbers given
	names []string         // stable number -> the name the program gave the object, if any
	caps  []int64          // stable number -> its capacity, if a channel (trace.ObjectInfo.Cap)
	// classes are the objects' classes by stable number: a timer's
	// channel is trace.ClassTimer.
	classes []trace.Class
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
			n.caps = append(n.caps, objs[o].Cap)
			n.classes = append(n.classes, objs[o].Class)
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

// timer reports whether stable object o is a timer's channel.
func (n *objectNames) timer(o int32) bool {
	return o >= 0 && int(o) < len(n.classes) && n.classes[o] == trace.ClassTimer
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

// threadPaths returns a function naming each stable thread of tn by its
// path of spawns from the body: "0" for the body, "0.0" for the first
// thread the body started, "0.0.1" for the second thread that one
// started; "clock" for weft's clock thread (threads.go).
func threadPaths(tn *threadNames) func(th int32) string {
	parent := map[int32][2]int32{}
	for k, id := range tn.Paths() {
		parent[int32(id)] = [2]int32{k.Parent, k.Rank}
	}
	memo := map[int32]string{}
	var path func(th int32) string
	path = func(th int32) string {
		if p, ok := memo[th]; ok {
			return p
		}
		k := parent[th]
		p := "0"
		if k == [2]int32{clockPath.Parent, clockPath.Rank} {
			p = "clock"
		} else if k[0] >= 0 {
			p = path(k[0]) + "." + strconv.Itoa(int(k[1]))
		}
		memo[th] = p
		return p
	}
	return path
}
