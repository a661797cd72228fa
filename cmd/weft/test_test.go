// This file tests weft test's command line and its use in a module that
// does not require weft.

package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/weft-go/weft/internal/failjson"
	"github.com/weft-go/weft/internal/long"
)

// TestTestUsage checks weft test's usage errors: exit status 2 and a
// message naming the flag.
func TestTestUsage(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-frob"}, "unknown flag -frob"},
		{[]string{"-strategy", "nope"}, `unknown strategy "nope"`},
		{[]string{"-max-runs", "-3"}, `-max-runs "-3": want a non-negative number`},
		{[]string{"-timeout", "soon"}, `-timeout "soon": want a duration`},
		{[]string{"-run"}, "flag -run needs a value"},
		{[]string{"-json=maybe"}, `-json="maybe": want true or false`},
		{[]string{"-real", "a,,b"}, `-real "a,,b": want module paths separated by commas, or all`},
		{[]string{"-time", "soon"}, `-time: time mode "soon": want any (time may move at any step) or blocked (only when every thread is blocked)`},
	} {
		var stdout, stderr bytes.Buffer
		code := runTest("", c.args, &stdout, &stderr)
		if code != exitUsage || !strings.Contains(stderr.String(), c.want) {
			t.Errorf("weft test %v: exit status %d, stderr %q; want %d and %q", c.args, code, stderr.String(), exitUsage, c.want)
		}
	}
}

// TestParseTestArgs checks that flags go before or after the packages,
// and where each goes.
func TestParseTestArgs(t *testing.T) {
	o, err := parseTestArgs([]string{"-tags", "x", "./a", "-run=TestA", "-strategy", "dpor", "./b", "-max-runs", "9", "-v", "-replay", "T=tok"})
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Join(o.pkgs, " ") + "|" + strings.Join(o.buildFlags, " ") + "|" + o.run + "|" + strings.Join(o.env, " ") + "|" + o.replay
	// Without -time, time moves as Check's default has it: only when
	// every goroutine is blocked.
	want := "./a ./b|-tags=x|TestA|WEFT_STRATEGY=dpor WEFT_MAX_RUNS=9|T=tok"
	if got != want || !o.verbose || o.json {
		t.Errorf("parsed %q (verbose %v, json %v), want %q (verbose, not json)", got, o.verbose, o.json, want)
	}
	o, err = parseTestArgs([]string{"-real", "example.com/a,example.com/b", "-real=all", "-race"})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := strings.Join(o.replayFlags(), " "), "-race -real=example.com/a,example.com/b,all"; got != want {
		t.Errorf("-real: replay flags %q, want %q", got, want)
	}
	o, err = parseTestArgs([]string{"-ignore-leak", "example.com/p.worker,example.com/p.(*Pool).run"})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := strings.Join(o.env, " "), "WEFT_IGNORE_LEAK=example.com/p.worker,example.com/p.(*Pool).run"; got != want {
		t.Errorf("-ignore-leak: environment %q, want %q", got, want)
	}
	if _, err := parseTestArgs([]string{"-ignore-leak", "example.com/p.worker,"}); err == nil || !strings.Contains(err.Error(), "-ignore-leak") {
		t.Errorf("-ignore-leak with an empty name: %v, want an error naming the flag", err)
	}
	for _, mode := range []string{"blocked", "any"} {
		o, err = parseTestArgs([]string{"-time", mode, "./a"})
		if err != nil {
			t.Fatal(err)
		}
		if got, want := strings.Join(o.env, " "), "WEFT_TIME="+mode; got != want {
			t.Errorf("-time %s: environment %q, want %q", mode, got, want)
		}
	}
}

// outsideFiles is the module of TestTestOutsideWeft.
var outsideFiles = map[string]string{
	"go.mod": "module example.com/outside\n\ngo 1.26.0\n",
	"stop.go": `package outside

// Stop closes done.
func Stop(done chan struct{}) {
	close(done)
}
`,
	"indirect_test.go": `package outside

import "testing"

func TestIndirect(t *testing.T) {
	report := t.Errorf // a method value: not rewritten, as a library's call
	done := make(chan int)
	go func() { done <- 1 }()
	if <-done == 1 {
		report("indirect failure")
	}
}

func TestSkipped(t *testing.T) {
	t.Skip("not today")
}
`,
	// Three goroutines count: as statements, the adds commute (one
	// trace); with their results used, each order is explored.
	"count_test.go": `package outside

import (
	"sync"
	"sync/atomic"
	"testing"
)

func count(t *testing.T, add func(n *atomic.Int64, m *int64)) {
	var n atomic.Int64
	var m int64
	var wg sync.WaitGroup
	for range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			add(&n, &m)
		}()
	}
	wg.Wait()
	if n.Load() != 3 || atomic.LoadInt64(&m) != 3 {
		t.Errorf("n = %d, m = %d", n.Load(), atomic.LoadInt64(&m))
	}
}

func TestCountStatements(t *testing.T) {
	count(t, func(n *atomic.Int64, m *int64) {
		n.Add(1)
		atomic.AddInt64(m, 1)
	})
}

func TestCountUsed(t *testing.T) {
	count(t, func(n *atomic.Int64, m *int64) {
		_ = n.Add(1)
		_ = atomic.AddInt64(m, 1)
	})
}
`,
	"stop_test.go": `package outside

import "testing"

func TestStop(t *testing.T) {
	done := make(chan struct{})
	go Stop(done)
	Stop(done)
}
`,
}

// TestTestOutsideWeft runs weft test in a module that does not require
// weft: a temporary -modfile adds it, the module's files stay as they were,
// and the report names the original file and line. A failure through a
// call of t's methods that was not rewritten fails the execution, and
// t.Skip skips the test.
func TestTestOutsideWeft(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a module with weft test")
	}
	t.Parallel()
	out, dir := batchModule(t, "outside")
	for _, want := range []string{"weft: close of closed channel in T1", "T1   close done                        stop.go:5", "replay: weft test example.com/outside -run '^TestStop$' -replay 'TestStop=",
		"the test is marked failed: t.Error, t.Fail or t.Fatal was called by code weft test did not rewrite",
		"--- FAIL: TestIndirect", "    indirect_test.go:14: not today\n--- SKIP: TestSkipped",
		// The adds as statements commute: the orders left are those of
		// wg.Done; with their results used, 265 executions.
		"count_test.go:26: weft: strategy optimal, executions 15 (complete 15, cut 0, failing 0), final states 1,",
		"count_test.go:33: weft: strategy optimal, executions 265 (complete 265, cut 0, failing 0), final states 1,"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "go.mod")); string(b) != batchGoMod {
		t.Errorf("go.mod changed:\n%s", b)
	}
	if _, err := os.Stat(filepath.Join(dir, "go.sum")); err == nil {
		t.Error("weft test wrote a go.sum in the module")
	}
}

// TestTestGoLine runs weft test in a module whose go line (1.21) is older
// than weft's: the temporary -modfile raises it, and weft test pins every
// file to go1.21, so that a loop has one variable for all its iterations
// (and the line numbers of a file given a build constraint stay its own),
// and so has a range over a channel, which a break or continue ends as Go
// does.
func TestTestGoLine(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a module with weft test")
	}
	t.Parallel()
	dir := t.TempDir()
	files := map[string]string{
		"go.mod": "module example.com/old\n\ngo 1.21\n",
		"loop_test.go": `package old

import "testing"

func TestLoopVar(t *testing.T) {
	var ps []*int
	for _, x := range []int{1, 2} {
		ps = append(ps, &x)
	}
	same := make(chan bool)
	go func() { same <- ps[0] == ps[1] }()
	if !<-same {
		t.Error("one variable per iteration, not per loop as go 1.21 says")
	}
}

func TestLine(t *testing.T) {
	ch := make(chan int)
	<-ch
}

func TestRangeLoopVar(t *testing.T) {
	ch := make(chan int, 4)
	for _, v := range []int{1, -1, 2, 3} {
		ch <- v
	}
	close(ch)
	var ps []*int
loop:
	for x := range ch {
		switch {
		case x < 0:
			continue
		case x == 3:
			break loop
		}
		ps = append(ps, &x)
	}
	if len(ps) != 2 || ps[0] != ps[1] || *ps[0] != 3 {
		t.Errorf("%d pointers, the same %v, to %d: want 2 pointers to one variable that holds 3, as go 1.21 says", len(ps), ps[0] == ps[1], *ps[0])
	}
}
`,
	}
	out := testModule(t, dir, files, exitFailure)
	for _, want := range []string{"--- PASS: TestLoopVar", "--- PASS: TestRangeLoopVar", "weft: deadlock", "T0   recv ch                           loop_test.go:19", "--- FAIL: TestLine"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

// testModule writes files (name to content) to dir, runs weft test -v there
// without replay files, and returns its output, which must end with exit
// status code.
func testModule(t *testing.T, dir string, files map[string]string, code int) string {
	t.Helper()
	return testModuleArgs(t, dir, files, []string{"-v"}, code)
}

// testModuleArgs is testModule with weft test's arguments args; a file
// name may hold directories. It sets no environment variable of the
// process: tests that call it may run in parallel.
func testModuleArgs(t *testing.T, dir string, files map[string]string, args []string, code int) string {
	t.Helper()
	for name, content := range files {
		name = filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(name, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var stdout, stderr bytes.Buffer
	got := runTestEnv(dir, []string{"WEFT_REPLAY_FILES=0"}, args, &stdout, &stderr)
	if got != code {
		t.Fatalf("exit status %d, want %d\nstdout:\n%s\nstderr:\n%s", got, code, stdout.String(), stderr.String())
	}
	return stdout.String()
}

// TestTestOtherModule checks that weft test refuses, with exit status 2
// and the way out, a directory of another module (testdata/corpus from
// weft's root) and packages none of which is the module's.
func TestTestOtherModule(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		pkg, want string
	}{
		{"./testdata/corpus", "./testdata/corpus is in module example.com/corpus (" + filepath.Join(dirOrCwd(filepath.Join("..", "..")), "testdata", "corpus", "go.mod") + "), not in the module of this directory"},
		{"./testdata/corpus", "run it in that module (cd testdata/corpus && weft test ./...)"},
		{"fmt", "weft test: fmt: no package of the main module matches"},
		{"./std/rt", "weft test: ./std/rt: no package of the main module matches"},
	} {
		var stdout, stderr bytes.Buffer
		code := runTest(filepath.Join("..", ".."), []string{c.pkg}, &stdout, &stderr)
		if code != exitUsage || !strings.Contains(stderr.String(), c.want) || stdout.Len() != 0 {
			t.Errorf("weft test %s: exit status %d, stdout %q, stderr %q; want %d and %q", c.pkg, code, stdout.String(), stderr.String(), exitUsage, c.want)
		}
	}
}

// TestRaceBuildFlags checks what -race adds to the build flags: the build
// tag weftrace (merged with the user's tags) and weft's packages without
// instrumentation; nothing without -race.
func TestRaceBuildFlags(t *testing.T) {
	for _, c := range []struct{ in, want []string }{
		{[]string{"-tags=x"}, []string{"-tags=x"}},
		{[]string{"-race"}, []string{"-race", "-tags=weftrace", "-gcflags=github.com/weft-go/weft/...=-race=false", "-gcflags=github.com/weft-go/weft/internal/racemark=", "-gcflags=github.com/weft-go/weft/std/sync/atomic="}},
		{[]string{"-tags=x,y", "-race", "-a"}, []string{"-race", "-a", "-tags=x,y,weftrace", "-gcflags=github.com/weft-go/weft/...=-race=false", "-gcflags=github.com/weft-go/weft/internal/racemark=", "-gcflags=github.com/weft-go/weft/std/sync/atomic="}},
	} {
		if got := raceBuildFlags(c.in); !slices.Equal(got, c.want) {
			t.Errorf("raceBuildFlags(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// TestTestOSExit runs weft test on a test whose goroutine calls os.Exit:
// the test binary ends during the exploration, go test reports no result
// for the test, and weft test says which test was running and why it
// ended, before go test's FAIL line.
func TestTestOSExit(t *testing.T) {
	long.Skip(t, "builds a module with weft test")
	t.Parallel()
	dir := t.TempDir()
	files := map[string]string{
		"go.mod": "module example.com/exits\n\ngo 1.26.0\n",
		"exit_test.go": `package exits

import (
	"os"
	"testing"
)

func TestBefore(t *testing.T) {}

func TestExit(t *testing.T) {
	done := make(chan bool)
	go func() {
		os.Exit(3)
		done <- true
	}()
	<-done
}

func TestAfter(t *testing.T) {}
`,
	}
	out := testModule(t, dir, files, exitFailure)
	want := "=== RUN   TestExit\nweft test: the test binary of example.com/exits exited while TestExit ran, without a result: a call of os.Exit (by the test, the code it tests or a goroutine it started) ends the test binary, and with it the exploration, which cannot report an interleaving; no test after it ran\nFAIL\texample.com/exits\t"
	if !strings.Contains(out, want) || !strings.Contains(out, "--- PASS: TestBefore") || strings.Contains(out, "TestAfter") {
		t.Errorf("output:\n%s\nwant TestBefore passed, then %q, and no TestAfter", out, want)
	}
}

// TestTestJSONHTML runs weft test -json -html on a test that deadlocks:
// the test's fail event carries the failure (WeftFailures) with its
// interleaving, blocked threads, cycle of waits and replay command, and the
// HTML report it names draws a lane per blocked goroutine.
func TestTestJSONHTML(t *testing.T) {
	long.Skip(t, "builds a module with weft test")
	t.Parallel()
	dir, html := t.TempDir(), t.TempDir()
	out := testModuleArgs(t, dir, map[string]string{
		"go.mod": "module example.com/locks\n\ngo 1.26.0\n",
		"locks_test.go": `package locks

import (
	"sync"
	"testing"
)

func TestOrder(t *testing.T) {
	var a, b sync.Mutex
	done := make(chan bool)
	go func() {
		b.Lock()
		a.Lock()
		a.Unlock()
		b.Unlock()
		done <- true
	}()
	a.Lock()
	b.Lock()
	b.Unlock()
	a.Unlock()
	<-done
}
`,
	}, []string{"-json", "-html", html}, exitFailure)
	var fails []failjson.Failure
	for line := range strings.Lines(out) {
		var ev struct {
			Action, Test string
			WeftFailures []failjson.Failure
		}
		if err := json.Unmarshal([]byte(line), &ev); err != nil {
			t.Fatalf("not a JSON event: %q: %v", line, err)
		}
		if ev.Action == "fail" && ev.Test == "TestOrder" {
			fails = ev.WeftFailures
		}
	}
	if len(fails) != 1 {
		t.Fatalf("the fail event of TestOrder carries %d failures, want 1:\n%s", len(fails), out)
	}
	f := fails[0]
	if f.Kind != "deadlock" || f.Test != "TestOrder" || len(f.Interleaving) != 2 || len(f.Blocked) != 2 || len(f.Cycle) != 2 ||
		f.Replay != "weft test example.com/locks -run '^TestOrder$' -replay 'TestOrder="+f.Token+"'" {
		t.Errorf("failure %+v: want a deadlock of TestOrder with 2 steps, 2 blocked threads, a cycle of 2 and the replay command of its package", f)
	}
	for _, s := range f.Interleaving {
		if s.Op != "lock "+s.Object || !strings.HasPrefix(s.At, "locks_test.go:") {
			t.Errorf("step %+v: want a lock of its object at locks_test.go", s)
		}
	}
	page, err := os.ReadFile(f.HTML)
	if err != nil || filepath.Dir(f.HTML) != html {
		t.Fatalf("html report %q (want one in %s): %v", f.HTML, html, err)
	}
	if n := strings.Count(string(page), `<div class="lane stuck"`); n != 2 {
		t.Errorf("the HTML report has %d lanes of blocked threads, want 2", n)
	}
}
