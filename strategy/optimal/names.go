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
// trace.ThreadNames), and the events it keeps compare threads by these names
// (event.sth, spart, sjoin, kids; event.key). The analysis of a trace and
// the enabledness model index their arrays by the trace's ThreadIDs.

package optimal

import (
	"slices"

	"github.com/weft-go/weft/trace"
)

// nameThreads sets the stable names of e (trace.ThreadNames), an event of
// the current execution whose threads, Join target and first started
// thread (spawnLo) are set.
func nameThreads(n *trace.ThreadNames, e *event) {
	e.sth = n.Stable(e.Thread)
	e.spart = n.Stable(e.Partner)
	e.sjoin = trace.NoThread
	if e.Op.Kind == trace.KindJoin {
		e.sjoin = n.Stable(trace.ThreadID(e.Op.Arg))
	}
	var kids []trace.ThreadID
	if e.Spawned > 0 && e.spawnLo != trace.NoThread {
		kids = make([]trace.ThreadID, e.Spawned)
		for c := range kids {
			kids[c] = n.Stable(e.spawnLo + trace.ThreadID(c))
		}
	}
	e.setKids(kids)
}

// spawnedBy reports whether stable thread t was started in the local code
// of kept event e.
func (e *event) spawnedBy(t trace.ThreadID) bool {
	return t != trace.NoThread && slices.Contains(e.kids(), t)
}

// names maps the objects of the current execution to stable numbers.
type names struct {
	ids   map[uint64]trace.ObjectID // object key -> stable number
	canon []trace.ObjectID          // ObjectID of the current execution -> stable number
	nodes int                       // wakeup-tree nodes created (insert)
	// Memory of wakeup-tree nodes (wakeup.go): freed ones, and the rest of
	// the block new ones come from.
	spare  []*wnode
	block  []wnode
	events []event // the events of block's nodes (wnode.ev)
	links  []*wnode
	rest   []*event // insert's memory
	// sum is follow's summary of what remains of its sequence, if
	// summed; its tables are zero between walks.
	sum    depSum
	summed bool
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
	if m := trace.ArgObject(&op); m != trace.NoObject {
		op.Arg = int64(n.object(m))
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
