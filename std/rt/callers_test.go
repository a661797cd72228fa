package rt_test

import (
	"runtime"
	"strings"
	"testing"

	"github.com/weft-go/weft/internal/stdtest"
	"github.com/weft-go/weft/std/rt"
)

// callerNames returns the functions of the frames rt.Callers gives from
// skip on, as a library that prints a stack trace reads them, and the
// function and line rt.Caller(0) gives.
//
//go:noinline
func callerNames(skip int) (names []string, caller string, line int) {
	pc := make([]uintptr, 64)
	n := rt.Callers(runtime.Callers, skip, pc)
	frames := runtime.CallersFrames(pc[:n])
	for {
		f, more := frames.Next()
		names = append(names, strings.TrimPrefix(f.Function, "github.com/weft-go/weft/std/rt_test."))
		if !more {
			break
		}
	}
	p, _, line, _ := rt.Caller(runtime.Caller, 0)
	return names, runtime.FuncForPC(p).Name(), line
}

// TestCallers checks runtime.Callers and runtime.Caller inside an
// execution: the program's frames only, from the function that calls
// them to a goroutine's function, then runtime.goexit, as a goroutine's
// stack in Go ends, or to the test's body; none of weft's; skip
// counts the program's frames; and outside one, Go's own.
func TestCallers(t *testing.T) {
	type got struct {
		names  []string
		caller string
		line   int
		deep   bool
	}
	var body, thread, skipped got
	stdtest.Explore(t, func() {
		body.names, body.caller, body.line = callerNames(1)
		skipped.names, _, _ = callerNames(2)
		done := rt.MakeChan(make(chan bool))
		rt.Go(func() {
			thread.names, _, _ = callerNames(1)
			_, _, _, ok := rt.Caller(runtime.Caller, 1)
			_, _, _, deep := rt.Caller(runtime.Caller, 2)
			thread.deep = ok && !deep
			rt.Of("", done).Send(true)
		})
		rt.Of("", done).Recv()
	})
	for _, c := range []struct {
		name string
		got  []string
		want []string
	}{
		{"the body", body.names, []string{"callerNames", "TestCallers.func1"}},
		{"the body, skip 2", skipped.names, []string{"TestCallers.func1"}},
		{"a goroutine", thread.names, []string{"callerNames", "TestCallers.func1.1", "runtime.goexit"}},
	} {
		if strings.Join(c.got, " ") != strings.Join(c.want, " ") {
			t.Errorf("%s: frames %q, want %q", c.name, c.got, c.want)
		}
	}
	if body.caller != "github.com/weft-go/weft/std/rt_test.callerNames" || body.line != 28 {
		t.Errorf("Caller(0) in callerNames: %s line %d, want callerNames line 28", body.caller, body.line)
	}
	if !thread.deep {
		t.Errorf("a goroutine: Caller(1) should be its function, Caller(2) past its stack")
	}
	outside, _, _ := callerNames(1)
	if len(outside) < 3 || outside[0] != "callerNames" || outside[1] != "TestCallers" || !strings.Contains(strings.Join(outside, " "), "testing.tRunner") {
		t.Errorf("outside an execution: frames %q, want Go's: callerNames, TestCallers, ..., testing.tRunner", outside)
	}
}
