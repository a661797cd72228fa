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
// coroutine a thread runs in, the exploration below the test's body, and
// the stand-ins between two of the program's frames (rt.Go's,
// sync.Once's). A goroutine's stack ends, as in Go, with runtime.goexit;
// the test's body's ends at the body, where Go's goes on into
// testing.tRunner, at which testify's Error Trace stops. go-deadlock's
// printed stack traces and testify's Error Trace showed weft's frames.
// skip counts the program's return addresses (calls inlined into a
// function share its one). Outside an execution it calls callers. It is
// not inlined, so that the first return address, into it, is weft's
// alone.
//
//go:noinline
func Callers(callers func(skip int, pc []uintptr) int, skip int, pc []uintptr) int {
	if !shim.Active() {
		return callers(skip+1, pc)
	}
	// From this function on, whose frame, weft's, is left out.
	all := programPCs(callers, 1, engine.Current().ID() == 0)
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
	body := engine.Current().ID() == 0
	frames := runtime.CallersFrames(programPCs(runtime.Callers, 1, body))
	for skip >= 0 {
		f, more := frames.Next()
		if programFrame(&f, body) {
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
// is the function that called programPCs), less those none of whose
// frames is the program's (programFrame); body says that the calling
// thread runs the test's body.
func programPCs(callers func(skip int, pc []uintptr) int, skip int, body bool) []uintptr {
	buf := make([]uintptr, 64)
	for {
		// callers(skip + 1): this function is one more frame.
		if n := callers(skip+1, buf); n < len(buf) {
			buf = buf[:n]
			break
		}
		buf = make([]uintptr, 2*len(buf))
	}
	out := buf[:0]
	for _, p := range buf {
		frames := runtime.CallersFrames([]uintptr{p})
		for {
			// One return address has several frames where calls were
			// inlined.
			f, more := frames.Next()
			if programFrame(&f, body) {
				out = append(out, p)
				break
			}
			if !more {
				break
			}
		}
	}
	return out
}

// programFrame reports whether f is the program's: not weft's
// (weftFrame, by function name), nor, in the test's body (body),
// runtime.goexit.
func programFrame(f *runtime.Frame, body bool) bool {
	return f.Function != "" && !weftFrame([]byte(f.Function)) && !(body && f.Function == "runtime.goexit")
}
