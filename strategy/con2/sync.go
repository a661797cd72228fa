// This file builds the nodes of the primitives beyond the paper's
// variables and locks (channels, select, reader/writer mutexes, failed
// try-locks, WaitGroups, Once, Cond, semaphores, monitors, timers and
// sleeps): a node per step, interfered when the step synchronises with a
// step of another thread (doc.go, "Other primitives").

package con2

import (
	"slices"

	"github.com/weft-go/weft/trace"
)

// modelled reports whether op is a step of another primitive that con2
// models as a kSync node: everything but variables, a Mutex's Lock and
// Unlock and a TryLock that succeeds (the paper's locks), joins, and the
// operations on time that moves at any step and busy waits, which con2
// models as reads and writes of variables (busy.go).
func modelled(op trace.Op) bool {
	switch op.Class {
	case trace.ClassClock:
		return false
	case trace.ClassVar, trace.ClassThread, trace.ClassNone:
		return op.Kind == trace.KindSelect || op.Kind == trace.KindSleep
	case trace.ClassMutex:
		return op.Kind == trace.KindTryLock
	}
	return op.Kind != trace.KindAwait && op.Kind != trace.KindNow && op.Kind != trace.KindAdvance
}

// lockEffect returns the lock a step of label l takes (d > 0) or releases
// (d < 0): a Mutex's acquire and release, an RWMutex's Lock (its last
// step), RLock and successful tries, Unlock and RUnlock, a Cond's Wait
// (which releases its mutex) and Relock, a monitor's Enter, Reenter, Exit
// and Wait. Completion (explore.go) runs a thread that holds one to
// where it holds none (Farzan et al. 2013, §7.4).
func lockEffect(l *label) (obj uint64, d int) {
	switch l.kind {
	case kAcquire:
		return l.obj, 1
	case kRelease:
		return l.obj, -1
	case kSync:
	default:
		return 0, 0
	}
	switch l.op {
	case trace.KindLock, trace.KindRLock, trace.KindTryLock:
		if l.ok {
			return l.obj, 1
		}
	case trace.KindUnlock, trace.KindRUnlock, trace.KindMExit:
		return l.obj, -1
	case trace.KindMEnter, trace.KindMReenter:
		return l.obj, 1
	case trace.KindMWait:
		return l.obj, -1
	case trace.KindWait:
		if l.lock != 0 {
			return l.lock, -1
		}
	case trace.KindRelock:
		if l.lock != 0 {
			return l.lock, 1
		}
	}
	return 0, 0
}

// sync adds the node of step s, a step of another primitive: its source
// is the step it synchronises with (trace.Event.Source; for a receive
// that meets a sender on an unbuffered channel, the sender's side, added
// first as a node of the sender; for the steps whose pair the runtime
// does not record, the tracker's) when that step is another thread's,
// not one the thread inherits (before its fork).
func (b *builder) sync(s int) {
	tr := b.tr
	ev := &tr.Events[s]
	p := ev.Thread
	l := label{kind: kSync, op: ev.Op.Kind, obj: caseKey(tr, ev.Op, ev.Case), cas: ev.Case, ok: ev.OK}
	if m := trace.ArgObject(&ev.Op); m != trace.NoObject {
		l.lock = tr.Objects[m].Key
	}
	if ev.Op.Kind == trace.KindLen {
		l.val = int64(ev.Value)
	}
	op := b.f.numOp(tr, ev.Op, b.names)
	w := none
	if x, ok := b.trk.source(b.f, b.stable(p), &l, op); ok {
		w = x
	} else {
		switch {
		case ev.Partner != trace.NoThread:
			q := ev.Partner
			pl := label{kind: kSync, op: ev.PartnerOp.Kind, obj: caseKey(tr, ev.PartnerOp, ev.PartnerCase), cas: ev.PartnerCase, ok: true, rdv: true}
			w = b.add(q, pl, b.dueBy(ev.PartnerOp))
			b.f.setOp(w, tr, ev.PartnerOp, b.names)
			b.f.addSync(w)
		case ev.Source() >= 0 && ev.Source() < len(b.steps):
			w = b.steps[ev.Source()]
		}
	}
	if w != none && (b.f.nodes[w].thread == b.stable(p) || b.f.before(w, b.last[p])) {
		w = none // the thread's own step, or one it inherits
	}
	n := b.step(s, b.add(p, l, w))
	b.f.addSync(n)
	b.f.addReceiver(n)
	b.trk.apply(b.f, b.stable(p), n, &l, b.f.ops[n])
}

// caseKey returns the key of the object of op: for a select, the channel
// of case cas, or of its first case for the default (0 if none).
func caseKey(tr *trace.Trace, op trace.Op, cas int32) uint64 {
	id := op.Obj
	if op.Kind == trace.KindSelect {
		id = trace.NoObject
		switch {
		case cas >= 0 && int(cas) < len(op.Cases):
			id = op.Cases[cas].Obj
		case len(op.Cases) > 0:
			id = op.Cases[0].Obj
		}
	}
	if id < 0 || int(id) >= len(tr.Objects) {
		return 0
	}
	return tr.Objects[id].Key
}

// addSync lists node n among the nodes of its object, once.
func (f *forest) addSync(n int32) {
	obj := f.nodes[n].lab.obj
	if _, ok := f.syncs[obj]; !ok {
		f.syncObjs = append(f.syncObjs, obj)
	}
	if !slices.Contains(f.syncs[obj], n) {
		f.syncs[obj] = append(f.syncs[obj], n)
	}
}

// objOf returns the forest's number of the object of key k with info
// in, numbering it if new.
func (f *forest) objOf(k uint64, in *trace.ObjectInfo) trace.ObjectID {
	if id, ok := f.objID[k]; ok {
		return id
	}
	id := trace.ObjectID(len(f.objs))
	f.objs = append(f.objs, *in)
	f.keys = append(f.keys, k)
	f.objID[k] = id
	return id
}

// setOp records op, of execution tr, as the operation of step node n
// (numOp), unless n has one.
func (f *forest) setOp(n int32, tr *trace.Trace, op trace.Op, names *trace.ThreadNames) {
	if _, ok := f.ops[n]; !ok {
		f.ops[n] = f.numOp(tr, op, names)
	}
}

// numOp returns op, of execution tr, in the forest's numbers of objects
// (and for a join, of threads).
func (f *forest) numOp(tr *trace.Trace, op trace.Op, names *trace.ThreadNames) trace.Op {
	num := func(id trace.ObjectID) trace.ObjectID {
		if id < 0 || int(id) >= len(tr.Objects) {
			return trace.NoObject
		}
		return f.objOf(tr.Objects[id].Key, &tr.Objects[id])
	}
	o := op
	o.Obj = num(op.Obj)
	if len(op.Cases) > 0 {
		o.Cases = make([]trace.Case, len(op.Cases))
		for i, c := range op.Cases {
			o.Cases[i] = trace.Case{Kind: c.Kind, Obj: num(c.Obj)}
		}
	}
	if op.Kind == trace.KindJoin {
		o.Arg = int64(names.Stable(trace.ThreadID(op.Arg)))
	} else if m := trace.ArgObject(&op); m != trace.NoObject {
		o.Arg = int64(num(m))
	}
	return o
}

// copyOp gives node to, made from node from's key, from's operation.
func (f *forest) copyOp(from, to int32) {
	if op, ok := f.ops[from]; ok {
		if _, has := f.ops[to]; !has {
			f.ops[to] = op
		}
	}
}

// addReceiver lists node n among the receivers of its source, if that is
// a sender's side of a rendezvous.
func (f *forest) addReceiver(n int32) {
	if w := f.nodes[n].src; w != none && f.nodes[w].lab.rdv && !slices.Contains(f.receivers[w], n) {
		f.receivers[w] = append(f.receivers[w], n)
	}
}
