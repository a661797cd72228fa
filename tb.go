// This file implements T's methods with the meanings of testing.T's
// inside one execution: Error, Fatal, Log, Cleanup, Helper, Name, Failed,
// FailNow and Skip, so that test helpers written for a testing.TB-like
// interface take a *T.

package weft

import (
	"fmt"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/weft-go/weft/internal/engine"
	"github.com/weft-go/weft/trace"
)

// execState is what T keeps for one execution, in the Exec that runs it
// (engine.Exec.UserState): the messages of Error and Log, the cleanups and
// the helpers. Only the running thread touches it.
type execState struct {
	serial   uint64 // the execution's (engine.Exec.Serial)
	out      []outLine
	failed   bool     // Error, Errorf, Fatal or Fatalf was called
	reported bool     // the failure's message holds the errors
	ended    bool     // the body and its cleanups have ended
	cleanups []func() // in the order registered
	helpers  []string // the functions Helper marked
	// uncontrolled is the number of goroutines the process created while
	// the body ran, besides weft's, if the execution counted them
	// (probe).
	uncontrolled int
}

// outLine is a line of Error or Log, with its place.
type outLine struct {
	text string
	err  bool // Error's, not Log's
}

// stateOf returns the T state of e's current execution, empty if e holds
// that of an earlier one.
func stateOf(e *engine.Exec) *execState {
	st := e.UserState()
	x, _ := (*st).(*execState)
	if x == nil {
		x = &execState{}
		*st = x
	}
	if s := e.Serial(); x.serial != s {
		*x = execState{serial: s, out: x.out[:0], cleanups: x.cleanups[:0], helpers: x.helpers[:0]}
	}
	return x
}

// state returns the T state of the running execution.
func state() *execState { return stateOf(cur().Exec()) }

// lastState returns the T state of e's last execution, or nil if that
// execution used none.
func lastState(e *engine.Exec) *execState {
	x, _ := (*e.UserState()).(*execState)
	if x == nil || x.serial != e.Serial() {
		return nil
	}
	return x
}

// run runs body as the body of an execution: then its cleanups, last
// registered first, and, if Error was called and nothing else ended the
// execution, fails it with the errors' messages.
func (w *T) run(body func(w *T)) {
	x := state()
	returned := false
	var p probe
	if w.probe && !w.probed {
		w.probed = true
		p.start(cur().Exec())
	}
	defer func() {
		x.runCleanups()
		x.uncontrolled = p.end()
		x.ended = true
		if returned && x.failed {
			x.reported = true
			cur().Fail(trace.Assertion, x.errors())
		}
	}()
	body(w)
	returned = true
}

// runCleanups runs the cleanups, last registered first; if one panics,
// the others still run, and the panic goes on.
func (x *execState) runCleanups() {
	defer func() {
		if len(x.cleanups) > 0 {
			x.runCleanups()
		}
	}()
	for len(x.cleanups) > 0 {
		f := x.cleanups[len(x.cleanups)-1]
		x.cleanups = x.cleanups[:len(x.cleanups)-1]
		f()
	}
}

// errors returns the messages of Error and Fatal, a line each.
func (x *execState) errors() string {
	var b strings.Builder
	for _, l := range x.out {
		if l.err {
			if b.Len() > 0 {
				b.WriteByte('\n')
			}
			b.WriteString(l.text)
		}
	}
	return b.String()
}

// logLines returns what a failing execution's report shows in its log:
// the lines of Log, and of Error unless the failure's message holds them.
func (x *execState) logLines() []string {
	var lines []string
	for _, l := range x.out {
		if !l.err || !x.reported {
			lines = append(lines, l.text)
		}
	}
	return lines
}

// add adds a line to the output, prefixed with the place of the call of
// the T method that called add, as testing does (Helper's functions
// skipped).
func (x *execState) add(msg string, err bool) {
	x.out = append(x.out, outLine{text: x.place(1) + ": " + msg, err: err})
	if err {
		x.failed = true
	}
}

// place returns "file.go:line" of the call of the T method, skipping the
// functions Helper marked; skip is the number of calls between the T
// method and place.
func (x *execState) place(skip int) string {
	var pcs [32]uintptr
	// Skip runtime.Callers, place, the calls between and the T method.
	n := runtime.Callers(3+skip, pcs[:])
	frames := runtime.CallersFrames(pcs[:n])
	first := ""
	for {
		f, more := frames.Next()
		p := fmt.Sprintf("%s:%d", filepath.Base(f.File), f.Line)
		if first == "" {
			first = p
		}
		if !x.helper(f.Function) {
			return p
		}
		if !more {
			return first
		}
	}
}

// helper reports whether Helper marked the function fn.
func (x *execState) helper(fn string) bool {
	for _, h := range x.helpers {
		if h == fn {
			return true
		}
	}
	return false
}

// stop fails the execution with the errors so far, or with msg if there
// are none.
func (x *execState) stop(msg string) {
	x.reported = true
	m := x.errors()
	if m == "" {
		m = msg
	}
	cur().Fail(trace.Assertion, m)
}

// sprint formats args as testing's Error and Log do (fmt.Sprintln, without
// its newline).
func sprint(args ...any) string {
	s := fmt.Sprintln(args...)
	return s[:len(s)-1]
}

// Errorf marks the execution failed with the message format (formatted
// with args, as fmt.Sprintf) and goes on, as testing.T's Errorf does the
// test: when the body returns, after its cleanups, the execution fails
// (kind assertion) with the messages of every Error and Errorf, each after
// the file and line of its call (Helper's functions skipped). Called once
// the body and its cleanups have ended, it fails the execution at once.
func (w *T) Errorf(format string, args ...any) {
	x := state()
	x.add(fmt.Sprintf(format, args...), true)
	if x.ended {
		x.stop("")
	}
}

// Error is Errorf with its message formatted as fmt.Sprintln formats args,
// without the final newline, as testing.T's Error.
func (w *T) Error(args ...any) {
	x := state()
	x.add(sprint(args...), true)
	if x.ended {
		x.stop("")
	}
}

// Fatalf is Errorf, and then ends the execution at once as a failure of
// the calling thread (kind assertion, with the messages of every Error so
// far), as testing.T's Fatalf ends the test. It does not return; the
// cleanups still run.
func (w *T) Fatalf(format string, args ...any) {
	x := state()
	x.add(fmt.Sprintf(format, args...), true)
	x.stop("")
}

// Fatal is Fatalf with its message formatted as Error's.
func (w *T) Fatal(args ...any) {
	x := state()
	x.add(sprint(args...), true)
	x.stop("")
}

// FailNow ends the execution at once as a failure of the calling thread,
// with the messages of Error so far (or, without any, a message that
// names the call's line), as testing.T's FailNow ends the test. It does
// not return. (T's Fail, unlike testing.T's, takes a message and stops
// the execution too; Error marks it failed and goes on.)
func (w *T) FailNow() {
	x := state()
	x.stop(x.place(0) + ": FailNow")
}

// Failed reports whether Error, Errorf, Fatal or Fatalf was called in
// this execution.
func (w *T) Failed() bool { return state().failed }

// Logf records the message format (formatted with args, as fmt.Sprintf)
// after the file and line of its call, as testing.T's Logf: the report of
// a failing execution lists the lines of its Logs; other executions'
// are dropped.
func (w *T) Logf(format string, args ...any) { state().add(fmt.Sprintf(format, args...), false) }

// Log is Logf with its message formatted as Error's.
func (w *T) Log(args ...any) { state().add(sprint(args...), false) }

// Helper marks the calling function as a test helper, as testing.T's
// Helper does: the file and line of an Error, Fatal or Log called from it
// are those of its caller.
func (w *T) Helper() {
	var pcs [1]uintptr
	if runtime.Callers(2, pcs[:]) == 0 {
		return
	}
	f, _ := runtime.CallersFrames(pcs[:]).Next()
	x := state()
	if !x.helper(f.Function) {
		x.helpers = append(x.helpers, f.Function)
	}
}

// Cleanup registers f to run when the body returns, in every execution:
// under weft's control, as part of the body's thread (f may use weft's
// objects: join threads, close channels), after the body and before weft
// looks for leaked threads, the last registered first, as testing.T's
// Cleanup. A panic in f is a failure of the execution; the other
// cleanups still run. When the execution has already ended (a failure),
// the cleanups run as the body's thread unwinds, and a weft operation in
// one stops it. Cleanup called once the cleanups ran fails the execution.
func (w *T) Cleanup(f func()) {
	x := state()
	if x.ended {
		x.add("Cleanup called after the body and its cleanups returned: it would never run", true)
		x.stop("")
	}
	x.cleanups = append(x.cleanups, f)
}

// Name returns the name of the test that runs the exploration (its
// t.Name(), as Check got it), or "" outside Check.
func (w *T) Name() string { return w.name }

// SkipNow ends the execution as assumed away, as Assume(false) does: it
// does not count as complete or as a failure (Result.Assumed counts it),
// and its logs are dropped. testing.T's SkipNow skips the whole test; a
// body that skips every execution passes with none complete.
func (w *T) SkipNow() { cur().Assume(false) }

// Skip is Log and then SkipNow.
func (w *T) Skip(args ...any) {
	state().add(sprint(args...), false)
	cur().Assume(false)
}

// Skipf is Logf and then SkipNow.
func (w *T) Skipf(format string, args ...any) {
	state().add(fmt.Sprintf(format, args...), false)
	cur().Assume(false)
}
