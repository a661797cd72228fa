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
// copy, the writers announced and waiting for the readers to leave, and
// whether a writer holds it.
const (
	rwReaders   = 1       // one reader
	rwWriters   = 1 << 32 // one writer waiting
	rwLocked    = 1 << 48 // a writer holds it
	rwReaderMax = rwWriters - 1
)

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
// blocks.
func stateAccepts(k opKey, v int64) bool {
	switch k.kind {
	case trace.KindRLock:
		return v&^rwReaderMax == 0
	case trace.KindLock:
		if k.arg == model.RWAnnounced {
			return v&rwReaderMax == 0
		}
		return v&^rwReaderMax == 0
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
		case k.arg == trace.TryRLockArg && v&^rwReaderMax == 0:
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

// rwSum returns the readers of the RWMutex copies cs, with the writers'
// state (the same in every copy): the state a writer's operation that
// takes them all sees.
func (n *net) rwSum(cs []int32) int64 {
	var sum int64
	for _, c := range cs {
		sum += n.conds[c].value & rwReaderMax
	}
	if len(cs) > 0 {
		sum += n.conds[cs[0]].value &^ rwReaderMax
	}
	return sum
}

// rwCopyAfter returns the value of a copy of an RWMutex after an operation
// k took it in value v: a reader's (write false) on its thread's copy, its
// own readers; a writer's (write true) on every copy, deciding on sum
// (rwSum) whether a Lock takes the lock or announces the writer, whether a
// TryLock succeeds, each copy keeping its readers.
func rwCopyAfter(k opKey, v, sum int64, write bool) int64 {
	if !write {
		return stateAfter(k, v)
	}
	switch {
	case k.kind == trace.KindLock && k.arg == model.RWAnnounced:
		return (v - rwWriters) | rwLocked
	case k.kind == trace.KindLock && sum == 0, k.kind == trace.KindTryLock && sum == 0:
		return rwLocked
	case k.kind == trace.KindLock:
		return v + rwWriters
	case k.kind == trace.KindUnlock:
		return v &^ rwLocked
	}
	return v // a TryLock that fails
}
