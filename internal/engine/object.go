// This file implements the header every shared object carries.

package engine

import (
	"sync/atomic"

	"github.com/weft-go/weft/trace"
)

// Obj is the runtime state of a shared object. Its zero value is an object not
// yet used; the first operation of an execution registers it.
type Obj struct {
	objState
	// user stands for the Exec whose execution last registered the
	// object, if it outlives executions (claim). Registration resets
	// objState alone.
	user atomic.Pointer[execTag]
}

// execTag stands for an Exec in the objects its executions registered:
// whether it runs an execution now. Its Exec writes it twice an
// execution; it has a cache line of its own, since the Execs of a
// parallel exploration are made one after the other and their tags, a
// byte each, would otherwise share one (the workers' writes then took
// each other's line).
type execTag struct {
	running atomic.Bool
	_       [63]byte
}

// objState is what an execution knows of an object, reset as the execution
// registers it. The fields used depend on the class.
type objState struct {
	serial uint64 // the execution that registered it
	key    uint64 // its name across executions, in its tables (Names)
	// canon is key's canonical value, the same in every runtime
	// (trace.ObjectInfo.Key); 0 until the object is registered or created.
	canon uint64
	id    trace.ObjectID
	class trace.Class
	// fresh marks an object created during the execution (its key came
	// from the names of the threads touching it); seen (bits of threads
	// 0-63) and seenMore (the threads from 64 on: a list of their ids, or
	// their bits, 64 a word, if seenBits) are the threads that touched it
	// in the execution.
	fresh    bool
	created  bool // named after its creator (Create)
	seenBits bool
	seen     uint64
	seenMore []uint64

	// The fields below mean something else for each primitive: its own
	// file reads them through accessors that name the meaning (mutexHeld,
	// rwWriter, monitorBusy, insideBy, onceRunning, onceDone, timerArmed;
	// rwReaders, wgCounter, semValue, chanLen) and sets the shared ones
	// through hold and arm.
	owner  trace.ThreadID // holder of a Mutex or writer of an RWMutex, monitor owner, a timer channel's timer thread
	locked bool           // Mutex, RWMutex writer, monitor occupied, Once running, timer armed
	done   bool           // Once done; an RWMutex's unbalanced RUnlock succeeded
	closed bool           // Chan closed
	n      int64          // RWMutex readers, WaitGroup counter, semaphore count, Chan length
	cap    int64          // Chan capacity, monitor discipline (1: SU)
	// rel is the source (trace.Event.Src: 1 + the index of an event, 0 for
	// none) of the steps others synchronise with (package model,
	// "Synchronisation pairs"): a variable's last write, the last release
	// of a Mutex, an RWMutex's writer or a monitor, the Add that last
	// brought a WaitGroup to zero, the end of a Once's function, a
	// channel's close.
	rel  int32
	name string
	// out lists the pending sends of a Chan, in thread order: the senders a
	// receive can meet.
	out []sendEntry
	// objMore holds the fields of the primitives that wait in queues
	// (buffered channels, timers, Conds, RWMutexes, monitors, semaphores),
	// made when such an object is first registered (resetState, hasMore)
	// or a channel first buffers or arms (more): a variable, of which a
	// program may make many, goes without, and so does an unbuffered
	// channel.
	*objMore
}

// objMore is the part of an object's state only some classes use
// (objState.objMore).
type objMore struct {
	when    int64 // a timer channel's deadline
	units   int64 // a semaphore's initial units not yet taken
	writers int32 // RWMutex writers that announced themselves
	// rrel and hand are sources as objState.rel is: an RWMutex's last
	// RUnlock (rrel); the step that handed an SU monitor to its owner
	// (hand).
	rrel, hand int32
	// queue is a FIFO of waiting threads: a Cond's waiters, a monitor's
	// condition waiters and (SU) its urgent queue; an RWMutex's readers
	// with their read locks; the sources (cond) of the values in a buffered
	// channel and of the units V's made for a semaphore, oldest first.
	queue []waiter
}

// hasMore reports whether objects of class c use objMore from their
// registration on (a channel makes it when it needs it: more).
func hasMore(c trace.Class) bool {
	switch c {
	case trace.ClassTimer, trace.ClassCond, trace.ClassRWMutex, trace.ClassMonitor,
		trace.ClassSemaphore, trace.ClassBinarySemaphore:
		return true
	}
	return false
}

// more returns o's objMore, made on first use.
func (o *Obj) more() *objMore {
	if o.objMore == nil {
		o.objMore = new(objMore)
	}
	return o.objMore
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

// SetName names the object in reports, also after its registration in
// the running execution.
func (o *Obj) SetName(name string) {
	o.name = name
	e := runningExec()
	if e == nil || e.cur == nil {
		o.keyOutside()
		return
	}
	if o.serial == e.serial && int(o.id) < len(e.tr.Objects) {
		// Registered already in this execution (a timer's channel).
		e.tr.Objects[o.id].Name = name
	}
}

// Create names o, made by a constructor (NewVar, MakeChan, ...) called by
// the running thread, after its creator: the creating thread's stable name
// and the number of objects it created before in the execution. Outside an execution it gives o a key of its own for life
// (keyOutside).
func Create(o *Obj) {
	t := Current()
	if t == nil {
		o.keyOutside()
		return
	}
	t.noteOrigin(o)
	if RaceHide {
		t.e.hidden(func() { t.create(o) })
		return
	}
	t.create(o)
}

// create is Create for the objects made by thread t.
func (t *Thread) create(o *Obj) {
	e := t.e
	k := [2]uint32{t.key, t.creations}
	t.creations++
	n := e.names
	if RaceHide {
		// The dispatcher and the threads use the map in turn, which only
		// the tables' lock shows the race detector (its maps report
		// races whether the code is instrumented or not).
		ck := n.createdKey(k)
		o.key, o.canon, o.created = ck.key, ck.canon, true
		return
	}
	ck, ok := e.keys.objects[k]
	if !ok {
		ck = n.createdKey(k)
		if e.keys.objects == nil {
			e.keys.objects = make(map[[2]uint32]keyCanon)
		}
		e.keys.objects[k] = ck
	}
	o.key, o.canon, o.created = ck.key, ck.canon, true
}

// keyCanon is a key of the naming tables and its canonical value.
type keyCanon struct{ key, canon uint64 }

// createdKey returns the key of the object that thread k[0] creates as its
// creation number k[1], and its canonical value, from the shared tables,
// under their lock: the tables of a parallel exploration's workers grow
// while others read them.
func (n *Names) createdKey(k [2]uint32) keyCanon {
	n.mu.Lock()
	defer n.mu.Unlock()
	key, ok := n.ckeys[k]
	if !ok {
		if n.ckeys == nil {
			n.ckeys = make(map[[2]uint32]uint64)
		}
		key = n.newCanonKey(n.createdCanon(k[0], k[1]))
		n.ckeys[k] = key
	}
	return keyCanon{key, n.canonOf(key)}
}

// outsideKey marks the keys of objects made outside an execution (keyOutside),
// apart from those an Exec gives.
const outsideKey = 1 << 63

// outsideKeys numbers the objects made outside an execution.
var outsideKeys atomic.Uint64

// keyOutside gives o, made or named outside an execution, a key of its own
// for its whole life, if it has none: such an object outlives executions,
// and a key bound to the names of threads could be another object's in a
// later execution (gen seed 9176: two variables of one execution had one
// key, and optimal took the store of one for a conflict with the load of
// the other).
func (o *Obj) keyOutside() {
	if o.key == 0 {
		o.key = outsideKey | outsideKeys.Add(1)
	}
}

// touch registers o in e on its first use in the execution and returns it.
//
// Naming (trace.ObjectInfo.Key). An object made by a constructor in the
// execution is named after its creator (Create); one made or named outside
// an execution has a key of its own (keyOutside). Any other object that
// outlives one execution keeps the key of its first registration, which no
// thread's name binds to afterwards (markLasting). A zero value made
// during the execution (var mu weft.Mutex inside the test body) has no
// creation event, and which thread touches it first depends on the
// interleaving; so each thread names the objects it touches in its own
// terms: its key, the number of its announcement and the object's rank
// among the objects it touches for the first time there (objectName). The
// Exec keeps, across executions, the key each name stands for: the first
// thread to touch the object looks its name up, and every other thread
// touching it binds its own name to the object's key. An object is thus
// named alike whichever of its threads comes first, once an execution has
// seen them together. A thread's announcement may touch another object in
// another execution (its control flow depends on what it read): a name
// whose key another object of the execution holds already is bound anew,
// never merged, so two objects of one execution never share a key.
func (e *Exec) touch(o *Obj, c trace.Class) *Obj {
	if t := e.cur; t != nil {
		t.touch(o, c)
		return o
	}
	return e.touchSlow(o, c)
}

// touch is Exec.touch by t, the running thread. Its common case is
// inlined into every operation: an object registered in the execution
// and touched before by t (one of the first 64 threads, whose seenBit
// is theirs in Obj.seen; the others take touchSlow, whose seenBy reads
// their list).
func (t *Thread) touch(o *Obj, c trace.Class) {
	if o.seen&t.seenBit == 0 || o.serial != t.serial {
		t.e.touchSlow(o, c)
	}
}

// touchSlow is touch past its common case.
//
//go:noinline
func (e *Exec) touchSlow(o *Obj, c trace.Class) (r *Obj) {
	if t := e.cur; RaceHide && t != nil && (o.serial != e.serial || !o.seenBy(t.id)) {
		// A first use, in the execution or by t: the keys' maps
		// (racesync.go).
		e.hidden(func() { r = e.touchNow(o, c) })
		return r
	}
	return e.touchNow(o, c)
}

// touchNow is touch, on the calling goroutine.
func (e *Exec) touchNow(o *Obj, c trace.Class) *Obj {
	if o.serial == e.serial {
		if t := e.cur; t != nil && !o.seenBy(t.id) {
			if t.young() {
				t.touchYoung(o)
			} else {
				e.touchAgain(o, t)
			}
		}
		return o
	}
	if t := e.cur; t != nil && t.young() {
		t.registerYoung(o, c)
		return o
	}
	e.register(o, c)
	return o
}

// register registers o, of class c, in the execution: its first use in
// it. It runs on the thread that uses o, whose goroutine's stack may
// still be the small one it started with: its frame is kept small (the
// shared tables are read in names, the state is reset field by field and
// not built aside and copied), and growing that stack cost more than the
// rest of a short thread's steps.
//
//go:noinline
func (e *Exec) register(o *Obj, c trace.Class) {
	e.resetState(o, c, e.nameShared(o, c))
	creator := trace.NoThread
	if t := e.cur; t != nil {
		creator = t.id
		o.markSeen(t.id)
		if o.key == 0 {
			e.freshKey(o, t)
		}
	}
	if o.canon == 0 {
		// An object that outlives executions keeps the canonical key
		// the tables that named it gave it (they may be another
		// runtime's).
		o.canon = e.names.lockedCanonOf(o.key)
	}
	e.useKey(o.key)
	e.tr.Objects = append(room(e.tr.Objects), trace.ObjectInfo{Class: c, Creator: creator, Name: o.name, Key: o.canon})
	e.objs = append(room(e.objs), o)
}

// resetState resets o's state for its registration in the execution as
// class c, with canonical key canon; its name, key, memory and whether it
// was created stay.
//
//go:noinline
func (e *Exec) resetState(o *Obj, c trace.Class, canon uint64) {
	name, key, created, seenMore, out, more := o.name, o.key, o.created, o.seenMore, o.out, o.objMore
	if o.seenBits {
		clear(seenMore)
	} else {
		seenMore = seenMore[:0]
	}
	switch {
	case more != nil:
		*more = objMore{queue: more.queue[:0]}
	case hasMore(c):
		more = new(objMore)
	}
	o.objState = objState{}
	o.serial, o.key, o.canon, o.created, o.id, o.class, o.name = e.serial, key, canon, created, trace.ObjectID(len(e.tr.Objects)), c, name
	o.out, o.owner, o.seenMore, o.objMore = out[:0], trace.NoThread, seenMore, more
}

// freshKey gives o, created during the execution and first touched by
// thread t, its key, from the names of the threads touching it.
//
//go:noinline
func (e *Exec) freshKey(o *Obj, t *Thread) {
	n := t.objectName()
	o.fresh = true
	// The name's key is read, and bound if new, in the tables shared with
	// the Execs of other workers: under their lock, one critical section,
	// so that no other Exec binds n in between.
	names := e.names
	names.mu.Lock()
	defer names.mu.Unlock()
	o.key = e.keyOf(n)
	if e.keyInUse(o.key) || e.isLasting(o.key) {
		// n named another object of this execution before, or one
		// that outlives executions.
		o.key = e.rebind(n)
	}
	o.canon = names.canonOf(o.key)
}

// nameShared is the part of register that reads and writes the tables
// shared with other Execs, under their lock: it returns o's canonical key
// (trace.ObjectInfo.Key) as known so far.
//
//go:noinline
func (e *Exec) nameShared(o *Obj, c trace.Class) uint64 {
	key, canon := o.key, o.canon
	if o.serial == 0 && key&outsideKey == 0 {
		// Made in this execution: nothing of the shared tables to read
		// or write (and no lock, which the workers of a parallel
		// exploration would take in turn at every registration).
		return canon
	}
	names := e.names
	names.mu.Lock()
	defer names.mu.Unlock()
	if names.execs > 1 || names.apart {
		if names.execs <= 1 && key&outsideKey != 0 && o.name != "" {
			canon = names.outsideCanon(o, c)
		} else if o.serial != 0 || key&outsideKey != 0 {
			names.sharedObject(o, c)
		}
	}
	if o.serial != 0 || key&outsideKey != 0 {
		e.claim(o, c)
	}
	if o.serial != 0 {
		// Registered by an earlier execution: the object outlives them,
		// and its key is its own.
		e.markLasting(key)
	}
	return canon
}

// claim records that e's execution uses o, an object that outlives
// executions, and reports as the misuse of the running thread that
// another exploration's execution, running now, uses it too: two
// explorations at the same time in one process (tests that call
// t.Parallel) that share an object made outside their test bodies. Each
// would see the other's operations, which none of its schedules contains,
// and their tables would fight over the object. A replay nested in an
// exploration uses its objects between its executions, not during one.
// An object first registered by two explorations at once is caught at its
// next registration, by either. e.names.mu is held.
func (e *Exec) claim(o *Obj, c trace.Class) {
	prev := o.user.Load()
	if prev == e.tag {
		return
	}
	if (prev == nil || !prev.running.Load()) && o.user.CompareAndSwap(prev, e.tag) {
		return
	}
	what := c.String()
	if o.name != "" {
		what += " " + o.name
	}
	msg := what + " was made outside the test body and is used by two explorations at the same time " +
		"(tests that call t.Parallel, or explorations started from several goroutines): each would see the other's " +
		"operations, which none of its schedules contains. Make every object inside the test body, or do not run " +
		"these explorations at the same time"
	if e.names.shared == "" {
		e.names.shared = msg // names.mu is held
	}
	Panic(trace.Misuse, msg)
}

// SharedObject returns the message of the first misuse of an object that
// another exploration, or (with tables shared by parallel workers) another
// worker, used at the same time, or "".
func (e *Exec) SharedObject() string { return e.names.SharedObject() }

// touchAgain records the first touch by t of o, registered by another
// thread in this execution.
//
//go:noinline
func (e *Exec) touchAgain(o *Obj, t *Thread) {
	o.markSeen(t.id)
	n := t.objectName()
	if !o.fresh {
		return
	}
	names := e.names
	names.mu.Lock()
	defer names.mu.Unlock()
	k, ok := names.okeys[n]
	if !ok {
		names.okeys[n] = o.key
		return
	}
	k = e.findKey(k)
	if k == o.key {
		return
	}
	if e.keyInUse(k) || e.isLasting(k) {
		// n names another object of this execution: n's other meaning
		// is not this object's, bind it to this one.
		names.okeys[n] = o.key
		return
	}
	// Two names seen apart so far meet on one object: the older key names
	// it from now on. The current execution keeps the key it announced.
	e.mergeKeys(k, o.key)
}

// keyInUse reports whether an object registered in the execution has key
// k, or a key merged into k.
func (e *Exec) keyInUse(k uint64) bool {
	i := e.ownKey(k)
	return i >= 0 && i < len(e.keyUse) && e.keyUse[i] == e.serial
}

// ownKey returns the index of key k among the keys e gave, or -1 if another
// Exec gave it or it is an outside key.
func (e *Exec) ownKey(k uint64) int {
	if k&outsideKey != 0 || k>>32 != e.names.id {
		return -1
	}
	return int(k & (1<<32 - 1))
}

// markLasting records that key k is held by an object that outlives
// executions: no name of a thread binds to it.
func (e *Exec) markLasting(k uint64) {
	i := e.ownKey(k)
	if i < 0 {
		return
	}
	n := e.names
	for i >= len(n.lasting) {
		n.lasting = append(n.lasting, false)
	}
	n.lasting[i] = true
}

// isLasting reports whether key k is held by an object that outlives
// executions.
func (e *Exec) isLasting(k uint64) bool {
	i := e.ownKey(k)
	return i >= 0 && i < len(e.names.lasting) && e.names.lasting[i]
}

// useKey records that an object registered in the execution has key k
// (and so every key k is merged into). Keys e did not give are never bound
// to names: they need no record.
func (e *Exec) useKey(k uint64) {
	i := e.ownKey(k)
	if i < 0 {
		return
	}
	for i >= len(e.keyUse) {
		e.keyUse = append(e.keyUse, 0)
	}
	e.keyUse[i] = e.serial
	if to := e.findKey(k); to != k {
		if j := e.ownKey(to); j >= 0 && j < len(e.keyUse) {
			e.keyUse[j] = e.serial
		}
	}
}

// rebind gives name n a new key, for an object n did not name before;
// e.names.mu is held.
func (e *Exec) rebind(n objectName) uint64 {
	k := e.names.newCanonKey(e.names.touchedCanon(n))
	e.names.okeys[n] = k
	return k
}

// objectName names the next object t touches for the first time in the
// execution.
func (t *Thread) objectName() objectName {
	n := objectName{thread: t.key, announce: t.announces, rank: t.touches}
	t.touches++
	return n
}

// objectName is a thread's name for an object it touches: see touch.
type objectName struct{ thread, announce, rank uint32 }

// keyOf returns the key name n stands for, a new one if n is new;
// e.names.mu is held.
func (e *Exec) keyOf(n objectName) uint64 {
	names := e.names
	if k, ok := names.okeys[n]; ok {
		return e.findKey(k)
	}
	if names.okeys == nil {
		names.okeys = make(map[objectName]uint64)
	}
	k := names.newCanonKey(names.touchedCanon(n))
	names.okeys[n] = k
	return k
}

// findKey follows the merges of key k (mergeKeys) to the key that names its
// object now.
func (e *Exec) findKey(k uint64) uint64 {
	for len(e.kmerged) > 0 {
		to, ok := e.kmerged[k]
		if !ok {
			break
		}
		k = to
	}
	return k
}

// mergeKeys makes the younger of keys a and b stand for the older.
// It is reported in the execution's trace and, for the Execs that share
// e's names, in their log.
func (e *Exec) mergeKeys(a, b uint64) {
	m := e.mergeLocal(a, b)
	e.names.log = append(e.names.log, loggedMerge{m: m, by: e})
}

// mergeLocal makes the younger of keys a and b, two keys that name objects
// now (findKey), stand for the older in e's view of the keys, reports the
// merge in the execution's trace (in canonical values) and returns it.
func (e *Exec) mergeLocal(a, b uint64) trace.KeyMerge {
	if a > b {
		a, b = b, a
	}
	if e.kmerged == nil {
		e.kmerged = make(map[uint64]uint64)
	}
	e.kmerged[b] = a
	if e.keyInUse(b) {
		e.useKey(a)
	}
	e.tr.Merged = append(e.tr.Merged, trace.KeyMerge{From: e.names.canonOf(b), To: e.names.canonOf(a)})
	return trace.KeyMerge{From: b, To: a}
}

// seenFew is the number of threads from 64 on that an object lists in
// seenMore before it keeps them as bits (seenBits): a bit set costs a
// word per 64 threads of the execution, a list a word per thread listed.
const seenFew = 16

// seenBy reports whether thread t touched o in the execution.
func (o *Obj) seenBy(t trace.ThreadID) bool {
	if t < 64 {
		return o.seen&(1<<uint(t)) != 0
	}
	if !o.seenBits {
		for _, u := range o.seenMore {
			if u == uint64(t) {
				return true
			}
		}
		return false
	}
	w := int(t/64) - 1
	return w < len(o.seenMore) && o.seenMore[w]&(1<<uint(t%64)) != 0
}

// markSeen records that thread t touched o.
func (o *Obj) markSeen(t trace.ThreadID) {
	if t < 64 {
		o.seen |= 1 << uint(t)
		return
	}
	if !o.seenBits {
		if o.seenBy(t) {
			return
		}
		if len(o.seenMore) < seenFew {
			o.seenMore = append(o.seenMore, uint64(t))
			return
		}
		o.toSeenBits()
	}
	o.setSeenBit(t)
}

// toSeenBits turns o's list of the threads from 64 on that touched it into
// their bits. Apart from markSeen, whose frame stays small (it runs on
// threads' small stacks, register).
//
//go:noinline
func (o *Obj) toSeenBits() {
	var few [seenFew]uint64
	ids := few[:copy(few[:], o.seenMore)]
	o.seenBits = true
	clear(o.seenMore)
	for _, u := range ids {
		o.setSeenBit(trace.ThreadID(u))
	}
}

// setSeenBit sets the bit of thread t >= 64 in o.seenMore.
func (o *Obj) setSeenBit(t trace.ThreadID) {
	w := int(t/64) - 1
	for len(o.seenMore) <= w {
		o.seenMore = append(o.seenMore, 0)
	}
	o.seenMore[w] |= 1 << uint(t%64)
}
