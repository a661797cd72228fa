// This file tests weft test on executions that reach the step bound
// (testdata/bound, with -max-steps 2000): a bound hit proves nothing, so
// a test whose failing executions all reached it is INCONCLUSIVE (exit
// status 4), with the first one's report and, when its last steps repeat
// a short cycle, that hint; a test with a real failure besides fails, and
// its output reports both. weft run on such a program is inconclusive too.

package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/weft-go/weft/internal/long"
)

// boundDir is the module of the step bound tests.
var boundDir = filepath.Join("testdata", "bound")

// boundCase is a run of weft test on boundDir: its arguments, its exit
// status, the lines its output must hold (each whole, spaces trimmed, or
// its start if it ends with "..."), and what it must not hold.
type boundCase struct {
	args    []string
	code    int
	lines   []string
	notWant []string
	// hints is the number of cycle hints the output must hold.
	hints int
}

// boundMessage is the message of a bound hit's report at 2000 steps.
const boundMessage = "the execution reached the step bound (2000 steps) without ending: weft cannot tell a loop that ends after more steps from one that never ends, so this is no failure of the test, and no pass; raise the bound (WithMaxSteps, weft test -max-steps) if the test is just long, or make the test smaller (fewer iterations)"

// TestTestStepBoundVerdicts runs weft test on testdata/bound. TestLongLoop
// adds to an atomic counter 5,000 times and ends: its one execution (its
// goroutine's adds are the only steps) reaches the bound at the 2000th
// add, with no cycle, as each add writes a new value. TestSpin's two
// goroutines wait, yielding, for a flag nobody sets: each of its
// executions reaches the bound, and the exploration stops at the tenth
// (the eleventh, begun, is cut by the strategy), its last steps a cycle
// of 12 lock and unlock steps. Both are INCONCLUSIVE, and weft test exits
// with status 4 (3 with -strict). TestFailAndSpin spins in its first
// execution and fails an assertion in its third: it fails, with both
// reports, and the bound hit writes no replay file.
func TestTestStepBoundVerdicts(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a module with weft test")
	}
	t.Parallel()
	cases := []boundCase{
		{
			args: []string{"-v", "-max-steps", "2000", "-run", "TestLongLoop|TestSpin"},
			code: exitInconclusive,
			lines: []string{
				"bound_test.go:15: weft: strategy optimal, executions 1 (complete 0, cut 0, failing 0, at the step bound 1), final states 0, wall ...",
				"bound_test.go:15: weft: 1 execution reached the step bound (2000 steps) without ending, the first of them:",
				"weft: step bound reached, a possible livelock (execution 1, 2000 steps)",
				boundMessage,
				"2000  T1   addonly n = 2000                  bound_test.go:20",
				"replay: weft test example.com/bound -run '^TestLongLoop$' -replay 'TestLongLoop=...",
				"bound_test.go:15: weft: inconclusive: 1 execution reached the step bound (2000 steps) without ending, and no execution failed otherwise: weft cannot tell a loop that ends after more steps from one that never ends; raise the bound (WithMaxSteps, weft test -max-steps) if the test is just long, or make the test smaller",
				"--- INCONCLUSIVE: TestLongLoop ...",
				"bound_test.go:32: weft: strategy optimal, executions 11 (complete 0, cut 1, failing 0, at the step bound 10), final states 0, wall ...",
				"bound_test.go:32: weft: 10 executions reached the step bound (2000 steps) without ending, the first of them:",
				"the last 1,996 steps repeat a cycle of 12 steps (the same threads, operations, objects and values): a hint of an endless loop, not a proof (a loop that counts in a local variable repeats so and ends)",
				"bound_test.go:32: weft: inconclusive: 10 executions reached the step bound (2000 steps) without ending, and no execution failed otherwise: weft cannot tell a loop that ends after more steps from one that never ends; raise the bound (WithMaxSteps, weft test -max-steps) if the test is just long, or make the test smaller",
				"--- INCONCLUSIVE: TestSpin ...",
				"weft test: no failure, but a test is INCONCLUSIVE: its exploration was stopped before its first execution ended, or its failing executions all reached the step bound (-max-steps) or blocked outside weft's control, or its only failure may come from state the body keeps between executions",
			},
			notWant: []string{"FAIL", "--- SKIP", "replay file:"},
			hints:   1, // TestSpin's
		},
		{
			args: []string{"-max-steps", "2000", "-run", "TestFailAndSpin", "-replay-files", "on"},
			code: exitFailure,
			lines: []string{
				"bound_test.go:57: weft: strategy optimal, executions 3 (complete 0, cut 1, failing 1, at the step bound 1), final states 0, wall ...",
				"bound_test.go:57: weft: assertion in T0 (execution 3, 4 steps, 1 switch; shortened from 4 steps, 3 switches)",
				"bound_test.go:78: t.Error: the goroutine set the flag first",
				"bound_test.go:57: weft: besides, 1 execution reached the step bound (2000 steps) without ending (inconclusive in itself), the first of them:",
				"weft: step bound reached, a possible livelock (execution 1, 2000 steps)",
				boundMessage,
				"the last 1,975 steps repeat a cycle of 2 steps (the same threads, operations, objects and values): a hint of an endless loop, not a proof (a loop that counts in a local variable repeats so and ends)",
				"--- FAIL: TestFailAndSpin ...",
			},
			notWant: []string{"INCONCLUSIVE", "weft: inconclusive"},
			hints:   1,
		},
	}
	if long.Enabled() {
		cases = append(cases, boundCase{
			args:  []string{"-max-steps", "2000", "-run", "TestLongLoop", "-strict"},
			code:  exitTimeout,
			lines: []string{"--- INCONCLUSIVE: TestLongLoop ...", "weft test: -strict: no failure, but an exploration was stopped by a bound before it finished (-v shows which)"},
		})
	}
	// A copy of the module, where the failure's replay file goes.
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS(boundDir)); err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		code, out := weftTest(dir, "off", c.args...)
		if code != c.code {
			t.Errorf("weft test %q: exit status %d, want %d:\n%s", c.args, code, c.code, out)
		}
		for _, l := range c.lines {
			if !hasLine(out, l) {
				t.Errorf("weft test %q: output lacks the line %q:\n%s", c.args, l, out)
			}
		}
		for _, w := range c.notWant {
			if strings.Contains(out, w) {
				t.Errorf("weft test %q: output holds %q:\n%s", c.args, w, out)
			}
		}
		if !strings.Contains(out, "' -max-steps 2000\n") {
			t.Errorf("weft test %q: no replay command with -max-steps 2000:\n%s", c.args, out)
		}
		hints := 0
		for l := range strings.SplitSeq(out, "\n") {
			if cycleHint.MatchString(strings.TrimSpace(l)) {
				hints++
			}
		}
		if hints != c.hints {
			t.Errorf("weft test %q: %d cycle hints, want %d:\n%s", c.args, hints, c.hints, out)
		}
	}
	// The assertion's replay file, and none for the bound hit.
	files, err := os.ReadDir(filepath.Join(dir, "testdata", "weft", "TestFailAndSpin"))
	if err != nil || len(files) != 1 {
		t.Fatalf("replay files of TestFailAndSpin: %v, %v; want one", files, err)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "testdata", "weft", "TestFailAndSpin", files[0].Name())); err != nil || !strings.Contains(string(b), "kind: assertion\n") {
		t.Errorf("replay file of TestFailAndSpin: %q, %v; want the assertion's", b, err)
	}
}

// hasLine reports whether out holds the line want, spaces around it
// trimmed, or, if want ends with "...", a line that starts with the rest.
func hasLine(out, want string) bool {
	prefix, isPrefix := strings.CutSuffix(want, "...")
	for l := range strings.SplitSeq(out, "\n") {
		l = strings.TrimSpace(l)
		if l == want || isPrefix && strings.HasPrefix(l, prefix) {
			return true
		}
	}
	return false
}

// cycleHint matches the hint of a bound hit's report that its last steps
// repeat a cycle.
var cycleHint = regexp.MustCompile(`^the last [0-9,]+ steps repeat a cycle of (1 step|\d+ steps) `)

// TestRunStepBound runs weft run on readloop (T1 loads a variable 100
// times) with a bound of 20 steps: every execution reaches it, the run
// stops at the tenth, and is inconclusive (exit status 4), with the
// report of the first, whose last 19 steps are T1's loads; with
// -keep-going it runs the 21 executions that differ in the first 20 steps
// (T2's store at each of them, or none), each at the bound, and is not
// exhaustive: what they do after the bound is unexplored.
func TestRunStepBound(t *testing.T) {
	code, stdout, stderr := runCmd(t, "run", "-max-steps", "20", "-p", "m=100", "readloop")
	if code != exitInconclusive {
		t.Fatalf("exit status %d, want %d; stderr:\n%s", code, exitInconclusive, stderr)
	}
	for _, want := range []string{
		"weft: step bound reached, a possible livelock (execution 1, 20 steps)",
		"the last 19 steps repeat a cycle of 1 step (the same threads, operations, objects and values): a hint of an endless loop, not a proof (a loop that counts in a local variable repeats so and ends)",
		"replay: weft replay -max-steps 20 readloop m=100:...",
		"executions    10 (stopped at the tenth execution that reached the step bound; -keep-going continues)",
		"failures      10 (livelock 10)",
	} {
		if !hasLine(stdout, want) {
			t.Errorf("weft run: output lacks the line %q:\n%s", want, stdout)
		}
	}
	if want := "weft run: no failure, but the run is INCONCLUSIVE: its failing executions all reached the step bound (-max-steps)\n"; stderr != want {
		t.Errorf("weft run: stderr %q, want %q", stderr, want)
	}
	s := decodeSummary(t, exitInconclusive, "-max-steps", "20", "-p", "m=100", "-keep-going", "readloop")
	if s.Stopped != "incomplete" || s.Executions != 21 || s.FailureCounts["livelock"] != 21 || s.Exhausted ||
		s.Incomplete != "21 executions reached the step bound (20 steps): what they do after it is unexplored" {
		t.Errorf("-keep-going: stopped %q, executions %d, failures %v, exhausted %v, incomplete %q; want incomplete, 21, 21 livelocks, not exhausted",
			s.Stopped, s.Executions, s.FailureCounts, s.Exhausted, s.Incomplete)
	}
}
