// This file names objects across executions, for the events that sleep sets
// and wakeup trees keep from one execution to the next, and copies events
// out of the runtime's memory.
//
// A trace numbers objects in the order of their first use, which depends on
// the interleaving: one ObjectID can name different objects in two
// executions, and a wakeup sequence reorders first uses. The runtime gives
// each object a key stable across executions (trace.ObjectInfo.Key); the
// strategy maps keys to small numbers, kept for the whole exploration, and
// compares events by them. The clocks and the enabledness model work on one
// trace at a time and use its ObjectIDs.
//
// Threads are numbered by the trace in the order they are started, which
// depends on the interleaving too: a wakeup sequence may start two threads
// in the other order. The strategy names each thread after its path of
// spawns (its parent's name and its rank among the parent's children:
// threadNames), and the events it keeps compare threads by these names
// (event.sth, spart, sjoin, kids; event.key). The analysis of a trace and
// the enabledness model index their arrays by the trace's ThreadIDs.

package optimal

import (
	"slices"

	"github.com/weft-go/weft/trace"
)

// threadNames maps the threads of the current execution to stable numbers:
// one per path of spawns, kept for the whole exploration.
type threadNames struct {
	ids  map[[2]int32]trace.ThreadID // (parent's stable number, rank) -> stable number
	cur  []trace.ThreadID            // ThreadID of the current execution -> stable number
	inv  []trace.ThreadID            // stable number -> ThreadID of the current execution, or NoThread
	kids []int32                     // children started so far, per thread of the current execution
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
		n.ids = make(map[[2]int32]trace.ThreadID)
	}
	for c := len(n.cur); c < len(ts); c++ {
		key := [2]int32{-1, 0}
		if p := ts[c].Parent; p != trace.NoThread && int(p) < len(n.cur) {
			key = [2]int32{int32(n.cur[p]), n.kids[p]}
			n.kids[p]++
		}
		id, ok := n.ids[key]
		if !ok {
			id = trace.ThreadID(len(n.ids))
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

// stable returns the stable number of thread t of the current execution.
func (n *threadNames) stable(t trace.ThreadID) trace.ThreadID {
	if t < 0 || int(t) >= len(n.cur) {
		return t
	}
	return n.cur[t]
}

// current returns the ThreadID in the current execution of the thread of
// stable number t, or NoThread if it has not started.
func (n *threadNames) current(t trace.ThreadID) trace.ThreadID {
	if t < 0 || int(t) >= len(n.inv) {
		return trace.NoThread
	}
	return n.inv[t]
}

// name sets the stable names of e, an event of the current execution whose
// threads, Join target and first started thread (spawnLo) are set.
func (n *threadNames) name(e *event) {
	e.sth = n.stable(e.Thread)
	e.spart = n.stable(e.Partner)
	e.sjoin = trace.NoThread
	if e.Op.Kind == trace.KindJoin {
		e.sjoin = n.stable(trace.ThreadID(e.Op.Arg))
	}
	e.kids = nil
	if e.Spawned > 0 && e.spawnLo != trace.NoThread {
		e.kids = make([]trace.ThreadID, e.Spawned)
		for c := range e.kids {
			e.kids[c] = n.stable(e.spawnLo + trace.ThreadID(c))
		}
	}
}

// spawnedBy reports whether stable thread t was started in the local code
// of kept event e.
func (e *event) spawnedBy(t trace.ThreadID) bool {
	return t != trace.NoThread && slices.Contains(e.kids, t)
}

// names maps the objects of the current execution to stable numbers.
type names struct {
	ids   map[uint64]trace.ObjectID // object key -> stable number
	canon []trace.ObjectID          // ObjectID of the current execution -> stable number
	nodes int                       // wakeup-tree nodes created (insert)
	// Memory of wakeup-tree nodes (wakeup.go): freed ones, and the rest of
	// the block new ones come from.
	spare []*wnode
	block []wnode
	links []*wnode
	rest  []*event // insert's memory
}

// reset starts a new execution.
func (n *names) reset() { n.canon = n.canon[:0] }

// sync names the objects of tr not named yet.
func (n *names) sync(objs []trace.ObjectInfo) {
	if n.ids == nil {
		n.ids = make(map[uint64]trace.ObjectID)
	}
	for o := len(n.canon); o < len(objs); o++ {
		k := objs[o].Key
		id, ok := n.ids[k]
		if !ok || k == 0 {
			id = trace.ObjectID(len(n.ids))
			n.ids[k] = id
		}
		n.canon = append(n.canon, id)
	}
}

// object returns the stable number of object o of the current execution.
func (n *names) object(o trace.ObjectID) trace.ObjectID {
	if o < 0 || int(o) >= len(n.canon) {
		return o
	}
	return n.canon[o]
}

// accesses returns a copy of accesses acc of the current execution, with
// stable object numbers, or nil if there are none.
func (n *names) accesses(acc []trace.Access) []trace.Access {
	if len(acc) == 0 {
		return nil
	}
	out := make([]trace.Access, len(acc))
	for i, x := range acc {
		out[i] = trace.Access{Obj: n.object(x.Obj), Mode: x.Mode}
	}
	return out
}

// announced returns, with stable object numbers, the accesses of the
// operations announced in the local code of a step (trace.AppendAnnounced):
// next gives the operation each thread has pending after it.
func (n *names) announced(e *trace.Event, spawnLo trace.ThreadID, objs []trace.ObjectInfo, next func(trace.ThreadID) trace.Op) []trace.Access {
	// Only sends announce anything; most steps take the short way, with a
	// small stack frame (see Strategy.record).
	mayAnnounce := func(op trace.Op) bool { return op.Kind == trace.KindSend || op.Kind == trace.KindSelect }
	some := mayAnnounce(next(e.Thread)) || (e.Partner != trace.NoThread && mayAnnounce(next(e.Partner)))
	for c := range trace.ThreadID(e.Spawned) {
		some = some || mayAnnounce(next(spawnLo+c))
	}
	if !some {
		return nil
	}
	return n.announcedSlow(e, spawnLo, objs, next)
}

// announcedSlow is announced's long way.
//
//go:noinline
func (n *names) announcedSlow(e *trace.Event, spawnLo trace.ThreadID, objs []trace.ObjectInfo, next func(trace.ThreadID) trace.Op) []trace.Access {
	var buf [8]trace.Access
	acc := trace.AppendAnnounced(buf[:0], next(e.Thread), objs)
	if e.Partner != trace.NoThread {
		acc = trace.AppendAnnounced(acc, next(e.Partner), objs)
	}
	for c := range trace.ThreadID(e.Spawned) {
		acc = trace.AppendAnnounced(acc, next(spawnLo+c), objs)
	}
	return n.accesses(acc)
}

// op returns a copy of op, of the current execution, with stable object
// numbers and its own select cases.
func (n *names) op(_ trace.ThreadID, op trace.Op) trace.Op {
	op.Obj = n.object(op.Obj)
	if len(op.Cases) > 0 {
		cs := make([]trace.Case, len(op.Cases))
		for i, c := range op.Cases {
			cs[i] = trace.Case{Kind: c.Kind, Obj: n.object(c.Obj)}
		}
		op.Cases = cs
	}
	if (op.Kind == trace.KindWait || op.Kind == trace.KindRelock) && op.Class == trace.ClassCond && op.Arg >= 0 {
		op.Arg = int64(n.object(trace.ObjectID(op.Arg)))
	}
	return op
}

// own gives e, a copy of an event of the current execution, stable object
// numbers and its own select cases, in place.
func (n *names) own(e *trace.Event) {
	e.Op = n.op(e.Thread, e.Op)
	if e.Partner != trace.NoThread {
		e.PartnerOp = n.op(e.Partner, e.PartnerOp)
	}
	e.PC = 0
}

// event returns a copy of e, of the current execution, with stable object
// numbers and its own select cases.
func (n *names) event(e trace.Event) trace.Event {
	e.Op = n.op(e.Thread, e.Op)
	if e.Partner != trace.NoThread {
		e.PartnerOp = n.op(e.Partner, e.PartnerOp)
	}
	e.PC = 0
	return e
}
