// This file implements the work of young threads that runs deep: their
// decisions and their first uses of objects, taken on the dispatcher's
// stack instead of the thread's own.

package engine

import "github.com/weft-go/weft/trace"

// youngPicks is the number of decisions a thread's goroutine leaves to the
// dispatcher before it takes them itself.
//
// A goroutine starts with a small stack (2 KB, of which less than half is
// free for calls), and the strategy's decision runs deeper than that: the
// first decision taken on a new goroutine copies its stack to one twice as
// large, which then stays allocated. A program of many threads of a few
// steps each (a chain of 10,000 goroutines) spent a quarter of its time
// growing stacks. Taken on the dispatcher, whose stack has grown once for
// all, a decision costs two more coroutine switches instead; a goroutine
// that goes on to take more decisions takes them itself (its stack grows
// once), and the pool keeps it, with its count, for the next executions.
// The registration of an object in an execution and a thread's first
// touch of it, also deep, are left to the dispatcher by the same
// goroutines.
const youngPicks = 4

// What a young thread asks the dispatcher to do (Exec.aside).
const (
	asideNone uint8 = iota
	asidePick
	asideRegister
	asideTouch
)

// young reports whether t, the running thread, runs on the calling
// goroutine and leaves its deep work to the dispatcher. weft test
// -race's builds leave all of it there already (onDispatcher).
func (t *Thread) young() bool {
	return !RaceHide && t.picks < youngPicks && !t.exiting && t.g == getg()
}

// pickYoung returns the thread to run next, picked by the dispatcher while
// t, the running thread of a young goroutine, waits. If the execution
// ended meanwhile, it unwinds t.
func (t *Thread) pickYoung() *Thread {
	t.picks++
	t.aside(asidePick)
	next := t.e.picked
	t.e.picked = nil
	return next
}

// registerYoung registers o, of class c, in the execution (register) on
// the dispatcher while t, the running thread of a young goroutine, waits.
func (t *Thread) registerYoung(o *Obj, c trace.Class) {
	e := t.e
	e.asideObj, e.asideClass = o, c
	t.aside(asideRegister)
}

// touchYoung records the first touch by t, the running thread of a young
// goroutine, of o, registered by another thread (touchAgain), on the
// dispatcher while t waits.
func (t *Thread) touchYoung(o *Obj) {
	t.e.asideObj = o
	t.aside(asideTouch)
}

// aside has the dispatcher do k while t waits, and passes on its panic.
// If the execution ended meanwhile, it unwinds t.
func (t *Thread) aside(k uint8) {
	e := t.e
	e.aside, e.requestPanic = k, nil
	ok := t.yield(e.decide())
	e.running.Store(t.g)
	if !ok || e.aborting.Load() {
		panic(unwindSignal{})
	}
	if p := e.requestPanic; p != nil {
		e.requestPanic = nil
		panic(p)
	}
}

// runAside does what a young thread asked for (aside), on the dispatcher,
// keeping its panic for the thread.
func (e *Exec) runAside() {
	k := e.aside
	e.aside = asideNone
	defer func() {
		if p := recover(); p != nil {
			e.requestPanic = p
		}
	}()
	switch k {
	case asidePick:
		e.picked = e.pickNext()
	case asideRegister:
		o := e.asideObj
		e.asideObj = nil
		e.register(o, e.asideClass)
	case asideTouch:
		o := e.asideObj
		e.asideObj = nil
		e.touchAgain(o, e.cur)
	}
}
