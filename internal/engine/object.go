// This file implements the header every shared object carries.

package engine

import "github.com/weft-go/weft/trace"

// Obj is the runtime state of a shared object. Its zero value is an object not
// yet used; the first operation of an execution registers it. The fields used
// depend on the class.
type Obj struct {
	serial uint64 // the execution that registered it
	key    uint64 // its name across executions (trace.ObjectInfo.Key)
	id     trace.ObjectID
	class  trace.Class

	owner   trace.ThreadID // holder of a Mutex or writer of an RWMutex, monitor owner, a timer channel's timer thread
	locked  bool           // Mutex, RWMutex writer, monitor occupied, Once running, timer armed
	done    bool           // Once done
	closed  bool           // Chan closed
	n       int64          // RWMutex readers, WaitGroup counter, semaphore count, Chan length
	cap     int64          // Chan capacity, monitor discipline (1: SU)
	when    int64          // a timer channel's deadline
	writers int32          // RWMutex writers that announced themselves
	// out lists the pending sends of a Chan, in thread order: the senders a
	// receive can meet.
	out []sendEntry
	// queue is a FIFO of waiting threads: a Cond's waiters, a monitor's
	// condition waiters and (SU) its urgent queue.
	queue []waiter
	name  string
}

// sendEntry is a pending send on a channel: a thread and its select case (-1
// for a plain send).
type sendEntry struct {
	tid trace.ThreadID
	cas int32
}

// waiter is a thread waiting on a condition, with the condition's number
// (monitors have several).
type waiter struct {
	tid  trace.ThreadID
	cond int64
}

// ID returns the object's identity in the current execution.
func (o *Obj) ID() trace.ObjectID { return o.id }

// SetName names the object in reports.
func (o *Obj) SetName(name string) { o.name = name }

// touch registers o in e on its first use in the execution and returns it.
func (e *Exec) touch(o *Obj, c trace.Class) *Obj {
	if o.serial == e.serial {
		return o
	}
	name, key := o.name, o.key
	*o = Obj{serial: e.serial, key: key, id: trace.ObjectID(len(e.tr.Objects)), class: c, name: name,
		out: o.out[:0], queue: o.queue[:0], owner: trace.NoThread}
	creator := trace.NoThread
	if t := e.cur; t != nil {
		creator = t.id
		if o.key == 0 {
			// First registration ever: named by the announcing thread, its
			// announcement and the object's place in it.
			o.key = 1 + (uint64(t.key)<<40 | uint64(t.announces)<<12 | uint64(t.touches&0xfff))
		}
		t.touches++
	}
	e.tr.Objects = append(e.tr.Objects, trace.ObjectInfo{Class: c, Creator: creator, Name: name, Key: o.key})
	return o
}
