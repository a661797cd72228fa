// This file implements the detection of weft operations from goroutines
// that are not threads of the running execution: a goroutine started with
// a go statement instead of w.Go.

package engine

import (
	"fmt"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
)

// current is the Exec that runs executions now, from the start of its
// Batch to the end (Exec.outer before and after). weft runs one exploration
// at a time per process (package weft serialises them). It is read by
// goroutines that are not weft threads, so it is atomic.
var current atomic.Pointer[Exec]

// misuse is the report of the first operation of a goroutine that was not
// a thread of the running execution, until TakeMisuse takes it.
var misuse atomic.Pointer[string]

// Current returns the running thread, or nil outside an exploration. A
// goroutine that calls it during an exploration without being the running
// thread (it was started with a go statement, or it runs between
// executions) is not under weft's control: Current records the misuse
// (TakeMisuse) and ends that goroutine with runtime.Goexit, before it
// touches anything of the execution. The check reads only atomics, so it
// is no data race either.
func Current() *Thread {
	e := current.Load()
	if e == nil {
		return nil
	}
	if getg() != e.running.Load() {
		misused()
	}
	return e.cur
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
// weft object, and ends it. A thread of an abandoned execution that came
// back is no misuse: it unwinds, as it would in its own execution.
func misused() {
	g := getg()
	abandoned.Lock()
	for _, e := range abandoned.execs {
		for _, t := range e.pool {
			if t.g == g {
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
	misuse.CompareAndSwap(nil, &msg)
	runtime.Goexit()
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
// not a weft thread since the last call, and clears it.
func TakeMisuse() (string, bool) {
	p := misuse.Swap(nil)
	if p == nil {
		return "", false
	}
	return *p, true
}
