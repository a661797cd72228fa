// This file models the RUnlocks of an RWMutex that may fail: those of a
// thread that holds no read lock of its own, and those of a holder once
// such an RUnlock has succeeded (state.go's deficit). Their events take
// every copy of the RWMutex, where the others take their thread's.

package unfold

import (
	"github.com/weft-go/weft/model"
	"github.com/weft-go/weft/trace"
)

// holderRUnlock reports whether k is the RUnlock of a thread that holds a
// read lock of its own, whose event takes its own copy or, with a
// deficit, every copy.
func holderRUnlock(k opKey) bool {
	return k.kind == trace.KindRUnlock && k.class == trace.ClassRWMutex && k.arg == rwHolder
}

// holderAll returns the operation of a holder's RUnlock k with a deficit:
// its event takes every copy.
func holderAll(k opKey) opKey {
	k.arg = rwHolderAll
	return k
}

// rwForm returns the operation of the event of thread condition pre[0],
// whose next operation is k, with preset pre: k, but rwHolderAll for a
// holder's RUnlock whose copy has a deficit.
func (n *net) rwForm(k opKey, pre []int32) opKey {
	if holderRUnlock(k) && len(pre) > 1 && rwDeficitOf(n.conds[pre[1]].value) != 0 {
		return holderAll(k)
	}
	return k
}

// holderAllExtensions adds the extensions of thread condition t, a
// holder's RUnlock k, that take every copy: the tuples concurrent with
// t whose copies have a deficit, searched from start (a condition of each
// copy, concurrent with t). It does nothing while the RWMutex has no
// deficit anywhere in the unfolding.
func (n *net) holderAllExtensions(t int32, k opKey, start []int32) {
	if !n.objects[k.obj].deficit {
		return
	}
	n.searchTuple(t, holderAll(k), start)
}

// searchFromCut adds the extensions of thread condition t, operation k on
// an RWMutex taking every copy, that are concurrent with d, a new copy
// condition: the tuples concurrent with t, searched from the cut of its
// local configuration.
func (n *net) searchFromCut(t int32, k opKey, d int32) {
	if ok, fatal := n.co(t, d); !ok || fatal {
		return
	}
	start := n.tupleBuf[:0]
	for _, p := range n.objects[k.obj].copies {
		start = append(start, n.frontOf(t, p))
	}
	n.tupleBuf = start
	n.searchTuple(t, k, start)
}

// rwAccepts reports whether k, an operation on an RWMutex that takes the
// copies cs, can take them together: each copy lets it run, and for an
// announced writer the reader count, which the deficit may lower below
// the copies' read locks, is zero.
func (n *net) rwAccepts(k opKey, cs []int32) bool {
	for _, c := range cs {
		if !n.accepts(k, &n.conds[c]) {
			return false
		}
	}
	if k.kind == trace.KindLock && k.arg == model.RWAnnounced {
		return n.rwSum(cs)&rwReaderMax == 0
	}
	return true
}

// readLocks counts the read locks each thread of the current execution
// holds of each RWMutex, as the runtime does (a thread's RLocks and
// successful TryRLocks less its successful RUnlocks, never below zero):
// whether an RUnlock's thread holds one (rwHolder) depends on its own
// steps alone, the same in every execution that reaches its thread
// condition, where the runtime's Op.Arg also depends on the others'.
type readLocks []readLock

// readLock is the read locks a thread holds of an RWMutex.
type readLock struct {
	thread trace.ThreadID
	obj    trace.ObjectID
	n      int64
}

// holds reports whether thread id holds a read lock of obj.
func (r readLocks) holds(id trace.ThreadID, obj trace.ObjectID) bool {
	for _, l := range r {
		if l.thread == id && l.obj == obj {
			return l.n > 0
		}
	}
	return false
}

// apply counts the read locks event ev takes or releases.
func (r *readLocks) apply(ev *trace.Event) {
	op := ev.Op
	if op.Class != trace.ClassRWMutex || !ev.OK {
		return
	}
	var d int64
	switch {
	case op.Kind == trace.KindRLock, op.Kind == trace.KindTryLock && op.Arg == trace.TryRLockArg:
		d = 1
	case op.Kind == trace.KindRUnlock:
		d = -1
	default:
		return
	}
	for i := range *r {
		if l := &(*r)[i]; l.thread == ev.Thread && l.obj == op.Obj {
			l.n = max(l.n+d, 0)
			return
		}
	}
	if d > 0 {
		*r = append(*r, readLock{thread: ev.Thread, obj: op.Obj, n: d})
	}
}
