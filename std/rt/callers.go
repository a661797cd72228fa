// This file implements runtime.Callers and runtime.Caller inside an
// execution: the program's frames, without weft's, as the stack traces
// that libraries print and the callers they name read them.

package rt

import (
	"runtime"

	"github.com/weft-go/weft/internal/engine"
	"github.com/weft-go/weft/internal/shim"
)

// Callers is runtime.Callers, which the rewriting passes as callers (so
// that the file's import of runtime stays used). Inside an execution it
// leaves out the return addresses whose frames are all weft's: the
// coroutine a thread runs in and the exploration below the program's
// first frame, and the stand-ins between two of the program's frames
// (rt.Go's, sync.Once's). A library that prints a stack trace
// (sasha-s/go-deadlock, for one) printed weft's frames. skip counts the
// program's return addresses (calls inlined into a function share its
// one); a thread's stack ends at its function, then runtime.goexit, as
// a goroutine's stack in Go ends, and the test's at its body (Go's goes
// on into testing.tRunner, where testify's Error Trace stops: it showed
// weft's frames, then runtime.goexit's). Outside an
// execution it calls callers. It is not inlined, so that the first
// return address, into it, is weft's alone.
//
//go:noinline
func Callers(callers func(skip int, pc []uintptr) int, skip int, pc []uintptr) int {
	if !shim.Active() {
		return callers(skip+1, pc)
	}
	// From this function on, whose frame, weft's, is left out.
	all := programPCs(callers, 1)
	if skip--; skip > 0 {
		// skip 0 is runtime.Callers itself, 1 the function that called
		// it: the first of the program's frames.
		all = all[min(skip, len(all)):]
	}
	return copy(pc, all)
}

// Caller is runtime.Caller, which the rewriting passes as caller. Inside
// an execution, skip counts the program's frames (calls inlined included,
// as Go counts them), without weft's, as Callers does. Outside an
// execution it calls caller.
//
//go:noinline
func Caller(caller func(skip int) (pc uintptr, file string, line int, ok bool), skip int) (pc uintptr, file string, line int, ok bool) {
	if !shim.Active() {
		return caller(skip + 1)
	}
	frames := runtime.CallersFrames(programPCs(runtime.Callers, 1))
	for skip >= 0 {
		f, more := frames.Next()
		if f.Function != "" && !weftFrame([]byte(f.Function)) {
			if skip == 0 {
				return f.PC, f.File, f.Line, f.PC != 0
			}
			skip--
		}
		if !more {
			break
		}
	}
	return 0, "", 0, false
}

// programPCs returns the return addresses callers gives from skip on (1
// is the function that called programPCs), less those whose frames are
// all weft's (weftFrame, by function name).
func programPCs(callers func(skip int, pc []uintptr) int, skip int) []uintptr {
	buf := make([]uintptr, 64)
	for {
		// callers(skip + 1): this function is one more frame.
		if n := callers(skip+1, buf); n < len(buf) {
			buf = buf[:n]
			break
		}
		buf = make([]uintptr, 2*len(buf))
	}
	body := engine.Current().ID() == 0 // the test's body, not a goroutine
	out := buf[:0]
	for _, p := range buf {
		if programPC(p, body) {
			out = append(out, p)
		}
	}
	return out
}

// programPC reports whether one of the frames of return address p (more
// than one where calls were inlined) is not weft's, nor, in the test's
// body, runtime.goexit.
func programPC(p uintptr, body bool) bool {
	frames := runtime.CallersFrames([]uintptr{p})
	for {
		f, more := frames.Next()
		if f.Function != "" && !weftFrame([]byte(f.Function)) && !(body && f.Function == "runtime.goexit") {
			return true
		}
		if !more {
			return false
		}
	}
}
