// This file states how operations synchronise, one table for every
// primitive: the addresses an operation releases its thread's clock to and
// acquires clocks from, which both of weft's race detections follow (the
// happens-before of internal/races and what Go's race detector is told in
// a race build, internal/engine/racesync.go).

package trace

// SyncAddr is a set of the addresses through which operations synchronise.
// Every object has two: its main address (SyncObj) and a second one
// (SyncAux).
type SyncAddr uint8

// The addresses.
const (
	// SyncObj is the object's main address.
	SyncObj SyncAddr = 1 << iota
	// SyncAux is the object's second address: the releases of an
	// RWMutex's readers (RUnlock), which only a writer's Lock acquires;
	// the room a channel's receive makes, which a send acquires.
	SyncAux
	// SyncArg is the main address of the object Op.Arg names: the mutex a
	// Cond's Wait unlocks and its Relock locks again (none if Op.Arg < 0,
	// another Locker).
	SyncArg
	// SyncThread is the end of the thread Op.Arg names: a Join acquires
	// every event of the joined thread.
	SyncThread
	// SyncCases is the addresses of a select's cases: a select synchronises
	// as its cases do, each a send or a receive on its channel (a
	// detector that knows which case the event took: that one only; the
	// default case: none).
	SyncCases
)

// Finer names an order finer than the addresses of an operation's Sync,
// which a detector that sees the whole execution (internal/races) keeps in
// their place; one that sees an operation at a time (a race build) keeps
// the addresses, which order more, never less.
type Finer uint8

// The finer orders.
const (
	// Coarse: the addresses are the order.
	Coarse Finer = iota
	// ReadsFrom: a variable access. An atomic read is ordered after the
	// atomic write it read (Event.Src), and a plain access synchronises
	// with nothing (Go's memory model); see internal/races for the adds
	// whose result is unused.
	ReadsFrom
	// FIFO: a channel operation. The k-th receive of a buffered channel
	// is ordered after the k-th send, the (k+C)-th send after the k-th
	// receive (C the capacity), a rendezvous orders both threads after
	// both pasts, and a receive that found the channel closed comes after
	// the close (SyncObj).
	FIFO
)

// Sync is how an operation synchronises: the addresses it releases its
// thread's clock to as it begins, those it acquires clocks from once it
// runs, and a finer order a detector may keep.
type Sync struct {
	Release, Acquire SyncAddr
	// IfOK says that the acquires happen only when the event succeeded
	// (Event.OK): a TryLock that took the lock, a Lock that did not only
	// announce an RWMutex's writer. A detector that knows only the
	// pending operation acquires regardless.
	IfOK  bool
	Finer Finer
}

// syncEntry is the Sync of the operations of kind Kind on objects of class
// Class; of those with Op.Arg equal to Arg only, if ByArg.
type syncEntry struct {
	Class Class
	Kind  Kind
	ByArg bool
	Arg   int64
	Sync  Sync
}

// Shorthands for the table.
const (
	obj, aux, arg = SyncObj, SyncAux, SyncArg
)

// syncTable is the one statement of how operations synchronise. An
// operation kind with nothing to synchronise has an entry with the zero
// Sync, so that a kind without an entry is a kind nobody thought of
// (TestSyncTableComplete). Entries with ByArg come before the entry of
// their class and kind without.
var syncTable = []syncEntry{
	// Variables: every write releases, every access acquires.
	{Class: ClassVar, Kind: KindLoad, Sync: Sync{Acquire: obj, Finer: ReadsFrom}},
	{Class: ClassVar, Kind: KindStore, Sync: Sync{Release: obj, Acquire: obj, Finer: ReadsFrom}},
	{Class: ClassVar, Kind: KindAdd, Sync: Sync{Release: obj, Acquire: obj, Finer: ReadsFrom}},
	{Class: ClassVar, Kind: KindSwap, Sync: Sync{Release: obj, Acquire: obj, Finer: ReadsFrom}},
	{Class: ClassVar, Kind: KindCAS, Sync: Sync{Release: obj, Acquire: obj, Finer: ReadsFrom}},

	// Mutex: Lock after every earlier Unlock.
	{Class: ClassMutex, Kind: KindLock, Sync: Sync{Acquire: obj, IfOK: true}},
	{Class: ClassMutex, Kind: KindTryLock, Sync: Sync{Acquire: obj, IfOK: true}},
	{Class: ClassMutex, Kind: KindUnlock, Sync: Sync{Release: obj}},

	// RWMutex: a writer after every Unlock and RUnlock, a reader after
	// every Unlock.
	{Class: ClassRWMutex, Kind: KindLock, Sync: Sync{Acquire: obj | aux, IfOK: true}},
	{Class: ClassRWMutex, Kind: KindTryLock, ByArg: true, Arg: TryRLockArg, Sync: Sync{Acquire: obj, IfOK: true}},
	{Class: ClassRWMutex, Kind: KindTryLock, Sync: Sync{Acquire: obj | aux, IfOK: true}},
	{Class: ClassRWMutex, Kind: KindRLock, Sync: Sync{Acquire: obj}},
	{Class: ClassRWMutex, Kind: KindUnlock, Sync: Sync{Release: obj}},
	{Class: ClassRWMutex, Kind: KindRUnlock, Sync: Sync{Release: aux}},

	// Cond: Wait unlocks the mutex; Relock after the Signals and
	// Broadcasts before it, and locks the mutex again.
	{Class: ClassCond, Kind: KindWait, Sync: Sync{Release: arg}},
	{Class: ClassCond, Kind: KindRelock, Sync: Sync{Acquire: obj | arg}},
	{Class: ClassCond, Kind: KindSignal, Sync: Sync{Release: obj}},
	{Class: ClassCond, Kind: KindBroadcast, Sync: Sync{Release: obj}},

	// WaitGroup: Wait after every earlier Add and Done.
	{Class: ClassWaitGroup, Kind: KindWGAdd, Sync: Sync{Release: obj}},
	{Class: ClassWaitGroup, Kind: KindWGWait, Sync: Sync{Acquire: obj}},

	// Once: every Do after the end of the function Do ran.
	{Class: ClassOnce, Kind: KindOnceDo, Sync: Sync{Acquire: obj}},
	{Class: ClassOnce, Kind: KindOnceDone, Sync: Sync{Release: obj}},

	// Channels, and the channels of timers: a receive after the sends
	// and the close, a send after the receives that made room.
	{Class: ClassChan, Kind: KindSend, Sync: Sync{Release: obj, Acquire: aux, Finer: FIFO}},
	{Class: ClassChan, Kind: KindRecv, Sync: Sync{Release: aux, Acquire: obj, Finer: FIFO}},
	{Class: ClassChan, Kind: KindClose, Sync: Sync{Release: obj, Finer: FIFO}},
	{Class: ClassChan, Kind: KindLen},
	{Class: ClassChan, Kind: KindSelect, Sync: Sync{Release: SyncCases, Acquire: SyncCases}},
	{Class: ClassTimer, Kind: KindSend, Sync: Sync{Release: obj, Acquire: aux, Finer: FIFO}},
	{Class: ClassTimer, Kind: KindRecv, Sync: Sync{Release: aux, Acquire: obj, Finer: FIFO}},
	{Class: ClassTimer, Kind: KindClose, Sync: Sync{Release: obj, Finer: FIFO}},
	{Class: ClassTimer, Kind: KindTimerStop},
	{Class: ClassTimer, Kind: KindSleep},

	// Semaphores: P after every earlier V.
	{Class: ClassSemaphore, Kind: KindP, Sync: Sync{Acquire: obj}},
	{Class: ClassSemaphore, Kind: KindV, Sync: Sync{Release: obj}},
	{Class: ClassBinarySemaphore, Kind: KindP, Sync: Sync{Acquire: obj}},
	{Class: ClassBinarySemaphore, Kind: KindV, Sync: Sync{Release: obj}},

	// Monitors: every operation after every earlier one.
	{Class: ClassMonitor, Kind: KindMEnter, Sync: Sync{Release: obj, Acquire: obj}},
	{Class: ClassMonitor, Kind: KindMExit, Sync: Sync{Release: obj, Acquire: obj}},
	{Class: ClassMonitor, Kind: KindMWait, Sync: Sync{Release: obj, Acquire: obj}},
	{Class: ClassMonitor, Kind: KindMSignal, Sync: Sync{Release: obj, Acquire: obj}},
	{Class: ClassMonitor, Kind: KindMSignalAll, Sync: Sync{Release: obj, Acquire: obj}},
	{Class: ClassMonitor, Kind: KindMReenter, Sync: Sync{Release: obj, Acquire: obj}},

	// Threads: a Join after every event of the joined thread; an await
	// synchronises with nothing (its reads are not checked).
	{Class: ClassThread, Kind: KindJoin, Sync: Sync{Acquire: SyncThread}},
	{Class: ClassThread, Kind: KindAwait},

	// Virtual time, inputs and symbolic branches synchronise with nothing.
	{Class: ClassClock, Kind: KindNow},
	{Class: ClassClock, Kind: KindAdvance},
	{Class: ClassClock, Kind: KindSleep},
	{Class: ClassClock, Kind: KindTimerStop},
	{Class: ClassNone, Kind: KindInput},
	{Class: ClassNone, Kind: KindBranch},
}

// syncIndex maps a class and a kind to the index in syncTable of their
// first entry, plus one (0: none).
var syncIndex = func() (x [len(classNames)][numKinds]int) {
	for i := len(syncTable) - 1; i >= 0; i-- {
		e := &syncTable[i]
		x[e.Class][e.Kind] = i + 1
	}
	return x
}()

// SyncOf returns how an operation of kind k on an object of class c, with
// argument a (Op.Arg), synchronises, and false if the table has no entry
// for it.
func SyncOf(c Class, k Kind, a int64) (Sync, bool) {
	if int(c) >= len(syncIndex) || int(k) >= int(numKinds) {
		return Sync{}, false
	}
	i := syncIndex[c][k]
	if i == 0 {
		return Sync{}, false
	}
	for _, e := range syncTable[i-1:] {
		if e.Class != c || e.Kind != k {
			break
		}
		if !e.ByArg || e.Arg == a {
			return e.Sync, true
		}
	}
	return Sync{}, false
}

// argObjects marks, by class and kind, the operations that access a second
// object, the one their Op.Arg names (SyncArg).
var argObjects = func() (x [len(classNames)][numKinds]bool) {
	for _, e := range syncTable {
		if (e.Sync.Release|e.Sync.Acquire)&SyncArg != 0 {
			x[e.Class][e.Kind] = true
		}
	}
	return x
}()

// ArgObject returns the second object op accesses besides Op.Obj, the one
// its Op.Arg names (SyncArg: the mutex a Cond's Wait releases and its
// Relock takes again), or NoObject if it accesses none.
func ArgObject(op *Op) ObjectID {
	if op.Arg >= 0 && int(op.Class) < len(argObjects) && op.Kind < numKinds && argObjects[op.Class][op.Kind] {
		return ObjectID(op.Arg)
	}
	return NoObject
}
