// This file tests weft test's parity with go test: go test's flags reach
// it, results are not cached, bounds have weft's meaning (-max-steps,
// -keep-going, -strict, an inconclusive exploration), and progress lines
// go to a terminal.

package main

import (
	"bytes"
	"encoding/json"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/weft-go/weft/internal/long"
)

// TestParseTestArgsGoTest checks where go test's flags and weft's bounds
// go: go test's to go test as given, weft's to the environment.
func TestParseTestArgsGoTest(t *testing.T) {
	o, err := parseTestArgs([]string{"-count", "3", "-failfast", "-short", "-list=Test", "-shuffle", "on", "-vet=off", "-cover",
		"-coverprofile", "c.out", "-go-timeout", "1m", "-max-steps", "500", "-keep-going", "-strict", "-replay-files", "check", "."})
	if err != nil {
		t.Fatal(err)
	}
	wantGo := []string{"-count=3", "-failfast", "-short", "-list=Test", "-shuffle=on", "-vet=off", "-cover", "-coverprofile=c.out", "-timeout=1m"}
	wantEnv := []string{"WEFT_MAX_STEPS=500", "WEFT_KEEP_GOING=1", "WEFT_REPLAY_FILES=check"}
	if !slices.Equal(o.goFlags, wantGo) || !slices.Equal(o.env, wantEnv) || !o.strict || len(o.buildFlags) != 0 {
		t.Errorf("go flags %q, env %q, strict %v, build flags %q; want %q, %q, true, none", o.goFlags, o.env, o.strict, o.buildFlags, wantGo, wantEnv)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-max-steps", "0"}, `-max-steps "0": want a positive number`},
		{[]string{"-go-timeout", "soon"}, `-go-timeout "soon": want a duration`},
		{[]string{"-strict=maybe"}, `-strict="maybe": want true or false`},
		{[]string{"-replay-files", "sometimes"}, `-replay-files "sometimes": want on, off, check or update`},
		{[]string{"-bench", "."}, "-bench: go test's flag for benchmarks, fuzzing or profiles, which weft test does not run"},
	} {
		if _, err := parseTestArgs(c.args); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("weft test %q: error %v, want %q", c.args, err, c.want)
		}
	}
}

// parityFiles is a module whose tests run quickly (TestQuick), skip under
// -short (TestShort), and explore 5,040 executions (TestBig: seven
// goroutines that take a lock in turn).
var parityFiles = map[string]string{
	"go.mod": "module example.com/par\n\ngo 1.26.0\n",
	"par_test.go": `package par

import (
	"sync"
	"testing"
)

func work(n int) int {
	var mu sync.Mutex
	var wg sync.WaitGroup
	total := 0
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			mu.Lock()
			total += i
			mu.Unlock()
		}()
	}
	wg.Wait()
	return total
}

func TestQuick(t *testing.T) {
	if work(2) != 1 {
		t.Error("wrong total")
	}
}

func TestShort(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	work(2)
}

func TestBig(t *testing.T) {
	work(7)
}
`,
}

// parityCase is a run of weft test on parityFiles: its arguments, its
// exit status and what its output must (and must not) hold.
type parityCase struct {
	args    []string
	code    int
	want    []string
	notWant []string
	// passes is how many times "--- PASS: TestQuick" must appear (-1:
	// not checked).
	passes int
	// long marks the cases that run only with WEFT_LONG=1: each builds
	// the module again (seconds each under load).
	long bool
}

// TestTestGoTestFlags runs weft test with go test's flags on parityFiles.
func TestTestGoTestFlags(t *testing.T) {
	long.Skip(t, "runs weft test and go test fourteen times on one module")
	runParity(t, []parityCase{
		// Twice the same command: the second explores again.
		{[]string{"-v", "-run", "TestQuick"}, exitOK, []string{"executions 5 (complete 5"}, []string{"(cached)"}, 1, false},
		{[]string{"-v", "-run", "TestQuick"}, exitOK, []string{"executions 5 (complete 5"}, []string{"(cached)"}, 1, false},
		{[]string{"-v", "-run", "TestQuick", "-count", "2"}, exitOK, nil, nil, 2, true},
		{[]string{"-list", "."}, exitOK, []string{"TestQuick\nTestShort\nTestBig\n"}, []string{"executions"}, 0, false},
		{[]string{"-v", "-short", "-run", "TestShort"}, exitOK, []string{"--- SKIP: TestShort", "short"}, nil, 0, true},
		{[]string{"-run", "TestQuick", "-cover", "-failfast", "-shuffle", "on", "-vet=off"}, exitOK, []string{"coverage: "}, nil, -1, true},
	})
}

// TestTestBounds runs weft test with -max-runs on parityFiles: an
// exploration the bound stopped passes, but exits 3 with -strict.
func TestTestBounds(t *testing.T) {
	runParity(t, []parityCase{
		{[]string{"-v", "-run", "TestBig", "-max-runs", "3"}, exitOK, []string{"executions 3 (complete 3", "--- PASS: TestBig"}, nil, 0, true},
		{[]string{"-run", "TestBig", "-max-runs", "3", "-strict"}, exitTimeout, []string{"-strict: no failure, but an exploration was stopped by a bound"}, []string{"FAIL"}, 0, false},
	})
}

// TestTestTimeoutBound runs weft test with -timeout on parityFiles: an
// exploration stopped before its first execution ended is inconclusive.
func TestTestTimeoutBound(t *testing.T) {
	runParity(t, []parityCase{
		{[]string{"-run", "TestBig", "-timeout", "1ns"}, exitInconclusive, []string{"weft: inconclusive: timeout 1ns expired", "--- INCONCLUSIVE: TestBig"}, []string{"FAIL", "--- SKIP"}, 0, false},
		{[]string{"-run", "TestBig", "-timeout", "1ns", "-strict"}, exitTimeout, []string{"--- INCONCLUSIVE: TestBig"}, []string{"FAIL"}, 0, true},
		{[]string{"-run", "TestBig", "-timeout", "10m"}, exitOK, nil, []string{"FAIL"}, 0, true},
	})
}

// TestTestStepBound runs weft test with -max-steps on parityFiles: each
// execution reaches the step bound, which proves nothing, and the
// exploration goes on after each: the test is inconclusive, with or
// without -keep-going, and -strict exits with status 3 for it.
func TestTestStepBound(t *testing.T) {
	runParity(t, []parityCase{
		{[]string{"-run", "TestQuick", "-max-steps", "2"}, exitInconclusive, []string{"weft: step bound reached, a possible livelock", "failing 0, at the step bound 2)", "--- INCONCLUSIVE: TestQuick"}, []string{"FAIL"}, 0, true},
		{[]string{"-run", "TestQuick", "-max-steps", "2", "-keep-going"}, exitInconclusive, []string{"weft: step bound reached, a possible livelock", "failing 0, at the step bound 2)", "--- INCONCLUSIVE: TestQuick"}, []string{"FAIL"}, 0, false},
		{[]string{"-run", "TestQuick", "-max-steps", "2", "-strict"}, exitTimeout, []string{"weft: step bound reached, a possible livelock", "--- INCONCLUSIVE: TestQuick"}, []string{"FAIL"}, 0, true},
	})
}

// runParity runs the cases on parityFiles, in a directory of their own,
// in parallel with other tests.
func runParity(t *testing.T, cases []parityCase) {
	if testing.Short() {
		t.Skip("builds a module with weft test")
	}
	t.Parallel()
	dir := t.TempDir()
	writeFiles(t, dir, parityFiles)
	for _, c := range cases {
		if c.long && !long.Enabled() {
			continue
		}
		code, out := weftTest(dir, "off", c.args...)
		bad := code != c.code
		for _, w := range c.want {
			bad = bad || !strings.Contains(out, w)
		}
		for _, w := range c.notWant {
			bad = bad || strings.Contains(out, w)
		}
		if c.passes >= 0 && strings.Count(out, "--- PASS: TestQuick") != c.passes {
			bad = true
		}
		if bad {
			t.Errorf("weft test %q: exit status %d, want %d, output with %q, without %q, %d passes of TestQuick:\n%s", c.args, code, c.code, c.want, c.notWant, c.passes, out)
		}
	}
}

// TestProgressLines feeds printEvents the events of a test that printed
// progress lines: they go to the terminal, each in place of the one
// before, and the line is cleared before the next output; none reaches
// the output or the test's held output.
func TestProgressLines(t *testing.T) {
	var in bytes.Buffer
	enc := json.NewEncoder(&in)
	for _, ev := range []event{
		{Action: "run", Package: "p", Test: "TestX"},
		{Action: "output", Package: "p", Test: "TestX", Output: "=== RUN   TestX\n"},
		{Action: "output", Package: "p", Test: "TestX", Output: "weft-progress: TestX: 1000 executions, 1000/s, 1s\n"},
		{Action: "output", Package: "p", Test: "TestX", Output: "weft-progress: TestX: 2100 executions, 1050/s, 2s\n"},
		{Action: "output", Package: "p", Test: "TestX", Output: "--- FAIL: TestX (2.10s)\n"},
		{Action: "fail", Package: "p", Test: "TestX"},
	} {
		if err := enc.Encode(ev); err != nil {
			t.Fatal(err)
		}
	}
	var out, term bytes.Buffer
	printEvents(&in, &out, &term, &testOptions{}, "")
	wantTerm := "\r\x1b[KTestX: 1000 executions, 1000/s, 1s\r\x1b[KTestX: 2100 executions, 1050/s, 2s\r\x1b[K"
	if term.String() != wantTerm || out.String() != "--- FAIL: TestX (2.10s)\n" {
		t.Errorf("terminal %q, output %q; want %q and the FAIL line alone", term.String(), out.String(), wantTerm)
	}
	if regexp.MustCompile(`weft-progress`).MatchString(out.String()) {
		t.Errorf("a progress line reached the output")
	}
}
