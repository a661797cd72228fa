// This file tests the directives of a Test function's comment that set
// the leak rule for that test alone.

package main

import (
	"strings"
	"testing"
)

// directivesFiles is the module of TestTestLeakDirectives.
var directivesFiles = map[string]string{
	"go.mod": "module example.com/directives\n\ngo 1.26.0\n",
	"w.go": `package directives

// worker waits for a job that never comes.
func worker(jobs chan int) {
	<-jobs
}
`,
	"w_test.go": `package directives

import "testing"

// TestOff leaves its worker blocked.
//
//weft:leaks=off
func TestOff(t *testing.T) {
	go worker(make(chan int))
}

//weft:ignore-leak example.com/directives.worker
func TestIgnored(t *testing.T) {
	go worker(make(chan int))
}

//weft:ignore-leak example.com/directives.other
func TestOtherIgnored(t *testing.T) {
	go worker(make(chan int))
}

func TestLeak(t *testing.T) {
	go worker(make(chan int))
}

//weft:leak=off
func TestMisspelt(t *testing.T) {
	go worker(make(chan int))
}
`,
}

// TestTestLeakDirectives checks //weft:leaks=off and //weft:ignore-leak
// on a Test function: its goroutine left blocked is no leak, while the
// same goroutine in a test without the directive is; an unknown
// directive refuses its test.
func TestTestLeakDirectives(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a module with weft test")
	}
	t.Parallel()
	out, _ := batchModule(t, "directives")
	for _, want := range []string{
		"--- PASS: TestOff",
		"--- PASS: TestIgnored",
		"--- FAIL: TestOtherIgnored",
		"--- FAIL: TestLeak",
		"--- SKIP: TestMisspelt",
		"w_test.go:26:1: //weft:leak=off: unknown directive of weft's: want //weft:leaks=off or //weft:ignore-leak F,...",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if n := strings.Count(out, "weft: leak (execution"); n != 2 {
		t.Errorf("%d leaks reported, want 2 (TestOtherIgnored, TestLeak):\n%s", n, out)
	}
}
