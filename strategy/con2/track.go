// This file implements the sources of the steps whose pair the runtime
// does not record: a try-lock that fails, a send on a buffered channel,
// a V of a binary semaphore, a WaitGroup's Add and a channel's Len
// observe another thread's step all the same (doc.go, "Other primitives"). The builder and the
// search for an order (order.go) follow the steps with one tracker each.

package con2

import (
	"maps"
	"slices"

	"github.com/weft-go/weft/model"
	"github.com/weft-go/weft/trace"
)

// holding is a lock step still in effect: the thread and its node.
type holding struct {
	thread trace.ThreadID
	node   int32
}

// tracker follows what the sources of those steps depend on.
type tracker struct {
	// holders lists each lock's acquisitions in effect (a Mutex's,
	// an RWMutex writer's announce or lock, its readers' read locks), in
	// the order taken.
	holders map[uint64][]holding
	// sends counts the sends on each buffered channel, recvs lists the
	// receives that took a value from its buffer; lenStep is its last
	// step that changed its length; lastP is a semaphore's last P.
	sends   map[uint64]int
	recvs   map[uint64][]int32
	lenStep map[uint64]int32
	lastP   map[uint64]int32
	// chans holds each channel's last step (a send, a receive, a close,
	// a rendezvous), numbered by seq: a select's default observes the
	// latest on its channels.
	chans map[uint64]lastStep
	seq   int
}

// lastStep is the last step on a channel and its number.
type lastStep struct {
	node int32
	seq  int
}

func newTracker() *tracker {
	return &tracker{holders: map[uint64][]holding{}, sends: map[uint64]int{}, recvs: map[uint64][]int32{},
		lenStep: map[uint64]int32{}, lastP: map[uint64]int32{}, chans: map[uint64]lastStep{}}
}

// clone returns a copy of t.
func (t *tracker) clone() *tracker {
	c := &tracker{holders: make(map[uint64][]holding, len(t.holders)), sends: maps.Clone(t.sends), recvs: make(map[uint64][]int32, len(t.recvs)),
		lenStep: maps.Clone(t.lenStep), lastP: maps.Clone(t.lastP), chans: maps.Clone(t.chans), seq: t.seq}
	for k, v := range t.holders {
		c.holders[k] = slices.Clone(v)
	}
	for k, v := range t.recvs {
		c.recvs[k] = slices.Clone(v)
	}
	return c
}

// chanStep returns the channel (its key), the direction and whether the
// step of label l with operation op (in the forest's numbers) is on a
// buffered channel: a send, a receive, or a select's case taken.
func (f *forest) chanStep(l *label, op trace.Op) (obj uint64, send, buffered, ok bool) {
	id, kind := op.Obj, op.Kind
	if op.Kind == trace.KindSelect {
		if l.cas < 0 || int(l.cas) >= len(op.Cases) {
			return 0, false, false, false
		}
		id, kind = op.Cases[l.cas].Obj, op.Cases[l.cas].Kind
	}
	if (kind != trace.KindSend && kind != trace.KindRecv) || id < 0 || int(id) >= len(f.objs) || f.objs[id].Class != trace.ClassChan {
		return 0, false, false, false
	}
	return l.obj, kind == trace.KindSend, f.objs[id].Cap > 0, true
}

// source returns the step a step of thread th, label l and operation op
// synchronises with by the tracker's account, and whether the tracker
// accounts for it (else the runtime's pair, trace.Event.Source, holds).
func (t *tracker) source(f *forest, th trace.ThreadID, l *label, op trace.Op) (int32, bool) {
	class := trace.ClassNone
	if op.Obj >= 0 && int(op.Obj) < len(f.objs) {
		class = f.objs[op.Obj].Class
	}
	switch {
	case op.Kind == trace.KindTryLock && !l.ok:
		hs := t.holders[l.obj]
		for i := len(hs) - 1; i >= 0; i-- {
			if hs[i].thread != th {
				return hs[i].node, true
			}
		}
		return none, true
	case op.Kind == trace.KindLen:
		if n, ok := t.lenStep[l.obj]; ok {
			return n, true
		}
		return none, true
	case op.Kind == trace.KindSelect && l.cas < 0:
		last := lastStep{node: none, seq: -1}
		for _, c := range op.Cases {
			if c.Obj >= 0 && int(c.Obj) < len(f.keys) {
				if x, ok := t.chans[f.keys[c.Obj]]; ok && x.seq > last.seq {
					last = x
				}
			}
		}
		return last.node, true
	case op.Kind == trace.KindWGAdd:
		if n, ok := t.lastP[l.obj]; ok {
			return n, true
		}
		return none, true
	case op.Kind == trace.KindV && class == trace.ClassBinarySemaphore:
		if n, ok := t.lastP[l.obj]; ok {
			return n, true
		}
		return none, true
	}
	if obj, send, buffered, ok := f.chanStep(l, op); ok && send && buffered && l.ok && !l.rdv {
		c := int(f.objs[f.objID[obj]].Cap)
		if j := t.sends[obj]; j >= c && j-c < len(t.recvs[obj]) {
			return t.recvs[obj][j-c], true
		}
		return none, true
	}
	return none, false
}

// apply records step node n of thread th, label l and operation op.
func (t *tracker) apply(f *forest, th trace.ThreadID, n int32, l *label, op trace.Op) {
	if obj, d := lockEffect(l); d != 0 || op.Kind == trace.KindLock && op.Class == trace.ClassRWMutex {
		if obj == 0 {
			obj = l.obj
		}
		hs := t.holders[obj]
		switch {
		case op.Kind == trace.KindLock && op.Class == trace.ClassRWMutex && op.Arg == model.RWAnnounced:
			for i := range hs {
				if hs[i].thread == th {
					hs[i].node = n // the announced writer takes the lock
				}
			}
		case d > 0 || op.Kind == trace.KindLock: // an acquire, or a writer's announce
			hs = append(hs, holding{th, n})
		default:
			for i := len(hs) - 1; i >= 0; i-- {
				if hs[i].thread == th {
					hs = slices.Delete(hs, i, i+1)
					break
				}
			}
		}
		t.holders[obj] = hs
	}
	switch op.Kind {
	case trace.KindP, trace.KindWGAdd:
		t.lastP[l.obj] = n // a semaphore's last P, a WaitGroup's last Add
	case trace.KindSend, trace.KindRecv, trace.KindClose:
		t.seq++
		t.chans[l.obj] = lastStep{n, t.seq}
	case trace.KindSelect:
		if l.cas >= 0 {
			t.seq++
			t.chans[l.obj] = lastStep{n, t.seq}
		}
	}
	if obj, send, buffered, ok := f.chanStep(l, op); ok && buffered && l.ok && !l.rdv {
		if send {
			t.sends[obj]++
		} else {
			t.recvs[obj] = append(t.recvs[obj], n)
		}
		t.lenStep[obj] = n
	}
}
