// This file implements the operations of variables, mutexes, WaitGroups,
// threads and the panics Go raises for misuse.

package engine

import (
	"fmt"
	"path"
	"runtime"
	"strings"

	"github.com/weft-go/weft/trace"
)

func init() {
	enabledWhen(trace.ClassMutex, trace.KindLock, func(_ *Exec, t *Thread) int32 { return b2i(!t.obj.mutexHeld()) })
	enabledWhen(trace.ClassWaitGroup, trace.KindWGWait, func(_ *Exec, t *Thread) int32 { return b2i(t.obj.wgCounter() == 0) })
	enabledWhen(trace.ClassThread, trace.KindJoin, func(e *Exec, t *Thread) int32 { return b2i(e.threads[t.op.Arg].done) })
	sleep := func(e *Exec, t *Thread) int32 { return b2i(e.now >= t.deadline) }
	enabledWhen(trace.ClassTimer, trace.KindSleep, sleep)
	enabledWhen(trace.ClassClock, trace.KindSleep, sleep)
}

// mutexHeld reports whether mutex o (a Mutex, or an RWMutex's writer
// side) is held.
func (o *Obj) mutexHeld() bool { return o.locked }

// hold makes thread p the holder of mutex o (or of an RWMutex's writer
// side); release, with NoThread, frees it.
func (o *Obj) hold(p trace.ThreadID) { o.locked, o.owner = p != trace.NoThread, p }

// wgCounter returns WaitGroup o's counter.
func (o *Obj) wgCounter() int64 { return o.n }

// goPanic is a panic Go itself would raise (send on a closed channel, a
// negative WaitGroup counter). The program may recover it, as in Go; if it
// does not, the failure is reported with its kind.
type goPanic struct {
	kind trace.FailureKind
	msg  string
}

func (p goPanic) Error() string { return p.msg }

// RuntimeError marks goPanic as a runtime error, as Go's own are.
func (p goPanic) RuntimeError() {}

// Panic raises the panic Go raises for a misuse of kind k.
func Panic(k trace.FailureKind, msg string) { panic(goPanic{kind: k, msg: msg}) }

// isWeftFrame reports whether a function belongs to weft's own code rather
// than the program under test.
func isWeftFrame(fn string) bool {
	const mod = "github.com/weft-go/weft"
	rest, ok := strings.CutPrefix(fn, mod)
	if !ok {
		// The runtime's frames, and iter.Pull's, on which weft runs each
		// thread as a coroutine.
		return strings.HasPrefix(fn, "runtime.") || strings.HasPrefix(fn, "iter.")
	}
	// The packages under std are the stand-ins of sync, sync/atomic and
	// the channel operations that weft test's rewritten code calls.
	return strings.HasPrefix(rest, "/internal/") || strings.HasPrefix(rest, "/std/") || strings.HasPrefix(rest, ".(*") ||
		strings.HasPrefix(rest, ".Select") || strings.HasPrefix(rest, ".Go") ||
		strings.HasPrefix(rest, ".MonitorCond.") || strings.HasPrefix(rest, ".Await") ||
		strings.HasPrefix(rest, ".Yield") || strings.HasPrefix(rest, ".Assume")
}

// stdDir is the directory of weft's stand-in packages (std), from this
// file's own path: ".../internal/engine/ops.go" is in the same tree.
var stdDir = func() string {
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		return ""
	}
	return path.Join(path.Dir(path.Dir(path.Dir(file))), "std") + "/"
}()

// isWeftFile reports whether file is a source file of package weft (the
// module's root directory, its tests aside) or of weft's stand-in
// packages (std). A frame of theirs can carry the program's function
// name: a closure inlined into the program's function, such as the
// iterator of a range over a channel (Chan.All, std/rt's Chan.Range)
// inlined into the loop's function, is named after that function.
func isWeftFile(file string) bool {
	if stdDir == "/std/" {
		return false
	}
	if strings.HasPrefix(file, stdDir) {
		return true
	}
	rest, ok := strings.CutPrefix(file, rootDir)
	return ok && !strings.Contains(rest, "/") && !strings.HasSuffix(rest, "_test.go")
}

// rootDir is the directory of package weft, the module's root.
var rootDir = strings.TrimSuffix(stdDir, "std/")

// Register registers o for class c on its first use in the execution and
// reports whether this was the first use, so that a typed object can reset
// its own state.
func (t *Thread) Register(o *Obj, c trace.Class) bool {
	if o.seen&t.seenBit == 0 || o.serial != t.serial {
		return t.registerSlow(o, c)
	}
	return false // touch's common case, inlined
}

// registerSlow is Register past its common case.
//
//go:noinline
func (t *Thread) registerSlow(o *Obj, c trace.Class) (fresh bool) {
	fresh = o.serial != t.e.serial
	t.e.touchSlow(o, c)
	return fresh
}

// SetInit records value as the encoding of variable o's value before its
// first write in the execution (trace.ObjectInfo.Init).
func (t *Thread) SetInit(o *Obj, value uint64) { t.e.tr.Objects[o.id].Init = value }

// MarkAtomic records that every access of variable o, registered in the
// execution, is atomic (trace.ObjectInfo.Atomic).
func (t *Thread) MarkAtomic(o *Obj) { t.e.tr.Objects[o.id].Atomic = true }

// Begin announces the pending operation k on o (a variable, an input, any
// operation that never blocks) and returns when the thread is chosen. The
// caller then performs it and calls End.
func (t *Thread) Begin(o *Obj, c trace.Class, k trace.Kind) {
	t.touch(o, c)
	t.begin(trace.Op{Kind: k, Class: c, Obj: o.id}, o)
}

// BeginArg is Begin for an operation with an argument (Op.Arg): the
// encoded value a CompareAndSwap expects.
func (t *Thread) BeginArg(o *Obj, c trace.Class, k trace.Kind, arg int64) {
	t.touch(o, c)
	t.begin(trace.Op{Kind: k, Class: c, Obj: o.id, Arg: arg}, o)
}

// End records the executed operation with the value it read or wrote.
func (t *Thread) End(value uint64, ok bool) { t.end(value, ok) }

// EndLoad records an executed load of variable o, which read value: it
// synchronises with o's last write.
func (t *Thread) EndLoad(o *Obj, value uint64) {
	if t.inAwait {
		t.loaded(o, value) // a silent load of an Await's condition (await.go)
		return
	}
	t.end(value, true).Src = o.rel
}

// Silent reports whether the thread is evaluating the condition of an
// Await, whose loads are no steps: a load then returns the value without
// noting it or making it symbolic.
func (t *Thread) Silent() bool { return t.inAwait }

// Elsewhere reports whether the thread is evaluating the condition of an
// Await on another thread's goroutine (Exec.condAlts), whose memory
// accesses the race detector would take for that goroutine's: a stand-in
// then reads weft's copy of a word, not the word.
func (t *Thread) Elsewhere() bool { return t.inAwait && getg() != t.g }

// EndStore records an executed store of value to variable o, which later
// reads synchronise with.
func (t *Thread) EndStore(o *Obj, value uint64) {
	t.end(value, true)
	o.rel = int32(len(t.e.tr.Events))
}

// EndUpdate records an executed read-modify-write of variable o (Add, Swap,
// CompareAndSwap, which wrote iff ok), whose value is now value: it
// synchronises with o's last write, and is the last write if ok.
func (t *Thread) EndUpdate(o *Obj, value uint64, ok bool) {
	t.end(value, ok).Src = o.rel
	if ok {
		o.rel = int32(len(t.e.tr.Events))
	}
}

// Lock locks mutex o (a Mutex, or an RWMutex's writer side).
func (t *Thread) Lock(o *Obj, c trace.Class) {
	t.e.touch(o, c)
	t.begin(trace.Op{Kind: trace.KindLock, Class: c, Obj: o.id}, o)
	o.hold(t.id)
	t.end(0, true).Src = o.rel
}

// TryLock locks mutex o if it is unlocked and reports whether it did.
func (t *Thread) TryLock(o *Obj) bool {
	t.e.touch(o, trace.ClassMutex)
	t.begin(trace.Op{Kind: trace.KindTryLock, Class: trace.ClassMutex, Obj: o.id}, o)
	ok := !o.mutexHeld()
	if ok {
		o.hold(t.id)
	}
	if ev := t.end(0, ok); ok {
		ev.Src = o.rel
	}
	return ok
}

// Unlock unlocks mutex o; unlocking an unlocked mutex is a fatal error in Go
// and a failure here.
func (t *Thread) Unlock(o *Obj, c trace.Class) {
	t.e.touch(o, c)
	t.begin(trace.Op{Kind: trace.KindUnlock, Class: c, Obj: o.id}, o)
	ok := o.mutexHeld()
	o.hold(trace.NoThread)
	t.end(0, ok)
	if ok {
		o.rel = int32(len(t.e.tr.Events))
	}
	if !ok {
		// The failing step is recorded, so that its replay ends with it.
		t.fail(trace.UnlockOfUnlocked, "fatal error: sync: unlock of unlocked mutex")
	}
}

// WaitGroupAdd adds delta to WaitGroup o's counter.
func (t *Thread) WaitGroupAdd(o *Obj, delta int) {
	t.e.touch(o, trace.ClassWaitGroup)
	t.begin(trace.Op{Kind: trace.KindWGAdd, Class: trace.ClassWaitGroup, Obj: o.id, Arg: int64(delta)}, o)
	o.n += int64(delta)
	t.end(uint64(o.wgCounter()), true)
	if o.wgCounter() == 0 {
		o.rel = int32(len(t.e.tr.Events))
	}
	if o.wgCounter() < 0 {
		Panic(trace.NegativeWaitGroup, "sync: negative WaitGroup counter")
	}
}

// WaitGroupWait blocks until WaitGroup o's counter is zero.
func (t *Thread) WaitGroupWait(o *Obj) {
	t.e.touch(o, trace.ClassWaitGroup)
	t.begin(trace.Op{Kind: trace.KindWGWait, Class: trace.ClassWaitGroup, Obj: o.id}, o)
	t.end(0, true).Src = o.rel
}

// Go starts a thread running f and returns it. The new thread runs its local
// code up to its first operation before Go returns; starting it is not a
// scheduling point.
func (t *Thread) Go(f func()) *Thread { return t.spawn(f, "") }

// GoNamed is Go for a thread that reports name (ThreadLabel).
func (t *Thread) GoNamed(name string, f func()) *Thread { return t.spawn(f, name) }

// Join blocks until thread u has finished.
func (t *Thread) Join(u *Thread) {
	if u.e != t.e {
		t.fail(trace.Panic, "weft: Join of a thread of another execution")
	}
	t.begin(trace.Op{Kind: trace.KindJoin, Class: trace.ClassThread, Obj: trace.NoObject, Arg: int64(u.id)}, nil)
	t.end(0, true).Src = t.e.lastOf(u.id)
}

// lastOf returns the source (trace.Event.Src) of thread u's last event
// (as the thread or a rendezvous partner), or 0. A step does not record
// it: a Join is rare, a step frequent. lastOf reads the events recorded
// since its last call in the execution and keeps each thread's last
// (lastSrc), so that the Joins of every thread at the end of a long
// execution read its events once, not back from the end for each.
func (e *Exec) lastOf(u trace.ThreadID) int32 {
	if e.lastSerial != e.serial {
		e.lastSerial, e.lastScan = e.serial, 0
		clear(e.lastSrc)
	}
	evs := e.tr.Events
	for i := e.lastScan; i < len(evs); i++ {
		ev := &evs[i]
		e.noteLast(ev.Thread, int32(i+1))
		if ev.Partner != trace.NoThread {
			e.noteLast(ev.Partner, int32(i+1))
		}
	}
	e.lastScan = len(evs)
	if u >= 0 && int(u) < len(e.lastSrc) {
		return e.lastSrc[u]
	}
	return 0
}

// noteLast records src as the source of thread p's last event (lastOf).
func (e *Exec) noteLast(p trace.ThreadID, src int32) {
	if p < 0 {
		return
	}
	for int(p) >= len(e.lastSrc) {
		e.lastSrc = append(e.lastSrc, 0)
	}
	e.lastSrc[p] = src
}

// BlockForever blocks the thread for good, as an operation of kind k on a nil
// channel does.
func (t *Thread) BlockForever(k trace.Kind) {
	t.begin(trace.Op{Kind: k, Class: trace.ClassChan, Obj: trace.NoObject}, nil)
	panic(fmt.Sprintf("weft internal error: a %v on a nil channel was scheduled", k))
}

// Sleep blocks the thread until virtual time has advanced by d nanoseconds.
// When time moves only when every thread is blocked, that is one step,
// whose deadline is now+d at its announce (time cannot move before the
// step: the thread is enabled). When it moves at any step, a step reads
// the clock and arms the deadline, and a second one, enabled once the
// deadline has come, wakes the thread; d <= 0 only reads the clock, as
// Go's Sleep returns at once.
func (t *Thread) Sleep(d int64) {
	e := t.e
	if e.anyStep() {
		if d <= 0 {
			t.clockStep(false)
			return
		}
		t.deadline = t.clockStep(true) + d
		t.begin(trace.Op{Kind: trace.KindSleep, Class: trace.ClassClock, Obj: trace.NoObject, Arg: t.deadline}, nil)
		t.end(uint64(e.now), true)
		return
	}
	if d < 0 {
		d = 0
	}
	t.deadline = e.now + d
	t.begin(trace.Op{Kind: trace.KindSleep, Class: trace.ClassTimer, Obj: trace.NoObject, Arg: t.deadline}, nil)
	t.end(uint64(e.now), true)
}
