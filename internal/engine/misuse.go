// This file implements the detection of weft operations from goroutines
// that are not threads of the running execution: a goroutine started with
// a go statement instead of w.Go.

package engine

import (
	"fmt"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
)

// maxActive bounds the explorations that run at the same time in one
// process (an exploration's reports replay failures in an Exec of their
// own, nested in its Batch, so each takes up to two slots).
const maxActive = 64

// active holds the Execs that run executions now, each from the start of
// its Batch to the end, in the first free slot; activeHigh is one more
// than the highest slot ever used. They are read by goroutines that are
// not weft threads, so they are atomic. An operation finds its execution
// by its goroutine: the one whose running thread it is. With one
// exploration, that is one comparison, as cheap as a global.
var (
	active     [maxActive]atomic.Pointer[Exec]
	activeHigh atomic.Int32
	activeMu   sync.Mutex // serialises activate and deactivate
)

// owners maps each goroutine that runs a thread of an Exec, by a hash of
// it (ownerSlot), to that Exec: a hint, since goroutines of two Execs may
// share a slot, which Current checks against the Exec's running goroutine.
// With several explorations active, it finds the caller's Exec with the
// same loads as the first slot of active does for one (the workers of a
// parallel exploration are each an Exec). A thread's coroutine sets its
// entry when it starts and clears it when it ends.
var owners [256]atomic.Pointer[Exec]

// ownerSlot returns goroutine g's entry in owners.
func ownerSlot(g uintptr) *atomic.Pointer[Exec] {
	return &owners[goroutineHash(g)>>56]
}

// goroutineHash hashes goroutine g (getg), for owners and goroutineMarks.
func goroutineHash(g uintptr) uint64 { return uint64(g>>3) * 0x9e3779b97f4a7c15 }

// own makes e the owner of goroutine g, which runs one of e's threads.
func (e *Exec) own(g uintptr) {
	e.threadGs.add(g)
	if o := ownerSlot(g); o.Load() != e {
		o.Store(e)
	}
}

// disown clears g's entry in owners if it names e.
func (e *Exec) disown(g uintptr) { ownerSlot(g).CompareAndSwap(e, nil) }

// activate gives e a slot in active.
func activate(e *Exec) {
	activeMu.Lock()
	defer activeMu.Unlock()
	for i := range active {
		if active[i].Load() == nil {
			e.active.Store(true)
			active[i].Store(e)
			if int32(i) >= activeHigh.Load() {
				activeHigh.Store(int32(i) + 1)
			}
			return
		}
	}
	panic(fmt.Sprintf("weft: more than %d explorations at the same time in one process", maxActive/2))
}

// deactivate frees e's slot.
func deactivate(e *Exec) {
	activeMu.Lock()
	defer activeMu.Unlock()
	for i := range active {
		if active[i].Load() == e {
			active[i].Store(nil)
			e.active.Store(false)
			return
		}
	}
}

// Current returns the running thread, or nil outside an execution. A
// goroutine that calls it while explorations run, without being the
// running thread of one, and that a thread started (with a go statement),
// is not under weft's control: Current records the misuse (TakeMisuse) in
// the Exec of that thread (misused) and ends the goroutine with
// runtime.Goexit, before it touches anything of an execution. The fast
// path reads only atomics, so it is no data race either.
func Current() *Thread {
	g := getg()
	if activeHigh.Load() == 1 {
		// The common case, one exploration: is the caller its running
		// thread?
		if e := active[0].Load(); e != nil && g == e.running.Load() {
			return e.cur
		}
	} else if e := ownerSlot(g).Load(); e != nil && g == e.running.Load() && e.active.Load() {
		// With several, the Exec that owns the caller's goroutine, in
		// whichever slot of active: another Exec's running goroutine,
		// which its core writes at every step, is not read.
		return e.cur
	}
	return currentSlow(g)
}

// currentSlow is Current past its common case, for goroutine g.
//
//go:noinline
func currentSlow(g uintptr) *Thread {
	busy := false
	for i, n := 0, int(activeHigh.Load()); i < n; i++ {
		e := active[i].Load()
		if e == nil {
			continue
		}
		// Another Exec's running goroutine changes at its every step,
		// on another core: it is read only if g may run its threads.
		if (n == 1 || e.threadGs.has(g)) && g == e.running.Load() {
			return e.cur
		}
		busy = true
	}
	if busy {
		if e := threadOrChild(); e != nil {
			misused(e)
		}
	}
	return nil
}

// goroutineMarks is a set of goroutines (getg) as bits of their hashes: a
// goroutine not in it is certainly not one of those added; one in it may
// be. currentSlow reads it in every active Exec, from every core, and the
// Exec's fields around it change at every step: it has cache lines of its
// own.
type goroutineMarks struct {
	_    [64]byte
	bits [4]atomic.Uint64
	_    [64]byte
}

// goroutineBit returns the word and bit of goroutine g in a goroutineMarks.
func goroutineBit(g uintptr) (int, uint64) {
	h := goroutineHash(g)
	return int(h >> 62), 1 << (h >> 56 & 63)
}

// add adds goroutine g.
func (m *goroutineMarks) add(g uintptr) {
	w, b := goroutineBit(g)
	if m.bits[w].Load()&b == 0 {
		m.bits[w].Or(b)
	}
}

// has reports whether goroutine g may have been added.
func (m *goroutineMarks) has(g uintptr) bool {
	w, b := goroutineBit(g)
	return m.bits[w].Load()&b != 0
}

// threadGoroutines maps the goroutine numbers of the threads of every
// Exec (the coroutines that run them) to their Exec, for threadOrChild.
var threadGoroutines struct {
	sync.Mutex
	ids map[int64]*Exec
}

// registerThread records that goroutine id runs threads of e.
func registerThread(id int64, e *Exec) {
	threadGoroutines.Lock()
	if threadGoroutines.ids == nil {
		threadGoroutines.ids = make(map[int64]*Exec)
	}
	threadGoroutines.ids[id] = e
	threadGoroutines.Unlock()
}

// unregisterThread forgets goroutine id, which ends.
func unregisterThread(id int64) {
	threadGoroutines.Lock()
	delete(threadGoroutines.ids, id)
	threadGoroutines.Unlock()
}

// threadOrChild returns the Exec whose thread the caller, a goroutine that
// is not the running thread of an execution, is (a thread that blocked
// outside weft's control and came back, after its execution was
// abandoned) or was started by (with a go statement in a test body or a
// thread it started): its weft operations are then a misuse. It returns
// nil for any other goroutine, which may use weft objects while
// explorations run, as when it builds the objects of an exploration of
// its own (tests that run in parallel). Only the goroutine's creator is
// looked at: a goroutine started by a goroutine a thread started is not
// recognised. This is the slow path of Current, for goroutines outside
// executions; it reads the caller's stack.
func threadOrChild() *Exec {
	st := fullStack()
	own, parent := StackGoid(st), creatorGoid(st)
	threadGoroutines.Lock()
	defer threadGoroutines.Unlock()
	if e := threadGoroutines.ids[own]; e != nil {
		return e
	}
	return threadGoroutines.ids[parent]
}

// fullStack returns the calling goroutine's whole stack trace.
func fullStack() string {
	buf := make([]byte, 16<<10)
	for {
		n := runtime.Stack(buf, false)
		if n < len(buf) {
			return string(buf[:n])
		}
		buf = make([]byte, 2*len(buf))
	}
}

// creatorGoid returns the number of the goroutine that created the one
// whose stack trace is s (its last line but one: "created by f in
// goroutine 18"), or 0.
func creatorGoid(s string) int64 {
	i := strings.LastIndex(s, "\ncreated by ")
	if i < 0 {
		return 0
	}
	line, _, _ := strings.Cut(s[i+1:], "\n")
	_, num, ok := strings.Cut(line, " in goroutine ")
	if !ok {
		return 0
	}
	n, err := strconv.ParseInt(strings.TrimSpace(num), 10, 64)
	if err != nil {
		return 0
	}
	return n
}

// runningExec returns the Exec whose running thread the calling goroutine
// is, or nil.
func runningExec() *Exec {
	g := getg()
	for i, n := 0, int(activeHigh.Load()); i < n; i++ {
		if e := active[i].Load(); e != nil && g == e.running.Load() {
			return e
		}
	}
	return nil
}

// abandoned lists the Execs abandoned to a thread that blocked outside
// weft's control, whose goroutines may come back at any time.
var abandoned struct {
	sync.Mutex
	execs []*Exec
}

// abandon records that e was abandoned.
func abandon(e *Exec) {
	abandoned.Lock()
	abandoned.execs = append(abandoned.execs, e)
	abandoned.Unlock()
}

// misused records that the calling goroutine, not a weft thread, used a
// weft object, and ends it; owner is the Exec of the thread the goroutine
// is or was started by. A thread of an abandoned execution that came back
// is no misuse: it unwinds, as it would in its own execution.
func misused(owner *Exec) {
	// Goroutines are compared by number, which the runtime never reuses:
	// the g of a thread that has ended can be a new goroutine's (a go
	// statement's, which would then be taken for the thread and crash on
	// the unwinding panic no weft frame recovers).
	id := goid()
	abandoned.Lock()
	for _, e := range abandoned.execs {
		for _, t := range e.pool {
			if t.goid == id {
				abandoned.Unlock()
				panic(unwindSignal{})
			}
		}
	}
	abandoned.Unlock()
	msg := fmt.Sprintf("a goroutine that is not a weft thread used a weft object: it was started with a go statement "+
		"(or outlived the execution that started it), so weft cannot schedule it, and its operations would race with "+
		"the execution's threads. Use w.Go to start goroutines that use weft objects. The goroutine was stopped "+
		"(runtime.Goexit) at:\n\n%s", userStack(stack()))
	recordMisuse(owner, &msg)
	runtime.Goexit()
}

// recordMisuse records the misuse msg for the exploration whose thread
// started the goroutine, owner's, and for no other: explorations running
// beside it (tests that call t.Parallel) did not start the goroutine, and
// a report in one of them would be a false alarm. Owner keeps it until
// TakeMisuse, which the exploration calls after each execution and after
// its last, so a misuse made between two batches of executions is reported
// by the next (or, for a parallel worker's Exec, when the exploration
// ends). Then the workers of the same exploration that are running (the
// Execs that share owner's naming tables) record it too, so that it stops
// the exploration at their next execution.
func recordMisuse(owner *Exec, msg *string) {
	owner.misuse.CompareAndSwap(nil, msg)
	if owner.active.Load() {
		return
	}
	for i, n := 0, int(activeHigh.Load()); i < n; i++ {
		if e := active[i].Load(); e != nil && e != owner && e.names == owner.names {
			e.misuse.CompareAndSwap(nil, msg)
		}
	}
}

// userStack drops weft's own frames from a goroutine's stack trace s,
// keeping its header, the program's frames and where it was created.
func userStack(s string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	out := lines[:1]
	for i := 1; i+1 < len(lines); i += 2 {
		fn := lines[i]
		if j := strings.LastIndexByte(fn, '('); j > 0 && !strings.HasPrefix(fn, "created by ") {
			fn = fn[:j]
		}
		if !strings.HasPrefix(fn, "created by ") && isWeftFrame(fn) {
			continue
		}
		out = append(out, lines[i], lines[i+1])
	}
	return strings.Join(out, "\n")
}

// TakeMisuse returns the report of an operation of a goroutine that was
// not a weft thread, made while e ran, since the last call, and clears it.
func (e *Exec) TakeMisuse() (string, bool) {
	p := e.misuse.Swap(nil)
	if p == nil {
		return "", false
	}
	return *p, true
}
