// This file tests weft test on the shapes of real test suites: external
// test packages, test-only packages and test helpers, refusals of one test
// at a time, loop variables copied before t.Parallel, skips and a child's
// block before t.Parallel, and goroutines that end with runtime.Goexit.

package main

import (
	"os/exec"
	"runtime"
	"strings"
	"testing"

	"github.com/weft-go/weft/internal/long"
)

// externalFiles is the module of TestTestExternal.
var externalFiles = map[string]string{
	"go.mod": "module example.com/xt\n\ngo 1.26.0\n",
	"xt.go": `package xt

// Inc returns n+1.
func Inc(n int) int { return n + 1 }
`,
	"xt_test.go": `package xt_test

import (
	"testing"

	"example.com/xt"
	"example.com/xt/internal/testutil"
)

func TestExt(t *testing.T) {
	if got := testutil.Both(t, xt.Inc); got != 3 {
		t.Errorf("got %d, want 3", got)
	}
}
`,
	"internal/testutil/testutil.go": `// Package testutil is imported by tests only.
package testutil

import "testing"

// Both runs f(0) and f(1) in two goroutines and returns the sum.
func Both(t testing.TB, f func(int) int) int {
	ch := make(chan int, 2)
	for i := range 2 {
		go func() { ch <- f(i) }()
	}
	a, b := <-ch, <-ch
	if a == b {
		t.Errorf("same results %d", a)
	}
	return a + b
}
`,
	"only/only_test.go": `package only_test

import "testing"

func TestOnly(t *testing.T) {
	done := make(chan int)
	go func() { done <- 1 }()
	<-done
}
`,
}

// TestTestExternal runs weft test on external test packages (package
// x_test), one in a directory with no other Go file, and a test helper of
// a package that only tests import: each loads, the helper's goroutines
// are weft's (the orders of its two senders and two receives: four
// executions), and every test runs.
func TestTestExternal(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a module with weft test")
	}
	t.Parallel()
	out, _ := batchModule(t, "xt")
	for _, want := range []string{
		"xt_test.go:10: weft: strategy optimal, executions 4 (complete 4, cut 0, failing 0)", "--- PASS: TestExt",
		"only_test.go:5: weft: strategy optimal, executions 1 (complete 1, cut 0, failing 0)", "--- PASS: TestOnly",
		"ok  \texample.com/xt\t", "ok  \texample.com/xt/only\t",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

// refusalFiles is a module with a package whose tests reach constructs
// weft test does not run (a t.Parallel that is not first, reflect.Select)
// and a package whose tests import it.
var refusalFiles = map[string]string{
	"go.mod": "module example.com/rf\n\ngo 1.26.0\n",
	"a/a.go": `package a

import "reflect"

// Double returns 2n.
func Double(n int) int { return 2 * n }

// First returns the index of the first of a and b to be ready.
func First(a, b chan int) int {
	i, _, _ := reflect.Select([]reflect.SelectCase{
		{Dir: reflect.SelectRecv, Chan: reflect.ValueOf(a)},
		{Dir: reflect.SelectRecv, Chan: reflect.ValueOf(b)},
	})
	return i
}
`,
	"suite/suite.go": `package suite

import "testing"

// Run runs a suite of subtests, as a conformance suite another package
// shares does.
func Run(t *testing.T) {
	t.Run("inner", func(t *testing.T) {})
}
`,
	"a/a_test.go": `package a

import (
	"testing"

	"example.com/rf/suite"
)

func TestSuite(t *testing.T) {
	suite.Run(t)
}

func TestLate(t *testing.T) {
	t.Setenv("FIRST", "1")
	t.Parallel()
}

func TestFirst(t *testing.T) {
	a, b := make(chan int, 1), make(chan int)
	a <- 1
	done := make(chan int)
	go func() { done <- First(a, b) }()
	<-done
}

func TestFine(t *testing.T) {
	done := make(chan int)
	go func() { done <- Double(1) }()
	if <-done != 2 {
		t.Error("bad")
	}
}
`,
	"b/b_test.go": `package b

import (
	"testing"

	"example.com/rf/a"
)

func TestB(t *testing.T) {
	done := make(chan int)
	go func() { done <- a.Double(2) }()
	if <-done != 4 {
		t.Error("bad")
	}
}
`,
}

// TestTestRefusals checks that a construct weft test does not run refuses
// the tests that reach it, and no other: a t.Parallel that is not first
// skips its test with the reason and the rest of the package runs (exit
// status 2), as does a test that reaches a function of the package that
// calls reflect.Select, and one that calls t.Run through a suite of
// subtests in another package, inside its exploration; and a package
// whose tests import the package is not refused for that package's test
// files.
func TestTestRefusals(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a module with weft test")
	}
	t.Parallel()
	out := testModuleArgs(t, t.TempDir(), refusalFiles, []string{"./..."}, exitUsage)
	late := "    a_test.go:13: weft test refused this test: a_test.go:15:2: t.Parallel in TestLate is not its first statement: weft test runs the body after t.Parallel as an exploration; call t.Parallel first (after copies of loop variables such as tc := tc)\n--- SKIP: TestLate"
	first := "    a_test.go:18: weft test refused this test: a.go:10:13: reflect.Select: its channel operations would run on the Go channel, outside weft's control, and not be steps weft schedules; write them as channel operations of Go (a select with a case per channel, a send, a receive)\n--- SKIP: TestFirst"
	suite := "weft test refused this test: suite.go:8: t.Run called inside an exploration, through a function weft test could not follow"
	for _, want := range []string{late, first, suite, "--- SKIP: TestSuite", "ok  \texample.com/rf/a\t", "ok  \texample.com/rf/b\t"} {
		if !strings.Contains(out, want) {
			t.Errorf("weft test ./...: output lacks %q:\n%s", want, out)
		}
	}
	if strings.Count(out, "refused") != 3 || strings.Contains(out, "FAIL") {
		t.Errorf("weft test ./...: want three refusals and no failure:\n%s", out)
	}
}

// TestTestRefusalsRun checks that -run naming a test that reaches no
// construct weft test refuses runs it without refusals (exit status 0),
// and (with WEFT_LONG=1: another build) that the package whose tests
// import the refusing package passes when it is tested alone.
func TestTestRefusalsRun(t *testing.T) {
	long.Skip(t, "builds a module with weft test")
	t.Parallel()
	dir := t.TempDir()
	runs := [][]string{{"-v", "-run", "TestFine", "./a"}}
	if long.Enabled() {
		runs = append(runs, []string{"-v", "./b"})
	}
	for i, args := range runs {
		files := refusalFiles
		if i > 0 {
			files = nil // written
		}
		out := testModuleArgs(t, dir, files, args, exitOK)
		if strings.Contains(out, "refused") || strings.Count(out, "--- PASS") != 1 {
			t.Errorf("weft test %s: want one test passed and no refusal:\n%s", strings.Join(args, " "), out)
		}
	}
}

// TestTestCopyParallel runs, in a module whose go line (1.21) gives a loop
// one variable for all its iterations, parallel subtests that copy the
// loop variable before t.Parallel: the copy runs before the subtest
// pauses, so each subtest sees its own case.
func TestTestCopyParallel(t *testing.T) {
	long.Skip(t, "builds a module with weft test")
	t.Parallel()
	files := map[string]string{
		"go.mod": "module example.com/cp\n\ngo 1.21\n",
		"cp_test.go": `package cp

import "testing"

func TestCopies(t *testing.T) {
	for _, tc := range []struct{ n, want int }{{1, 2}, {2, 4}} {
		tc := tc
		t.Run("case", func(t *testing.T) {
			tc := tc
			t.Parallel()
			done := make(chan int)
			go func() { done <- 2 * tc.n }()
			if got := <-done; got != tc.want {
				t.Errorf("got %d, want %d", got, tc.want)
			}
		})
	}
}
`,
	}
	out := testModule(t, t.TempDir(), files, exitOK)
	for _, want := range []string{"--- PASS: TestCopies/case ", "--- PASS: TestCopies/case#01 ", "--- PASS: TestCopies "} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

// TestTestParallelPrefix runs tests with statements before t.Parallel:
// a skip under a condition that calls the standard library, which runs
// before the test pauses, and the block of a test that reruns its own
// binary, as golang.org/x/sync's singleflight tests do, which the child
// runs, as an exploration of its own, and which ends the test.
func TestTestParallelPrefix(t *testing.T) {
	long.Skip(t, "builds a module with weft test")
	t.Parallel()
	files := map[string]string{
		"go.mod": "module example.com/pp\n\ngo 1.26.0\n",
		"pp_test.go": `package pp

import (
	"bytes"
	"os"
	"os/exec"
	"runtime"
	"testing"
)

func TestSkipped(t *testing.T) {
	if runtime.GOOS != "plan9" && os.Getenv("NO_SUCH_VARIABLE") == "" {
		t.Skipf("not on %s", runtime.GOOS)
	}
	t.Parallel()
	<-make(chan int)
}

func TestChild(t *testing.T) {
	if os.Getenv("PP_CHILD") != "" {
		done := make(chan int)
		go func() {
			panic("the child panics")
		}()
		<-done
		t.Fatal("the child returned")
	}
	t.Parallel()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, "-test.run=^TestChild$")
	cmd.Env = append(os.Environ(), "PP_CHILD=1")
	out, err := cmd.CombinedOutput()
	if err == nil || !bytes.Contains(out, []byte("panic: the child panics")) || bytes.Contains(out, []byte("the child returned")) {
		t.Errorf("child: %v\n%s", err, out)
	}
}
`,
	}
	out := testModule(t, t.TempDir(), files, exitOK)
	for _, want := range []string{"--- SKIP: TestSkipped ", "    pp_test.go:13: not on " + runtime.GOOS + "\n", "--- PASS: TestChild "} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

// goexitFiles is a module whose goroutine ends with runtime.Goexit, and
// whose test a library's t.SkipNow skips.
var goexitFiles = map[string]string{
	"go.mod": "module example.com/gx\n\ngo 1.26.0\n",
	"gx_test.go": `package gx

import (
	"runtime"
	"sync"
	"testing"
)

func TestGoexit(t *testing.T) {
	var wg sync.WaitGroup
	var mu sync.Mutex
	res := 0
	wg.Add(1)
	go func() {
		defer wg.Done()
		defer func() { mu.Lock(); res++; mu.Unlock() }()
		runtime.Goexit()
		res = 100
	}()
	wg.Wait()
	mu.Lock()
	defer mu.Unlock()
	if res != 1 {
		t.Errorf("res = %d, want 1", res)
	}
}

func TestLibrarySkip(t *testing.T) {
	skip := t.SkipNow // a method value: not rewritten, as a library's call
	done := make(chan bool)
	go func() { done <- true }()
	<-done
	skip()
}
`,
}

// TestTestGoexit runs a goroutine that ends with runtime.Goexit, as
// golang.org/x/sync's singleflight tests do: it ends after its deferred
// calls, as Go ends it, and the test passes (one execution: the Wait
// waits for the Done); a library's t.SkipNow in the test's goroutine
// skips the test, as Go does, rather than failing it with goexit.
func TestTestGoexit(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a module with weft test")
	}
	t.Parallel()
	out, _ := batchModule(t, "gx")
	for _, want := range []string{"gx_test.go:9: weft: strategy optimal, executions 1 (complete 1, cut 0, failing 0)", "--- PASS: TestGoexit", "--- SKIP: TestLibrarySkip"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

// TestTestGoexitRace runs TestTestGoexit's goroutine under weft test
// -race: the end of the goroutine's Goexit is no race with weft's
// dispatcher.
func TestTestGoexitRace(t *testing.T) {
	long.Skip(t, "builds a module with weft test -race")
	if b, err := exec.Command("go", "env", "CGO_ENABLED").Output(); err != nil || strings.TrimSpace(string(b)) != "1" {
		t.Skip("-race needs cgo")
	}
	t.Parallel()
	out := testModuleArgs(t, t.TempDir(), goexitFiles, []string{"-v", "-race", "-run", "TestGoexit"}, exitOK)
	if !strings.Contains(out, "--- PASS: TestGoexit") || strings.Contains(out, "DATA RACE") {
		t.Errorf("weft test -race: want TestGoexit passed and no race:\n%s", out)
	}
}
