// This file implements the watchdog's report of a thread that blocked outside
// weft's control, and tells whether the caller runs on a goroutine of an
// execution.

package engine

import (
	"bytes"
	"fmt"
	"reflect"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/weft-go/weft/trace"
)

// blocked ends an execution whose running thread has not reached a scheduling
// point within the watchdog delay. Its goroutine cannot be unwound, so the
// Exec is abandoned. A failure recorded before (the thread failed and then
// blocked in a deferred call as it unwound) stays the report's subject; the
// block is reported after it, as a second problem.
//
// idle is how long the thread made no progress; parked, if not empty, is
// the state of its goroutine, parked in the Go runtime (parkedState), which
// the watchdog saw before its whole delay passed.
func (e *Exec) blocked(idle time.Duration, parked string) {
	// Should the goroutine ever come back, its next weft operation unwinds
	// it instead of running the abandoned execution on.
	e.aborting.Store(true)
	if e.ended && e.endState.Status == trace.Failed {
		e.endState.Message += fmt.Sprintf("\n\nThen, as the execution ended, a deferred call blocked outside weft's control "+
			"for %v (a sync.Mutex, a real channel, I/O, time.Sleep): the thread could not be unwound. "+
			"Make deferred calls return when the test body fails.\n\n%s", e.cfg.Watchdog, e.runningStacks())
		return
	}
	stacks := e.runningStacks()
	in := ""
	if where := blockedIn(stacks); where != "" {
		in = " in " + where
	}
	if parked != "" {
		e.endState = trace.End{Status: trace.Failed, Kind: trace.Blocked, Thread: trace.NoThread,
			Message: fmt.Sprintf("a thread blocked outside weft's control%s: its goroutine has waited in the Go runtime [%s] "+
				"for %v without reaching a weft operation (a sync.Mutex, a real channel, time.Sleep, or a goroutine not "+
				"started with w.Go), and nothing in the execution can wake it. Use weft's primitives inside the test body.\n\n%s",
				in, parked, idle.Round(100*time.Millisecond), stacks)}
		return
	}
	e.endState = trace.End{Status: trace.Failed, Kind: trace.Blocked, Thread: trace.NoThread,
		Message: fmt.Sprintf("a thread ran for %v without reaching a weft operation%s: it blocked outside weft's control "+
			"(a sync.Mutex, a real channel, I/O, time.Sleep, or a goroutine not started with w.Go), or loops forever "+
			"without touching a weft object. Use weft's primitives inside the test body, or raise the watchdog delay.\n\n%s",
			e.cfg.Watchdog, in, stacks)}
}

// parkedAfter is how long a thread must make no progress before the
// watchdog looks at its goroutine's state, every parkedPoll.
const (
	parkedAfter = time.Second
	parkedPoll  = 250 * time.Millisecond
)

// parkedStates are the states of a goroutine parked in the Go runtime that
// only another goroutine can end: a thread of the execution in one of them
// waits for something no thread of the execution will do, as weft runs
// one thread at a time.
var parkedStates = []string{"chan receive", "chan send", "select", "sync.Mutex.Lock", "sync.RWMutex.Lock",
	"sync.RWMutex.RLock", "sync.Cond.Wait", "sync.WaitGroup.Wait", "semacquire", "sleep"}

// parkedState returns the state of the goroutine running the execution's
// thread if it is parked in the Go runtime (parkedStates), or "". It reads
// every goroutine's stack, so the watchdog calls it only after parkedAfter
// without progress.
func (e *Exec) parkedState() string {
	for _, g := range strings.Split(e.runningStacks(), "\n\n") {
		header, _, _ := strings.Cut(g, "\n")
		_, state, ok := strings.Cut(header, " [")
		if !ok {
			continue
		}
		state, _, _ = strings.Cut(state, "]")
		state, _, _ = strings.Cut(state, ",") // "chan receive, 2 minutes"
		for _, p := range parkedStates {
			if state == p || strings.HasPrefix(state, p+" (") {
				return state
			}
		}
	}
	return ""
}

// stuckUnwinding ends an execution whose thread t, unwinding, has run
// deferred calls for the watchdog delay without returning: they block
// outside weft's control. The Exec is abandoned. A failure recorded before
// stays the report's subject, with the block after it.
func (e *Exec) stuckUnwinding(t trace.ThreadID) {
	msg := fmt.Sprintf("%v did not unwind within %v at the end of the execution: its deferred calls block outside weft's control.\n\n%s",
		t, e.cfg.Watchdog, e.runningStacks())
	if e.endState.Status != trace.Failed {
		e.endState = trace.End{Status: trace.Failed, Kind: trace.Blocked, Thread: t, Message: msg}
		return
	}
	e.endState.Message += "\n\nThen " + msg
}

// runningStacks returns the stacks of the goroutines running the Exec's
// threads that are not parked at a scheduling point: the culprits of a
// watchdog report, with a loop's frame on its line (fixLineOne). Goroutines of other Execs (earlier explorations that
// were abandoned to a blocked thread) are left out.
func (e *Exec) runningStacks() string {
	ours := make(map[int64]bool, len(e.pool))
	for _, t := range e.pool {
		if t.goid != 0 {
			ours[t.goid] = true
		}
	}
	buf := make([]byte, 1<<20)
	for {
		n := runtime.Stack(buf, true)
		if n < len(buf) {
			buf = buf[:n]
			break
		}
		buf = make([]byte, 2*len(buf))
	}
	var out []string
	for g := range strings.SplitSeq(string(buf), "\n\n") {
		if !ours[StackGoid(g)] {
			continue
		}
		if strings.Contains(g, "internal/engine.(*Exec).run(") && !strings.Contains(g, "internal/engine.(*Thread).park") &&
			!strings.Contains(g, "internal/engine.(*Thread).handTo") {
			out = append(out, g)
		}
	}
	if len(out) == 0 {
		return "(no stack found: the blocked goroutine is not a weft thread)"
	}
	return fixLineOne(strings.Join(out, "\n\n"))
}

// ownFuncs are the functions at the bottom of the goroutines an Exec runs:
// every thread's code runs under Exec.run, the driver's loop of executions
// under Exec.dispatcher.
var ownFuncs = [...]string{
	runtime.FuncForPC(reflect.ValueOf((*Exec).run).Pointer()).Name(),
	runtime.FuncForPC(reflect.ValueOf((*Exec).dispatcher).Pointer()).Name(),
}

// InExecution reports whether the calling goroutine is one an Exec runs: a
// thread of an execution (a test body or a thread it started) or the
// dispatcher, where the driver's loop and its callbacks run. It walks the
// caller's stack, so it is meant for rare checks (an exploration started
// inside another), not for the operations of an execution.
func InExecution() bool {
	pcs := make([]uintptr, 64)
	for {
		n := runtime.Callers(2, pcs)
		if n < len(pcs) {
			pcs = pcs[:n]
			break
		}
		pcs = make([]uintptr, 2*len(pcs))
	}
	frames := runtime.CallersFrames(pcs)
	for {
		f, more := frames.Next()
		if f.Function == ownFuncs[0] || f.Function == ownFuncs[1] {
			return true
		}
		if !more {
			return false
		}
	}
}

// goid returns the number of the running goroutine, from its stack trace.
func goid() int64 {
	// "goroutine " and 20 digits fit; the runtime keeps the buffer (it
	// escapes), and a string of the trace's first word or two is made
	// on the stack: a thread's coroutine calls this once, and an
	// execution with many threads made many of them.
	var buf [32]byte
	b := buf[:runtime.Stack(buf[:], false)]
	if i := bytes.IndexByte(b[min(len(b), len("goroutine ")):], ' '); i >= 0 {
		b = b[:len("goroutine ")+i]
	}
	return StackGoid(string(b))
}

// StackGoid returns the number of the goroutine whose stack trace is s
// ("goroutine 18 [running]:..."), or 0.
func StackGoid(s string) int64 {
	s, ok := strings.CutPrefix(s, "goroutine ")
	if !ok {
		return 0
	}
	if i := strings.IndexByte(s, ' '); i > 0 {
		s = s[:i]
	}
	n, _ := strconv.ParseInt(s, 10, 64)
	return n
}
