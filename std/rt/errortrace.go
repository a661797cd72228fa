// This file removes weft's own frames from the call stack an assertion
// library prints in a failure's message (testify's "Error Trace:"), so that
// the report lists the test's frames only.

package rt

import (
	"runtime"
	"strconv"
	"strings"
)

// weftModule is the import path of weft's module: a frame of a function of
// it (its root package's, or a package's under it), below the test's own
// frames, is weft's way into the test body.
const weftModule = "github.com/weft-go/weft"

// userTrace returns msg without the lines that name a frame of weft's
// runtime, the machinery that calls the test body inside an execution: an
// assertion library that prints the call stack of a failure (testify's
// "Error Trace:") walks up to the test function's caller, which, inside an
// execution, is weft's and not testing's, and prints weft's frames (and,
// when the module is built from a copy, under the test module's
// directory). The frames removed are the outermost ones of the calling
// goroutine that are weft's, the iterator's that runs the execution's
// threads, or the runtime's: their file:line lines, as the library printed
// them from the same runtime.Caller information. A message without a stack
// is returned as it is.
func userTrace(msg string) string {
	if !strings.Contains(msg, "Error Trace:") {
		return msg
	}
	var pcs [64]uintptr
	n := runtime.Callers(1, pcs[:])
	var outer []string
	frames := runtime.CallersFrames(pcs[:n])
	for {
		f, more := frames.Next()
		if isMachinery(f.Function) {
			outer = append(outer, f.File+":"+strconv.Itoa(f.Line))
		} else {
			outer = outer[:0] // a frame of the test's: the run so far is not outermost
		}
		if !more {
			break
		}
	}
	if len(outer) == 0 {
		return msg
	}
	lines := strings.Split(msg, "\n")
	kept := lines[:0]
	for _, l := range lines {
		if isFrameLine(l, outer) {
			continue
		}
		kept = append(kept, l)
	}
	return strings.Join(kept, "\n")
}

// isMachinery reports whether function (a runtime.Frame's Function) is
// weft's, the iterator package's or the runtime's.
func isMachinery(function string) bool {
	if rest, ok := strings.CutPrefix(function, weftModule); ok && (strings.HasPrefix(rest, ".") || strings.HasPrefix(rest, "/")) {
		return true
	}
	return strings.HasPrefix(function, "iter.") || strings.HasPrefix(function, "runtime.")
}

// isFrameLine reports whether line of a message is a continuation line of
// a printed call stack that names one of frames: the frame alone, after
// the tabs and spaces that align it.
func isFrameLine(line string, frames []string) bool {
	t := strings.TrimSpace(line)
	if t == "" || strings.Contains(t, ":\t") {
		return false // empty, or a labelled line ("Error Trace:\t...")
	}
	for _, f := range frames {
		if t == f {
			return true
		}
	}
	return false
}
