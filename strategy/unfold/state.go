// This file models the states of the objects beyond the paper's (the
// package doc's table): a Once and a buffered channel are one place, a
// condition of which carries the object's whole state; a reader/writer
// mutex is a copy per thread, of its thread's read locks and the writers'
// state.

package unfold

import (
	"github.com/weft-go/weft/model"
	"github.com/weft-go/weft/trace"
)

// The state of a reader/writer mutex at a condition of a thread's copy
// (condition.value): the thread's read locks, and, the same in every
// copy, the writers announced and waiting for the readers to leave,
// whether a writer holds it, and the deficit: the RUnlocks by threads
// that held no read lock that succeeded, each taking a read lock another
// thread holds. The RWMutex's reader count is the sum of the copies'
// read locks less the deficit.
const (
	rwReaders    = 1       // one reader
	rwWriters    = 1 << 32 // one writer waiting
	rwLocked     = 1 << 48 // a writer holds it
	rwDeficit    = 1 << 49 // one read lock taken by a thread that held none
	rwReaderMax  = rwWriters - 1
	rwWriterMask = rwDeficit - rwWriters // the writers' state
)

// The arguments of an RUnlock's opKey (not the runtime's Op.Arg, whose
// balance can change while the RUnlock is pending). An RUnlock by a
// thread that holds a read lock of its own (rwHolder) takes its thread's
// copy and cannot fail while the deficit is zero; with a deficit, its
// event takes every copy (rwHolderAll), since it fails if the reader
// count is zero. An RUnlock by a thread that holds none (rwStranger)
// takes every copy: it fails if the count is zero, else adds one to the
// deficit. The event of an rwHolder thread condition is the one its
// copy's deficit decides (rwForm).
const (
	rwStranger  = 0
	rwHolder    = 1
	rwHolderAll = 2
)

// rwDeficitOf returns the deficit of the RWMutex copy value v.
func rwDeficitOf(v int64) int64 { return v / rwDeficit }

// The states of a Once (condition.value): its function has not run, runs,
// has run.
const (
	onceNew int64 = iota
	onceRunning
	onceDone
)

// The state of a buffered channel (condition.value): the values in its
// buffer, and whether it is closed. The capacity is the operation's
// argument (opKey.arg).
const (
	chanItem   = 1
	chanClosed = 1 << 32
	chanItems  = chanClosed - 1
)

// stateful reports whether the operations of k's object take the place of
// its state: an RWMutex's, a Once's, a buffered channel's.
func stateful(k opKey) bool {
	return k.class == trace.ClassRWMutex || k.class == trace.ClassOnce || k.class == trace.ClassChan
}

// stateAccepts reports whether an operation k on a stateful object can run
// in state v: RLock and a writer's first Lock step while no writer holds
// or waits, an announced writer's Lock once the readers left, Do while the
// function does not run (model.Object.Ready's rules). The rest never
// blocks; a holder's RUnlock takes its own copy alone while the deficit
// is zero, every copy (rwHolderAll) once it is not.
func stateAccepts(k opKey, v int64) bool {
	switch k.kind {
	case trace.KindRLock:
		if k.class == trace.ClassRWMutex {
			return v&rwWriterMask == 0
		}
	case trace.KindRUnlock:
		switch k.arg {
		case rwHolder:
			return rwDeficitOf(v) == 0
		case rwHolderAll:
			return rwDeficitOf(v) != 0
		}
	case trace.KindLock:
		if k.arg == model.RWAnnounced {
			// The readers are gone from the copy, or the deficit may
			// have taken them (acceptsEach decides on the sum).
			return v&rwReaderMax <= rwDeficitOf(v)
		}
		return v&rwWriterMask == 0
	case trace.KindOnceDo:
		return v != onceRunning
	case trace.KindSend: // room, or closed (it panics)
		return v&chanClosed != 0 || v&chanItems < k.arg
	case trace.KindRecv: // a value, or closed (the zero value)
		return v != 0
	}
	return true
}

// stateAfter returns the state of a stateful object after an operation k
// ran in state v (model.Object.applyRWMutex and applyOnce): the state
// decides the outcome (whether a writer's first Lock step takes the lock
// or announces the writer, whether a TryLock or TryRLock succeeds, whether
// Do runs the function).
func stateAfter(k opKey, v int64) int64 {
	switch k.kind {
	case trace.KindRLock:
		return v + rwReaders
	case trace.KindRUnlock:
		if v&rwReaderMax > 0 {
			return v - rwReaders
		}
	case trace.KindLock:
		switch {
		case k.arg == model.RWAnnounced:
			return (v - rwWriters) | rwLocked
		case v == 0:
			return rwLocked
		}
		return v + rwWriters
	case trace.KindUnlock:
		return v &^ rwLocked
	case trace.KindTryLock:
		switch {
		case k.arg == trace.TryRLockArg && v&rwWriterMask == 0:
			return v + rwReaders
		case k.arg != trace.TryRLockArg && v == 0:
			return rwLocked
		}
	case trace.KindOnceDo:
		if v == onceNew {
			return onceRunning
		}
	case trace.KindOnceDone:
		return onceDone
	case trace.KindSend:
		if v&chanClosed == 0 {
			return v + chanItem
		}
	case trace.KindRecv:
		if v&chanItems > 0 {
			return v - chanItem
		}
	case trace.KindClose:
		return v | chanClosed
	}
	return v
}

// rwSum returns the reader count of the RWMutex copies cs (their read
// locks less the deficit), with the writers' state (the same in every
// copy): the state an operation that takes them all sees.
func (n *net) rwSum(cs []int32) int64 {
	var sum int64
	for _, c := range cs {
		sum += n.conds[c].value & rwReaderMax
	}
	if len(cs) > 0 {
		v := n.conds[cs[0]].value
		sum = max(sum-rwDeficitOf(v), 0) + v&rwWriterMask
	}
	return sum
}

// rwCopyAfter returns the value of a copy of an RWMutex after an operation
// k took it in value v: a reader's (write false) on its thread's copy, its
// own readers; a writer's (write true) on every copy, deciding on sum
// (rwSum) whether a Lock takes the lock or announces the writer, whether a
// TryLock succeeds, each copy keeping its readers.
//
// An RUnlock that takes every copy fails if the reader count is zero (the
// copies stay as they were); else a stranger's adds one to the deficit of
// every copy, and a holder's takes one read lock from its own copy (own).
func rwCopyAfter(k opKey, v, sum int64, write, own bool) int64 {
	if !write {
		return stateAfter(k, v)
	}
	switch {
	case k.kind == trace.KindRUnlock && sum&rwReaderMax == 0:
		return v
	case k.kind == trace.KindRUnlock && k.arg == rwStranger:
		return v + rwDeficit
	case k.kind == trace.KindRUnlock:
		if own {
			return v - rwReaders
		}
		return v
	case k.kind == trace.KindLock && k.arg == model.RWAnnounced:
		return (v - rwWriters) | rwLocked
	case k.kind == trace.KindLock && sum == 0, k.kind == trace.KindTryLock && sum == 0:
		return v | rwLocked
	case k.kind == trace.KindLock:
		return v + rwWriters
	case k.kind == trace.KindUnlock:
		return v &^ rwLocked
	}
	return v // a TryLock that fails
}
