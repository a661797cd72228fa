// This file tests failures reported through an assertion library's
// interface (testify's TestingT) in weft test's reports.

package main

import (
	"strings"
	"testing"
)

// assertlibFiles is the module of TestTestAssertionLibrary.
var assertlibFiles = map[string]string{
	"go.mod": "module example.com/assertlib\n\ngo 1.26.0\n",
	"check/check.go": `// Package check is a tiny assertion library in testify's style.
package check

import (
	"fmt"
	"runtime"
	"strings"
)

// TestingT is the part of *testing.T the assertions use.
type TestingT interface {
	Helper()
	Errorf(format string, args ...any)
	FailNow()
}

// Equal fails the test and stops it if got is not want.
func Equal(t TestingT, want, got any, msg string) {
	t.Helper()
	if want != got {
		t.Errorf("%s: want %v, got %v", msg, want, got)
		t.FailNow()
	}
}

// True fails the test if ok is false, with the call stack in testify's
// way: the callers up to the test function or testing's, the library's
// own left out, one per line under "Error Trace:".
func True(t TestingT, ok bool, msg string) {
	t.Helper()
	if ok {
		return
	}
	var callers []string
	for i := 1; ; i++ {
		pc, file, line, ok := runtime.Caller(i)
		if !ok {
			break
		}
		name := runtime.FuncForPC(pc).Name()
		if name == "testing.tRunner" {
			break
		}
		if !strings.HasPrefix(name, "example.com/assertlib/check.") {
			callers = append(callers, fmt.Sprintf("%s:%d", file, line))
		}
		if seg := name[strings.LastIndex(name, ".")+1:]; strings.HasPrefix(seg, "Test") {
			break
		}
	}
	t.Errorf("\n\tError Trace:\t%s\n\tError:\t%s", strings.Join(callers, "\n\t\t\t"), msg)
}

// Check reports got != want and goes on.
func Check(t TestingT, want, got any) bool {
	t.Helper()
	if want != got {
		t.Errorf("check: want %v, got %v", want, got)
		return false
	}
	return true
}
`,
	"c_test.go": `package assertlib

import (
	"sync"
	"testing"

	"example.com/assertlib/check"
)

func TestCounter(t *testing.T) {
	var mu sync.Mutex
	n := 0
	var wg sync.WaitGroup
	wg.Add(2)
	for range 2 {
		go func() {
			defer wg.Done()
			mu.Lock()
			v := n
			mu.Unlock()
			mu.Lock()
			n = v + 1
			mu.Unlock()
		}()
	}
	wg.Wait()
	check.Equal(t, 2, n, "count")
}

func TestSoft(t *testing.T) {
	var mu sync.Mutex
	n := 0
	done := make(chan bool)
	go func() {
		mu.Lock()
		n++
		mu.Unlock()
		done <- true
	}()
	mu.Lock()
	v := n
	mu.Unlock()
	check.Check(t, 1, v)
	<-done
}

func TestTraced(t *testing.T) {
	done := make(chan bool)
	go func() { done <- true }()
	<-done
	check.True(t, false, "traced")
}

func TestPanic(t *testing.T) {
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		panic("boom")
	}()
	wg.Wait()
}
`,
}

// TestTestAssertionLibrary runs tests that fail through a helper package
// of testify's kind (its own TestingT interface, t.Helper, t.Errorf and
// t.FailNow): each message appears once, in the failing execution's
// report under its test, placed at the test's line (the helpers called
// t.Helper); a panic's stack holds the program's frames only.
func TestTestAssertionLibrary(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a module with weft test")
	}
	t.Parallel()
	out, _ := batchModule(t, "assertlib")
	for _, c := range []struct{ test, msg string }{
		{"TestCounter", "c_test.go:27: t.Errorf: count: want 2, got 1"},
		{"TestSoft", "c_test.go:43: t.Errorf: check: want 1, got 0"},
	} {
		if n := strings.Count(out, c.msg); n != 1 {
			t.Errorf("%q appears %d times, want once:\n%s", c.msg, n, out)
		}
		run := strings.Index(out, "=== RUN   "+c.test+"\n")
		end := strings.Index(out, "--- FAIL: "+c.test+" ")
		if at := strings.Index(out, c.msg); run < 0 || at < run || at > end {
			t.Errorf("%q is not in %s's output:\n%s", c.msg, c.test, out)
		}
	}
	for _, bad := range []string{"marked failed", "goexit", "runtime.Goexit", "internal/engine", "iter.Pull", "weft-go/weft/std"} {
		if strings.Contains(out, bad) {
			t.Errorf("output holds %q:\n%s", bad, out)
		}
	}
	// The stack an assertion library prints lists the test's frames only,
	// not weft's way into the test body (its runtime, the iterator's
	// coroutine, the runtime's).
	at := strings.Index(out, "Error Trace:")
	end := strings.Index(out, "Error:\ttraced")
	if at < 0 || end < at {
		t.Fatalf("no Error Trace of TestTraced:\n%s", out)
	}
	frames := strings.Fields(strings.TrimPrefix(out[at:end], "Error Trace:"))
	if len(frames) != 1 || !strings.HasSuffix(frames[0], "/c_test.go:51") {
		t.Errorf("Error Trace lists %q, want the test's frame c_test.go:51 alone:\n%s", frames, out)
	}
	if !strings.Contains(out, "example.com/assertlib.TestPanic.func1.1()") || !strings.Contains(out, "/c_test.go:59 +0x") {
		t.Errorf("the panic's stack lacks the program's frame:\n%s", out)
	}
}
