// This file implements reach's model of the synchronisation objects: which
// object a step completes on (Lei and Carver 2006, §3, receiving events), the objects
// joined into one by selects, and the refusal of the primitives outside
// the model.

package reach

import (
	"errors"
	"fmt"

	"github.com/weft-go/weft/trace"
)

// The halves of a channel. An unbuffered channel is one object (whole):
// its rendezvous, closes and the receives and sends that find it closed
// complete on it. A buffered channel is two: sends and closes complete on
// its input (the order values enter the buffer), receives on its output
// (the order they leave it); the k-th receive takes the k-th value, which
// ties the two.
const (
	whole uint8 = iota
	input
	output
)

// ref names an object of reach's model across executions: a weft object
// (by trace.ObjectInfo.Key) and, for a buffered channel, a half.
type ref struct {
	key  uint64
	half uint8
}

// chanRef returns the ref of an operation of kind k (KindSend, KindRecv,
// KindClose) on channel o.
func chanRef(k trace.Kind, o trace.ObjectID, objs []trace.ObjectInfo) ref {
	info := &objs[o]
	switch {
	case info.Cap == 0:
		return ref{info.Key, whole}
	case k == trace.KindRecv:
		return ref{info.Key, output}
	}
	return ref{info.Key, input}
}

// callRef returns the ref of a call (a pending operation): the object it
// completes on, or for a select the object of its first case on a
// channel (a select's cases are all in one group: see groups). ok is false
// for a call that completes on no shared object (a Join, a select whose
// cases are all nil channels): such a step races with nothing. Every
// operation on time that moves at any step (trace.ClassClock) completes
// on the clock (clockRef), joined with a timer by joinRefs.
func callRef(op trace.Op, objs []trace.ObjectInfo) (r ref, ok bool) {
	if op.Class == trace.ClassClock {
		// Time at any step: the clock, a shared variable (clockRef).
		return clockRef, true
	}
	switch op.Kind {
	case trace.KindJoin, trace.KindNone:
		return ref{}, false
	case trace.KindBranch:
		// A branch on an input, an event of the run's trace with its
		// branches (augment): its own object.
		return ref{uint64(op.Arg), branchHalf}, true
	case trace.KindSelect:
		for _, c := range op.Cases {
			if c.Obj != trace.NoObject {
				return chanRef(c.Kind, c.Obj, objs), true
			}
		}
		return ref{}, false
	case trace.KindSend, trace.KindRecv, trace.KindClose:
		return chanRef(op.Kind, op.Obj, objs), true
	case trace.KindLen:
		// Both halves of a buffer, joined (joinRefs): the input's group.
		return chanRef(trace.KindSend, op.Obj, objs), true
	case trace.KindAwait:
		// The variables it waits on, joined (joinRefs).
		for _, c := range op.Cases {
			if c.Obj != trace.NoObject {
				return ref{objs[c.Obj].Key, whole}, true
			}
		}
		return ref{}, false
	}
	if op.Obj == trace.NoObject {
		return ref{}, false
	}
	return ref{objs[op.Obj].Key, whole}, true
}

// stepRef returns the ref a step of op that took select case cas completes
// on: for a select that took a case, that case's channel; otherwise the
// call's.
func stepRef(op trace.Op, cas int32, objs []trace.ObjectInfo) (ref, bool) {
	if op.Kind == trace.KindSelect && cas >= 0 && int(cas) < len(op.Cases) {
		c := op.Cases[cas]
		return chanRef(c.Kind, c.Obj, objs), true
	}
	return callRef(op, objs)
}

// joins reports whether op's outcome depends on several objects of the
// model, which joinRefs joins into one: a select, the length of a buffered
// channel (the values sent and those received), an await on several
// variables (a write of any of them enables it), an advance of the clock
// that makes timers due (it enables their firings), a Stop or Reset that
// reads the clock (it also changes its timer).
func joins(op trace.Op) bool {
	switch op.Kind {
	case trace.KindSelect, trace.KindAwait:
		return true
	case trace.KindLen:
		return op.Obj != trace.NoObject
	case trace.KindWait, trace.KindRelock:
		return condMutex(op) != trace.NoObject
	case trace.KindAdvance:
		return len(op.Cases) > 0
	case trace.KindTimerStop:
		return op.Class == trace.ClassClock && op.Obj != trace.NoObject
	}
	return false
}

// condMutex returns the Mutex that op, a Cond's Wait or Relock, releases
// or takes back (Op.Arg), or NoObject: another operation, or a Cond whose
// Locker is no Mutex (its Unlock and Lock are steps of their own).
func condMutex(op trace.Op) trace.ObjectID {
	if op.Class != trace.ClassCond || (op.Kind != trace.KindWait && op.Kind != trace.KindRelock) || op.Arg < 0 {
		return trace.NoObject
	}
	return trace.ObjectID(op.Arg)
}

// joinRefs calls f with the refs that op's outcome depends on (joins): a
// select's (selectRefs), both halves of a buffered channel for its
// length, each variable of an await, a Cond and the Mutex its Wait
// releases and its Relock takes back (the monitor they make: doc.go), the
// clock and the timers an advance makes due (its cases), the clock and
// the timer of a Stop or Reset that reads it.
func joinRefs(op trace.Op, objs []trace.ObjectInfo, f func(ref)) {
	switch op.Kind {
	case trace.KindSelect:
		selectRefs(op, objs, f)
	case trace.KindLen:
		if op.Obj == trace.NoObject {
			return
		}
		if info := &objs[op.Obj]; info.Cap > 0 {
			f(ref{info.Key, input})
			f(ref{info.Key, output})
		} else {
			f(ref{info.Key, whole})
		}
	case trace.KindAwait:
		for _, c := range op.Cases {
			if c.Obj != trace.NoObject {
				f(ref{objs[c.Obj].Key, whole})
			}
		}
	case trace.KindWait, trace.KindRelock:
		if m := condMutex(op); m != trace.NoObject {
			f(ref{objs[op.Obj].Key, whole})
			f(ref{objs[m].Key, whole})
		}
	case trace.KindAdvance:
		f(clockRef)
		for _, c := range op.Cases {
			if c.Obj != trace.NoObject {
				f(ref{objs[c.Obj].Key, whole})
			}
		}
	case trace.KindTimerStop:
		if op.Class == trace.ClassClock && op.Obj != trace.NoObject {
			f(clockRef)
			f(ref{objs[op.Obj].Key, whole})
		}
	}
}

// selectRefs calls f with the refs that select op's outcome depends on:
// the channel of every case, and for a select that chooses (a default, or
// two cases), both halves of a buffered channel: whether a receive case is
// ready depends on the values sent, whether a send case is, on those
// received.
func selectRefs(op trace.Op, objs []trace.ObjectInfo, f func(ref)) {
	n := 0
	for _, c := range op.Cases {
		if c.Obj != trace.NoObject {
			n++
		}
	}
	choosy := n > 1 || op.Arg == 1
	for _, c := range op.Cases {
		if c.Obj == trace.NoObject {
			continue
		}
		f(chanRef(c.Kind, c.Obj, objs))
		if choosy && objs[c.Obj].Cap > 0 {
			f(ref{objs[c.Obj].Key, input})
			f(ref{objs[c.Obj].Key, output})
		}
	}
}

// clockHalf marks the ref of virtual time when it moves at any step
// (trace.TimeObject): one shared variable, the clock.
const clockHalf uint8 = 4

// clockRef is the ref of the clock (clockHalf).
var clockRef = ref{half: clockHalf}

// ErrUnmodelled is wrapped by the error of a program that uses a primitive
// outside reach's model.
var ErrUnmodelled = errors.New("primitive not modelled by reach")

// modelled marks the classes of the operations reach models: a class
// added to weft is refused until reach models it.
var modelled = [trace.NumClasses]bool{
	trace.ClassVar: true, trace.ClassMutex: true, trace.ClassRWMutex: true, trace.ClassWaitGroup: true,
	trace.ClassOnce: true, trace.ClassChan: true, trace.ClassSemaphore: true, trace.ClassBinarySemaphore: true,
	trace.ClassMonitor: true, trace.ClassTimer: true, trace.ClassThread: true, trace.ClassCond: true,
	trace.ClassClock: true,
}

// unmodelled says what reach does not model, for the classes it refuses
// with a reason: none since it models time at any step (doc.go), which it
// refused before; a class weft adds is refused by its name.
var unmodelled = map[trace.Class]string{}

// refusal returns the error for op, a pending operation of a program
// whose objects are objs, if reach does not model it, naming the
// primitive and strategies that do; nil if it does.
func refusal(op trace.Op, objs []trace.ObjectInfo) error {
	if op.Kind == trace.KindNone || (int(op.Class) < len(modelled) && modelled[op.Class]) {
		return nil
	}
	what := unmodelled[op.Class]
	if what == "" {
		what = "objects of class " + op.Class.String()
	}
	return fmt.Errorf("reach does not model %s (pending operation %v); use optimal or dpor+sleep (%w)", what, op, ErrUnmodelled)
}

// groups joins the objects of reach's model that some select has cases
// on into one object, so that every step completes on exactly one object
// (a select's outcome, whichever case it takes or its default, is one
// receiving event: Lei and Carver 2006's selective wait is an event of its receiver,
// whose open list holds every open alternative). It is a union-find over
// refs; a group keeps the number of its oldest ref, so that the groups of
// refs added later keep the numbers variants hold.
type groups struct {
	node   map[ref]int32
	parent []int32
}

// of returns the group of r, adding r as a group of its own if it is new.
func (g *groups) of(r ref) int32 {
	n, ok := g.node[r]
	if !ok {
		if g.node == nil {
			g.node = make(map[ref]int32)
		}
		n = int32(len(g.parent))
		g.node[r] = n
		g.parent = append(g.parent, n)
	}
	return g.find(n)
}

// only returns the ref of group x if it is its only one.
func (g *groups) only(x int32) (ref, bool) {
	var r ref
	n := 0
	for q, node := range g.node {
		if g.find(node) == x {
			r = q
			n++
		}
	}
	return r, n == 1
}

// known reports whether r has been seen.
func (g *groups) known(r ref) bool {
	_, ok := g.node[r]
	return ok
}

func (g *groups) find(n int32) int32 {
	for g.parent[n] != n {
		g.parent[n] = g.parent[g.parent[n]]
		n = g.parent[n]
	}
	return n
}

// join puts the refs op depends on (joinRefs: a select's cases, the halves
// of a buffer whose length it reads, an await's variables) into one group. It reports
// whether it joined two groups that both held refs seen before the call
// (merged), which changes the objects of reach's model.
func (g *groups) join(op trace.Op, objs []trace.ObjectInfo) (merged bool) {
	root, rootOld := int32(-1), false
	joinRefs(op, objs, func(r ref) {
		old := g.known(r)
		x := g.of(r)
		switch {
		case root < 0:
			root, rootOld = x, old
		case x != root:
			if old && rootOld {
				merged = true
			}
			rootOld = rootOld || old
			// The older group (smaller number) keeps its number.
			if x < root {
				root, x = x, root
			}
			g.parent[x] = root
		case old:
			rootOld = true
		}
	})
	return merged
}
