// This file maps weft's operations to the unfolding's events: which places
// an operation's event takes a condition from, which conditions it accepts,
// and the refusal of the primitives the strategy does not model.

package unfold

import (
	"errors"
	"fmt"

	"github.com/weft-go/weft/trace"
)

// opKey is an operation as the unfolding keeps it: with stable numbers for
// its object (or, for a join, the joined thread), so that it is the same in
// every execution that reaches its thread condition.
type opKey struct {
	kind  trace.Kind
	class trace.Class
	obj   int32 // stable object, or stable joined thread; -1 if none
	arg   int64 // the argument: a CompareAndSwap's expected value, a WaitGroup's delta
}

// none reports whether k is no operation (the thread finished or failed).
func (k opKey) none() bool { return k.kind == trace.KindNone }

func (k opKey) String() string {
	if k.none() {
		return "none"
	}
	switch k.kind {
	case trace.KindJoin:
		return fmt.Sprintf("join t%d", k.obj)
	case kindBranch:
		return fmt.Sprintf("branch at %#x", k.arg)
	case kindAdvance:
		return fmt.Sprintf("advance to %d", k.arg)
	}
	return fmt.Sprintf("%v o%d", k.kind, k.obj)
}

// access is how an operation's event uses the places of its object.
type access uint8

const (
	noAccess     access = iota
	readAccess          // Load, WaitGroup Wait, unbuffered Send, Recv, Len, RLock, a holder's RUnlock, TryRLock: the thread's copy of the object
	writeAccess         // Store, Add, Swap, CompareAndSwap, WaitGroup Add, unbuffered Close, an RWMutex's writer's operations and the other RUnlocks: every copy
	mutexAccess         // Lock, Unlock, TryLock: the mutex's place
	joinAccess          // Join: the joined thread's place
	stateAccess         // every operation of a Once, a buffered channel: the place of its state
	selectAccess        // a select: the places of its cases' channels (select.go)
	condAccess          // a Cond's Wait or Relock with a Mutex: the Cond's place and the mutex's (sync.go)
	awaitAccess         // an await: the thread's copies of the variables it waits on (await.go)
	nilAccess           // an operation on a nil channel: no place
	timerAccess         // a timer's Stop or Reset: the condition of the timer's thread (timer.go)
)

// accessOf returns how op's event uses its object's places.
func accessOf(k opKey) access {
	switch {
	case k.class == trace.ClassClock:
		// Time that moves at any step (clock.go): the clock is a
		// variable, read by a read of it and a Sleep's wake-up, written
		// by a step that arms a deadline.
		switch {
		case k.kind == trace.KindAdvance:
			return advanceAccess
		case k.kind == trace.KindTimerStop:
			return clockTimerAccess
		case k.kind == trace.KindNow && k.arg == trace.NowArms:
			return writeAccess
		}
		return readAccess
	case k.kind == trace.KindSelect:
		return selectAccess
	case k.kind == trace.KindAwait:
		return awaitAccess
	case condWithMutex(k):
		return condAccess
	case queued(k):
		return stateAccess
	case k.class == trace.ClassChan && k.obj < 0:
		return nilAccess
	case k.kind == trace.KindTimerStop:
		return timerAccess
	}
	if k.class == trace.ClassChan && k.arg == 0 {
		// An unbuffered channel: a copy per thread of whether it is
		// closed, which Close writes (meet.go).
		if k.kind == trace.KindClose {
			return writeAccess
		}
		return readAccess
	}
	if k.class == trace.ClassRWMutex {
		// A copy per thread (state.go): the readers' operations take
		// their thread's, the writers' and the RUnlocks that may fail
		// every copy.
		if k.kind == trace.KindRLock || (k.kind == trace.KindRUnlock && k.arg == rwHolder) || (k.kind == trace.KindTryLock && k.arg == trace.TryRLockArg) {
			return readAccess
		}
		return writeAccess
	}
	if stateful(k) {
		return stateAccess
	}
	switch k.kind {
	case trace.KindLoad, trace.KindWGWait:
		return readAccess
	case trace.KindStore, trace.KindAdd, trace.KindSwap, trace.KindCAS, trace.KindWGAdd:
		return writeAccess
	case trace.KindLock, trace.KindUnlock, trace.KindTryLock:
		return mutexAccess
	case trace.KindJoin:
		return joinAccess
	}
	return noAccess
}

// accepts reports whether an event of op can take condition c from the
// place it needs: a Lock only a free mutex, a Wait only a counter at zero,
// a Join only the condition of a finished thread, a Cond's Relock only a
// free mutex and a state where its thread was woken, the operations of
// semaphores and monitors the states qAccepts says. Every other operation
// is never blocked: Unlock takes a free mutex too (and fails), TryLock
// either (and succeeds or fails), a Cond's Wait too (and fails).
func (n *net) accepts(k opKey, c *condition) bool {
	switch {
	case k.class == trace.ClassClock && n.places[c.place].kind == copyPlace:
		return n.clockAccepts(k, c.value)
	case accessOf(k) == condAccess && n.places[c.place].kind == mutexPlace:
		return condReleases(k) || c.state == free
	case queued(k):
		return n.qAccepts(k, c.value)
	case accessOf(k) == awaitAccess:
		return true // awaitReady decides on the copies together
	}
	if stateful(k) {
		return stateAccepts(k, c.value)
	}
	switch k.kind {
	case trace.KindLock:
		return c.state == free
	case trace.KindWGWait:
		return c.value == 0
	case trace.KindJoin:
		return c.state == done
	}
	return true
}

// mutexAfter returns the state of a mutex after an event of op took its
// condition: free after an Unlock (which fails if it was free), held after
// anything else.
func mutexAfter(k opKey) uint8 {
	if k.kind == trace.KindUnlock || condReleases(k) {
		return free // an Unlock, a Cond's Wait
	}
	return held // Lock, TryLock that succeeds, TryLock that fails, a Cond's Relock
}

// ErrUnmodelled is wrapped by the error of a program that uses a primitive
// the strategy does not model.
var ErrUnmodelled = errors.New("primitive not modelled by unfold")

// refusal returns the error for op, a pending operation of the current
// execution, if the strategy does not model it, naming the primitive and
// strategies that do; nil if it does. objs are the execution's objects.
func (s *Strategy) refusal(op trace.Op, objs []trace.ObjectInfo) error {
	if err := refusal(op); err != nil {
		return err
	}
	switch {
	case op.Kind == trace.KindSelect:
		for _, c := range op.Cases {
			switch {
			case c.Obj < 0 || int(c.Obj) >= len(objs):
				// A nil channel's case is never ready.
			case objs[c.Obj].Class == trace.ClassTimer:
				// A timer's channel: its one partner is the timer's
				// thread, whose condition a default takes (timer.go).
			case objs[c.Obj].Class != trace.ClassChan:
				return unmodelled("selects on "+objs[c.Obj].Class.String()+" channels", op, "")
			}
			// A default beside a case on an unbuffered channel takes
			// the conditions of the other threads (offer.go).
		}
	case op.Kind == trace.KindAwait:
		for _, c := range op.Cases {
			if c.Obj < 0 || int(c.Obj) >= len(objs) || objs[c.Obj].Class != trace.ClassVar {
				return unmodelled("awaits on objects other than variables", op, "an await reads copies of variables")
			}
		}
	}
	return nil
}

// unmodelled returns the error of op, a pending operation of a primitive
// (what) the strategy does not model, for the reason why (if not empty).
func unmodelled(what string, op trace.Op, why string) error {
	if why != "" {
		why += "; "
	}
	return fmt.Errorf("unfold does not model %s yet (%spending operation %v); use optimal or dpor+sleep (%w)", what, why, op, ErrUnmodelled)
}

// refusal is Strategy.refusal for what op alone says.
func refusal(op trace.Op) error {
	var what, why string
	switch op.Kind {
	case trace.KindNone, trace.KindJoin:
		return nil
	case trace.KindLoad, trace.KindStore, trace.KindAdd, trace.KindSwap, trace.KindCAS:
		if op.Class == trace.ClassVar {
			return nil
		}
		what = op.Class.String() + " " + op.Kind.String()
	case trace.KindLock, trace.KindUnlock, trace.KindTryLock:
		if op.Class == trace.ClassMutex || op.Class == trace.ClassRWMutex {
			return nil
		}
		what = op.Class.String() + " " + op.Kind.String()
	case trace.KindWGAdd, trace.KindWGWait, trace.KindRLock, trace.KindRUnlock, trace.KindOnceDo, trace.KindOnceDone:
		return nil
	case trace.KindWait, trace.KindRelock, trace.KindSignal, trace.KindBroadcast:
		if op.Class == trace.ClassCond {
			return nil
		}
		what = op.Class.String() + " " + op.Kind.String()
	case trace.KindSend, trace.KindRecv, trace.KindClose, trace.KindLen:
		if op.Class == trace.ClassChan {
			return nil // timers' too (timer.go)
		}
		what = op.Class.String() + " channels"
	case trace.KindSelect:
		return nil // but some (Strategy.refusal)
	case trace.KindP, trace.KindV, trace.KindMEnter, trace.KindMExit, trace.KindMWait, trace.KindMSignal, trace.KindMSignalAll, trace.KindMReenter, trace.KindAwait:
		return nil
	case trace.KindSleep, trace.KindTimerStop:
		if op.Class == trace.ClassTimer || op.Class == trace.ClassClock {
			return nil // time that moves when every thread is blocked (sleep.go, timer.go) or at any step (clock.go)
		}
		what = op.Class.String() + " " + op.Kind.String()
	case trace.KindNow, trace.KindAdvance:
		return nil // time that moves at any step (clock.go)
	default:
		what = "operation " + op.Kind.String()
	}
	return unmodelled(what, op, why)
}
