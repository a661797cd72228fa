// This file defines the identities of threads and objects.

package trace

import "strconv"

// ThreadID identifies a thread within an execution. The test body is thread 0;
// the others are numbered in the order they are started.
type ThreadID int32

// NoThread is the ThreadID of no thread.
const NoThread ThreadID = -1

func (t ThreadID) String() string {
	if t == NoThread {
		return "-"
	}
	return "T" + strconv.Itoa(int(t))
}

// ObjectID identifies a shared object within an execution, in the order of
// first use.
type ObjectID int32

// NoObject is the ObjectID of operations that touch no shared object.
const NoObject ObjectID = -1

func (o ObjectID) String() string {
	if o == NoObject {
		return "-"
	}
	return "o" + strconv.Itoa(int(o))
}

// Class is the kind of a shared object.
type Class uint8

// The object classes.
const (
	ClassNone Class = iota
	ClassVar
	ClassMutex
	ClassRWMutex
	ClassCond
	ClassWaitGroup
	ClassOnce
	ClassChan
	ClassSemaphore
	ClassBinarySemaphore
	ClassMonitor
	ClassTimer
	ClassThread
	// ClassClock is the class of the operations on virtual time when time
	// may move at any step (TimeAnyStep): a read of the clock (KindNow),
	// its advance (KindAdvance), a Sleep's wake-up and a timer's Stop or
	// Reset. They access TimeObject (AppendOpAccesses).
	ClassClock
)

// NumClasses is the number of object classes: every Class is less.
const NumClasses = len(classNames)

var classNames = [...]string{"none", "var", "mutex", "rwmutex", "cond", "waitgroup", "once", "chan", "semaphore", "binsemaphore", "monitor", "timer", "thread", "clock"}

func (c Class) String() string {
	if int(c) < len(classNames) {
		return classNames[c]
	}
	return "class(" + strconv.Itoa(int(c)) + ")"
}
