// This file implements the naming tables of a runtime: the stable names of
// threads and the keys of objects across executions, which several Execs
// running one exploration in parallel share.

package engine

import (
	"sync"

	"github.com/weft-go/weft/trace"
)

// Names holds what an Exec learns across executions about naming: the
// stable name of each thread (threadKey), the key of each object made by a
// constructor (Create) and of each name a thread gives an object
// (object.go), the keys held by objects that outlive an execution, and
// the key merges found. An Exec makes its own; Execs that run parts of one
// exploration at the same time (parallel workers) share one
// (Config.Names), so that a unit of work split off by one can be explored
// by another: their traces name threads and objects alike, and carry the
// same keys.
//
// Keys are internal to the tables (the Exec's id and a number); a trace
// shows each key's canonical value instead (trace.ObjectInfo.Key), derived
// from the name it was made for: the creating thread's path of spawns and
// rank of creations (Create), or the first toucher's name (objectName). Two
// runtimes, in two processes, thus give an object the same key in the
// traces, except for what one of them learned (a name bound to the key of
// another, key merges): Export and Import carry that, with each unit of
// work, from one runtime to another.
//
// The key merges an Exec finds apply to its own executions at once; those
// another Exec found apply to an Exec's executions from its next one on,
// and are reported in the trace of the execution during which they were
// adopted (trace.Trace.Merged), so that its strategy renames the objects
// before it meets the new keys.
type Names struct {
	mu    sync.Mutex
	id    uint64 // execIDs: the keys given carry it
	tkeys map[[2]uint32]uint32
	// thash[k] is the canonical hash of the thread of stable name k (its
	// path of spawns); byThread the stable name of each hash.
	thash    []uint64
	byThread map[uint64]uint32
	// canon[i] is the canonical value of the key of index i (ownKey);
	// byCanon the key of each canonical value.
	canon   []uint64
	byCanon map[uint64]uint64
	okeys   map[objectName]uint64
	ckeys   map[[2]uint32]uint64
	nkeys   uint64
	// lasting[i] marks the key of index i as held by an object that
	// outlives an execution: no name binds to it.
	lasting []bool
	// log lists every key merge found, with the Exec that found it.
	log []loggedMerge
	// execs counts the Execs using the tables; shared describes the
	// first object that executions of several of them could share; apart
	// marks tables whose exploration other runtimes share (Apart).
	execs  int
	shared string
	apart  bool
	// solo marks tables whose Execs run their executions one Exec at a
	// time for now (Solo); kept names the first object made outside the
	// test body that an execution touched while they did (KeepSolo).
	solo bool
	kept string
	// outside maps the canonical key of each named object made outside
	// the test body that executions touched to the object (outsideCanon).
	outside map[uint64]*Obj
}

// sharedAdvice says why an object made outside the test body is a misuse
// under parallel workers, and what to do.
const sharedAdvice = "with several workers, executions run at the same time and would share it, or (distributed) each process would name it its own way: make every object inside the test body (distributed, one made outside with a name of its own, by a constructor or SetName, is named alike everywhere), or explore on one worker (weft.WithWorkers(1), weft run -workers 1 without -nats)"

// sharedObject reports, as the misuse of the running thread, that o,
// touched as class c, outlives an execution while the tables are shared
// by parallel workers, or, while they are solo, notes it; n.mu is held.
func (n *Names) sharedObject(o *Obj, c trace.Class) {
	what := c.String()
	if o.name != "" {
		what += " " + o.name
	}
	if n.solo {
		if n.kept == "" {
			n.kept = what
		}
		return
	}
	msg := what + " was made outside the test body (or kept from one execution to the next): " + sharedAdvice
	if n.shared == "" {
		n.shared = msg
	}
	Panic(trace.Misuse, msg) // touch's deferred call unlocks n.mu

}

// outsideCanon returns the canonical key of o, touched as class c, an
// object made and named outside the test body, for tables Apart: its
// class and name, the same in every process that builds the body, where
// the key it has is a count of the objects made outside executions in its
// process. Two such objects of one name are a misuse there: the processes
// could not tell them apart. n.mu is held.
func (n *Names) outsideCanon(o *Obj, c trace.Class) uint64 {
	h := mix(hashOutside, uint64(c))
	for i := range len(o.name) {
		h = mix(h, uint64(o.name[i]))
	}
	k := canonical(h)
	if other, ok := n.outside[k]; ok && other != o {
		msg := c.String() + " " + o.name + " and another object of that name were made outside the test body: a distributed exploration tells such objects apart by their names; name them apart, or make them inside the test body"
		if n.shared == "" {
			n.shared = msg
		}
		Panic(trace.Misuse, msg)
	}
	if n.outside == nil {
		n.outside = make(map[uint64]*Obj)
	}
	n.outside[k] = o
	return k
}

// Apart marks the tables of a runtime that explores a part of an
// exploration whose other parts other runtimes explore, in other
// processes (a distributed exploration): an object made and named outside
// the test body is named there by its class and name (outsideCanon);
// another that outlives an execution is refused, as in tables several
// Execs share (SharedObject).
func (n *Names) Apart() {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.apart = true
}

// Solo marks the tables as used by one of their Execs at a time until
// KeepSolo is called: a parallel exploration's first worker runs
// executions alone until it hands a unit out, and an object made outside
// the test body that its executions touch until then is noted, not
// refused.
func (n *Names) Solo() {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.solo = true
}

// KeepSolo is called before a second Exec of tables marked Solo runs an
// execution. If an execution touched an object made outside the test body
// (or kept from one execution to the next), it returns a description of
// that object and the tables stay solo: no other Exec may run executions
// (the exploration goes on with one). Otherwise it returns "" and the
// tables are shared from then on, such an object refused.
func (n *Names) KeepSolo() string {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.kept == "" {
		n.solo = false
	}
	return n.kept
}

// SharedObject describes the first object found shared by the executions
// of parallel workers, or by two explorations at the same time (claim), or
// returns "".
func (n *Names) SharedObject() string {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.shared
}

// loggedMerge is a key merge and the Exec that found it.
type loggedMerge struct {
	m  trace.KeyMerge
	by *Exec
}

// NewNames returns naming tables for Execs to share (Config.Names).
func NewNames() *Names {
	return &Names{id: execIDs.Add(1)}
}

// adoptMerges applies to e's view of the keys the merges other Execs
// sharing its names found since it last looked, and reports them in the
// trace of the execution that just ended.
func (e *Exec) adoptMerges() {
	n := e.names
	n.mu.Lock()
	defer n.mu.Unlock()
	for _, l := range n.log[e.adopted:] {
		if l.by == e {
			continue
		}
		a, b := e.findKey(l.m.To), e.findKey(l.m.From)
		if a == b {
			continue
		}
		e.mergeLocal(a, b)
	}
	e.adopted = len(n.log)
}
