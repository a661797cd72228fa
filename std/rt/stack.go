// This file implements runtime.Stack inside an execution: the stack dump a
// goroutine leak checker reads, with the goroutines of the program only.

package rt

import (
	"bytes"

	"github.com/weft-go/weft/internal/engine"
	"github.com/weft-go/weft/internal/shim"
)

// Stack is runtime.Stack, which the rewriting passes as stack (so that
// the file's import of runtime stays used). Inside an execution, a dump
// of every goroutine (all) shows those of the program as Go would: the
// goroutines of the execution's threads that have not finished, without
// the frames of weft's code above and below the program's (the
// coroutine a thread runs in, the stand-in of the operation it is
// blocked in), and the goroutines that run no code of weft's; the
// goroutines of weft's runtime (the test's goroutine waiting for the
// exploration, its dispatcher and watchdog, the threads pooled for the
// next execution) are left out. go.uber.org/goleak's VerifyNone, deferred
// in a test's body, reported those as leaks. The dump of the calling
// goroutine alone (not all) is the runtime's, without weft's frames.
// Outside an execution it calls stack.
func Stack(stack func(buf []byte, all bool) int, buf []byte, all bool) int {
	if !shim.Active() {
		return stack(buf, all)
	}
	big := make([]byte, max(len(buf), 64<<10))
	for {
		n := stack(big, all)
		if n < len(big) {
			big = big[:n]
			break
		}
		big = make([]byte, 2*len(big))
	}
	e := engine.Current().Exec()
	var out []byte
	for i, block := range bytes.Split(big, []byte("\n\n")) {
		// The header, "goroutine 18 [running]:", is what StackGoid reads.
		id := engine.StackGoid(string(block[:min(len(block), 40)]))
		switch {
		case i == 0 || e.RunsThread(id):
			block = programFrames(block)
		case hasWeftFrame(block):
			continue
		}
		if len(out) > 0 {
			out = append(out, "\n\n"...)
		}
		out = append(out, block...)
	}
	if len(out) > 0 && out[len(out)-1] != '\n' {
		out = append(out, '\n')
	}
	return copy(buf, out)
}

// frames splits a goroutine's dump into its header line and its frames,
// each a function's line with the file line below it (a "created by"
// line is one too).
func frames(block []byte) (header []byte, fs [][]byte) {
	lines := bytes.SplitAfter(block, []byte("\n"))
	header = lines[0]
	for i := 1; i < len(lines); i++ {
		f := lines[i]
		if i+1 < len(lines) && bytes.HasPrefix(lines[i+1], []byte("\t")) {
			f = append(f[:len(f):len(f)], lines[i+1]...)
			i++
		}
		fs = append(fs, f)
	}
	return header, fs
}

// weftFrame reports whether frame f is in weft's code (not a program
// under weft's testdata, nor a test of weft's), or in the coroutine that
// runs a thread.
func weftFrame(f []byte) bool {
	f = bytes.TrimPrefix(f, []byte("created by "))
	const weft = "github.com/weft-go/weft"
	if bytes.HasPrefix(f, []byte(weft)) && (len(f) > len(weft) && (f[len(weft)] == '.' || f[len(weft)] == '/')) {
		fn, _, _ := bytes.Cut(f, []byte("("))
		pkg := fn[:bytes.LastIndexByte(fn, '/')+1]
		rest, _, _ := bytes.Cut(fn[len(pkg):], []byte("."))
		pkg = append(pkg[:len(pkg):len(pkg)], rest...)
		return !bytes.Contains(pkg, []byte("/testdata/")) && !bytes.HasSuffix(pkg, []byte("_test"))
	}
	return bytes.HasPrefix(f, []byte("iter.")) || bytes.HasPrefix(f, []byte("runtime.coro"))
}

// hasWeftFrame reports whether the goroutine dumped in block runs code of
// weft's.
func hasWeftFrame(block []byte) bool {
	_, fs := frames(block)
	for _, f := range fs {
		if weftFrame(f) {
			return true
		}
	}
	return false
}

// programFrames returns the dump block of a thread's goroutine without
// weft's frames.
func programFrames(block []byte) []byte {
	header, fs := frames(block)
	out := append([]byte(nil), header...)
	for _, f := range fs {
		if !weftFrame(f) {
			out = append(out, f...)
		}
	}
	return bytes.TrimSuffix(out, []byte("\n"))
}
