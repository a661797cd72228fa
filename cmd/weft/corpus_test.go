// This file tests weft test on the corpus of ordinary Go programs under
// testdata/corpus: each bug found with its kind at the line its "want"
// comment marks, each fix passing, and replay commands that reproduce.

package main

import (
	"bytes"
	"encoding/json"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/weft-go/weft/internal/long"
)

// corpusDir is the corpus module, from this package's directory.
var corpusDir = filepath.Join("..", "..", "testdata", "corpus")

// want is the failure a corpus test must report.
type want struct {
	kind, loc string // loc: file.go:line
}

// corpusWants reads the "// want TestName: kind" comments of the corpus
// (TestName/subtest for a subtest).
func corpusWants(t *testing.T) map[string]want {
	return corpusMarks(t, regexp.MustCompile(`// want (Test[\w/]+): ([^/]*[^/\s])`))
}

// corpusRaceWants reads the "// want -race TestName: data race" comments
// of the corpus: the bugs only weft test -race finds.
func corpusRaceWants(t *testing.T) map[string]want {
	return corpusMarks(t, regexp.MustCompile(`// want -race (Test[\w/]+): ([^/]*[^/\s])`))
}

// corpusAnyWants reads the "// want -time any TestName: kind" comments of
// the corpus: the failures weft test finds only when time may move at any
// step (-time any).
func corpusAnyWants(t *testing.T) map[string]want {
	return corpusMarks(t, regexp.MustCompile(`// want -time any (Test[\w/]+): ([^/]*[^/\s])`))
}

// corpusMarks reads the want comments of the corpus that mark matches.
func corpusMarks(t *testing.T, mark *regexp.Regexp) map[string]want {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(corpusDir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	wants := map[string]want{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(b), "\n") {
			for _, m := range mark.FindAllStringSubmatch(line, -1) {
				wants[m[1]] = want{kind: m[2], loc: filepath.Base(f) + ":" + strconv.Itoa(i+1)}
			}
		}
	}
	return wants
}

// testRun is what go test -json said about one test.
type testRun struct {
	action string
	output strings.Builder
}

// runCorpus runs weft test -json on the corpus with args and returns each
// test's result and the exit status.
func runCorpus(t *testing.T, args ...string) (map[string]*testRun, int) {
	t.Helper()
	return runModule(t, corpusDir, args...)
}

// runModule runs weft test -json on the module in dir with args, without
// replay files, and returns each test's result and the exit status. It
// sets no environment variable of the process: tests that call it may run
// in parallel.
func runModule(t *testing.T, dir string, args ...string) (map[string]*testRun, int) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := runTestEnv(dir, []string{"WEFT_REPLAY_FILES=0"}, append([]string{"-json", "."}, args...), &stdout, &stderr)
	runs := map[string]*testRun{}
	dec := json.NewDecoder(&stdout)
	for dec.More() {
		var ev event
		if err := dec.Decode(&ev); err != nil {
			t.Fatalf("decoding weft test -json: %v\nstderr:\n%s", err, stderr.String())
		}
		if ev.Test == "" {
			continue
		}
		r := runs[ev.Test]
		if r == nil {
			r = &testRun{}
			runs[ev.Test] = r
		}
		switch ev.Action {
		case "output":
			r.output.WriteString(ev.Output)
		case "pass", "fail", "skip":
			r.action = ev.Action
		}
	}
	if stderr.Len() > 0 {
		t.Logf("stderr:\n%s", stderr.String())
	}
	return runs, code
}

// slowLine starts the line of a report of a failure that needs a goroutine
// to be slower than a timer (found with -time any).
const slowLine = "found with time at any step: it needs a goroutine to be slower than a timer"

var (
	kindLine    = regexp.MustCompile(`weft: (.+?)(?: in (T\d+))? \(execution \d+, \d+ steps[,;)]`)
	messageLoc  = regexp.MustCompile(`^\s+(\S+\.go:\d+): t\.\w+`)
	stepLine    = regexp.MustCompile(`^\s+\d+\s+(T\d+)\s+(.+?)\s+(\S+\.go:\d+)$`)
	blockedLine = regexp.MustCompile(`^\s+(T\d+)\s+.+?\s(\S+\.go:\d+)(\s+\((?:held by|behind waiting writer) T\d+\))?$`)
	replayLine  = regexp.MustCompile(`replay: weft test (?:(-race) )?(\S+) -run '([^']+)' -replay '([^']+)'`)
	stackLine   = regexp.MustCompile(`^\s+(\S+/testdata/corpus/\S+\.go:\d+) \+0x`)
)

// failureOps maps the kinds of Go's misuse panics to the operation that
// raises them.
var failureOps = map[string]string{
	"close of closed channel":    "close",
	"send on closed channel":     "send",
	"negative WaitGroup counter": "wg.add",
	"WaitGroup misuse":           "wg.wait",
	"unlock of unlocked mutex":   "unlock",
}

// failureAt returns the kind of the report in out and the locations of its
// failing operation: the call of t's method for an assertion, the blocked
// operations of a deadlock or a leak, the failing thread's last step of
// the operation that panicked for a misuse, the innermost frame of the
// corpus in the stack of a panic.
func failureAt(out string) (kind string, locs []string) {
	m := kindLine.FindStringSubmatch(out)
	if m == nil {
		return "", nil
	}
	kind, thread := m[1], m[2]
	section := ""
	var last string
	for i, line := range strings.Split(out[strings.Index(out, m[0]):], "\n") {
		switch strings.TrimSpace(line) {
		case "interleaving:", "blocked:":
			section = strings.TrimSpace(line)
			continue
		}
		switch {
		case kind == "panic" && section == "" && len(locs) == 0:
			if mm := stackLine.FindStringSubmatch(line); mm != nil {
				locs = append(locs, filepath.Base(mm[1]))
			}
		case i == 1 && kind == "assertion":
			if mm := messageLoc.FindStringSubmatch(line); mm != nil {
				locs = append(locs, mm[1])
			}
		case section == "interleaving:":
			if mm := stepLine.FindStringSubmatch(line); mm != nil && mm[1] == thread && isOp(mm[2], failureOps[kind]) {
				last = mm[3]
			}
		case section == "blocked:" && (kind == "deadlock" || kind == "leak"):
			if mm := blockedLine.FindStringSubmatch(line); mm != nil {
				locs = append(locs, mm[2])
			}
		}
	}
	if last != "" && failureOps[kind] != "" {
		locs = append(locs, last)
	}
	return kind, locs
}

// The corpus's size: bugs (want comments, one a bug test), and the tests
// and subtests that run, each bug's test and its fix's.
const (
	corpusBugs = 47
	// 104 Test functions; TestSearch* 3 subtests each, TestSumSquares* 2,
	// TestLedger* 2, TestStats* 3 (on two levels).
	corpusRuns = 124
	// corpusRaceBugs have a "want -race" comment: only weft test -race
	// finds them (an unsynchronised map, a counter, a plain store to a
	// word that is added to atomically).
	corpusRaceBugs = 3
	// corpusAnyWants have a "want -time any" comment: two timeout races,
	// and four tests that assume a goroutine runs within some virtual
	// time (see the corpus's doc.go).
	corpusAnyBugs = 6
)

// corpusCounts reads the want comments of the corpus and checks their
// numbers.
func corpusCounts(t *testing.T) (wants, raceWants, anyWants map[string]want) {
	t.Helper()
	wants = corpusWants(t)
	if len(wants) != corpusBugs {
		t.Fatalf("%d want comments in the corpus, want %d", len(wants), corpusBugs)
	}
	raceWants = corpusRaceWants(t)
	if len(raceWants) != corpusRaceBugs {
		t.Fatalf("%d want -race comments in the corpus, want %d", len(raceWants), corpusRaceBugs)
	}
	anyWants = corpusAnyWants(t)
	if len(anyWants) != corpusAnyBugs {
		t.Fatalf("%d want -time any comments in the corpus, want %d", len(anyWants), corpusAnyBugs)
	}
	return wants, raceWants, anyWants
}

// TestCorpus runs weft test on the corpus with its default, -time blocked:
// every bug is found, with its kind, at the line of the operation its want
// comment marks (in the original file), and every fixed version passes; a
// subtest with no want comment passes, and a test whose subtest has one
// fails; a bug only the race detector, or time at any step, finds passes.
// The replay command of a subtest's failure (which runs its parent and
// it) reproduces it.
func TestCorpus(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the corpus module with weft test")
	}
	t.Parallel()
	wants, raceWants, anyWants := corpusCounts(t)
	runs, code := runCorpus(t)
	checkCorpus(t, "-time blocked (the default)", runs, code, wants, raceWants, anyWants)
	for name, r := range runs {
		if strings.Contains(r.output.String(), slowLine) {
			t.Errorf("-time blocked: %s: a report says %q:\n%s", name, slowLine, r.output.String())
		}
	}
	checkReplays(t, runs, wants, []string{"TestSearchBug/two_parts"})
}

// TestCorpusAnyTime runs weft test on the corpus with -time any: the "want
// -time any" comments add failures and replace the "want" ones of their
// tests, and their reports say that they need a goroutine slower than a
// timer; every other test fares as with the default. With WEFT_LONG=1,
// the replay commands of one failure of each shape, failures found only
// with time at any step among them, reproduce (each replay builds the
// corpus again).
func TestCorpusAnyTime(t *testing.T) {
	long.Skip(t, "builds and runs the corpus module with weft test")
	t.Parallel()
	wants, raceWants, anyWants := corpusCounts(t)
	anyTime := maps.Clone(wants)
	maps.Copy(anyTime, anyWants)
	runs, code := runCorpus(t, "-time", "any")
	checkCorpus(t, "-time any", runs, code, anyTime, raceWants, nil)
	for name := range anyWants {
		if r := runs[name]; r != nil && !strings.Contains(r.output.String(), slowLine) {
			t.Errorf("-time any: %s: the report does not say %q:\n%s", name, slowLine, r.output.String())
		}
	}
	if !long.Enabled() {
		return
	}
	checkReplays(t, runs, anyTime, []string{"TestTransferBug", "TestCacheBug", "TestQueueBug", "TestSearchBug/two_parts", "TestHeartbeatBug", "TestQueryBug",
		"TestStatsBug/concurrent/one_writer", "TestLockPairBug", "TestAnswerBug", "TestGatherBug", "TestLookupFixed"})
}

// checkReplays runs the replay command of each of the tests names, from
// the output of runs of the corpus: each reproduces the failure that
// wants gives the test (with a subtest, its parent fails too).
func checkReplays(t *testing.T, runs map[string]*testRun, wants map[string]want, names []string) {
	t.Helper()
	for _, name := range names {
		r := runs[name]
		if r == nil {
			t.Errorf("%s did not run", name)
			continue
		}
		m := replayLine.FindStringSubmatch(r.output.String())
		if m == nil {
			t.Errorf("%s: no replay command in:\n%s", name, r.output.String())
			continue
		}
		again, code := runCorpus(t, "-run", m[3], "-replay", m[4])
		levels := strings.Count(name, "/") + 1
		if code != exitFailure || len(again) != levels || again[name] == nil {
			t.Errorf("%s: replay %q: exit status %d, %d tests, want %d and %d tests", name, m[4], code, len(again), exitFailure, levels)
			continue
		}
		if k, _ := failureAt(again[name].output.String()); k != wants[name].kind {
			t.Errorf("%s: the replay reports %q, want %q:\n%s", name, k, wants[name].kind, again[name].output.String())
		}
	}
}

// checkCorpus checks the runs of weft test on the corpus with flags
// (mode), which exited with code: the tests of wants fail as they say,
// those of raceWants and of passing (which have no want) pass, and so
// does every other test, a fixed version or one whose subtests pass.
func checkCorpus(t *testing.T, mode string, runs map[string]*testRun, code int, wants, raceWants, passing map[string]want) {
	t.Helper()
	if code != exitFailure {
		t.Errorf("%s: exit status %d, want %d", mode, code, exitFailure)
	}
	if len(runs) != corpusRuns {
		t.Errorf("%s: %d tests and subtests ran, want %d", mode, len(runs), corpusRuns)
	}
	for name, r := range runs {
		out := r.output.String()
		top, _, _ := strings.Cut(name, "/")
		w, bug := wants[name]
		_, raceBug := raceWants[name]
		_, pass := passing[name]
		switch {
		case raceBug || pass && !bug:
			if r.action != "pass" {
				t.Errorf("%s: %s (a bug only the race detector, or time at any step, finds): %s, want pass:\n%s", mode, name, r.action, out)
			}
		case !bug && !strings.HasSuffix(top, "Fixed") && !hasSubtestWant(wants, top):
			t.Errorf("%s: %s: neither a want comment nor a Fixed name", mode, name)
		case !bug && hasSubtestWant(wants, name):
			if r.action != "fail" {
				t.Errorf("%s: %s (a test whose subtest has a bug): %s, want fail:\n%s", mode, name, r.action, out)
			}
		case !bug:
			if r.action != "pass" {
				t.Errorf("%s: %s (a fixed version, or a case without the bug): %s, want pass:\n%s", mode, name, r.action, out)
			}
		default:
			if r.action != "fail" {
				t.Errorf("%s: %s: %s, want a failure %s at %s:\n%s", mode, name, r.action, w.kind, w.loc, out)
				continue
			}
			kind, locs := failureAt(out)
			if kind != w.kind {
				t.Errorf("%s: %s: failure %q, want %q:\n%s", mode, name, kind, w.kind, out)
			}
			if !slices.Contains(locs, w.loc) {
				t.Errorf("%s: %s: failing operation at %v, want %s:\n%s", mode, name, locs, w.loc, out)
			}
		}
	}
}

// hasSubtestWant reports whether the test named name has a subtest, at any
// depth, with a want comment.
func hasSubtestWant(wants map[string]want, name string) bool {
	for w := range wants {
		if strings.HasPrefix(w, name+"/") {
			return true
		}
	}
	return false
}

// isOp reports whether the step's operation desc is an op: "wg.add(-1)
// waitgroup#0" is a wg.add, "send chan#1" a send.
func isOp(desc, op string) bool {
	rest, ok := strings.CutPrefix(desc, op)
	return ok && op != "" && (strings.HasPrefix(rest, " ") || strings.HasPrefix(rest, "("))
}

// corpusRaced are the tests of the corpus whose output holds a report of
// the race detector under weft test -race: the bugs only it finds, and
// three bugs whose accesses race besides (DebouncerBug's timer field, the
// loop variables of SumSquaresBug's and GreetBug's Go 1.21 loops).
var corpusRaced = []string{"TestDebouncerBug", "TestGaugeBug", "TestGreetBug", "TestSumSquaresBug/three", "TestVisitsBug", "TestWordCountBug"}

var (
	unnamedGoroutine = regexp.MustCompile(`(?m) by goroutine \d+:$`)
	visitsRead       = regexp.MustCompile(`(?m)^Read at 0x[0-9a-f]+ by goroutine \d+ \(weft T2\):$`)
	visitsWrite      = regexp.MustCompile(`(?m)^Previous write at 0x[0-9a-f]+ by goroutine \d+ \(weft T1\):$`)
)

// TestCorpusRace runs weft test -race on the corpus: each bug only the race
// detector finds fails as a data race whose report names the line its
// want comment marks, every other bug (but those of time at any step,
// which weft test's default does not find) still fails, no fixed version
// (nor any other test) has a race report, and the replay command of a
// data race reproduces it (another build). Its -race build and run, the
// longest test of the package, runs with WEFT_LONG=1 only.
func TestCorpusRace(t *testing.T) {
	long.Skip(t, "builds and runs the corpus module with weft test -race")
	if out, err := exec.Command("go", "env", "CGO_ENABLED").Output(); err != nil || strings.TrimSpace(string(out)) != "1" {
		t.Skip("-race needs cgo")
	}
	t.Parallel()
	// weft test's default, time that moves when every goroutine is
	// blocked: the failures of time at any step are not found.
	wants, raceWants := corpusWants(t), corpusRaceWants(t)
	runs, code := runCorpus(t, "-race")
	if code != exitFailure {
		t.Errorf("exit status %d, want %d", code, exitFailure)
	}
	if len(runs) != corpusRuns {
		t.Errorf("%d tests and subtests ran, want %d", len(runs), corpusRuns)
	}
	var raced []string
	for name, r := range runs {
		out := r.output.String()
		if strings.Contains(out, "WARNING: DATA RACE") {
			raced = append(raced, name)
			// Every goroutine of the corpus's races is one of weft's
			// threads, and named so.
			if strings.Contains(out, "created at:") || unnamedGoroutine.MatchString(out) {
				t.Errorf("%s: a race report with a goroutine not named as weft's thread:\n%s", name, out)
			}
		}
		top, _, _ := strings.Cut(name, "/")
		_, bug := wants[name]
		w, raceBug := raceWants[name]
		switch {
		case raceBug:
			kind, _ := failureAt(out)
			if r.action != "fail" || kind != w.kind || !strings.Contains(out, "/testdata/corpus/"+w.loc+" +0x") {
				t.Errorf("%s: %s, %q; want a failure %q with a race report at %s:\n%s", name, r.action, kind, w.kind, w.loc, out)
			}
		case bug:
			if r.action != "fail" {
				t.Errorf("%s: %s, want fail:\n%s", name, r.action, out)
			}
		case strings.HasSuffix(top, "Fixed") && r.action != "pass":
			t.Errorf("%s (a fixed version): %s, want pass:\n%s", name, r.action, out)
		}
	}
	slices.Sort(raced)
	if !slices.Equal(raced, corpusRaced) {
		t.Errorf("tests with a race report: %v, want %v", raced, corpusRaced)
	}
	// TestVisitsBug's two handlers race: T2's read after T1's write.
	visits := runs["TestVisitsBug"].output.String()
	for _, re := range []*regexp.Regexp{visitsRead, visitsWrite} {
		if !re.MatchString(visits) {
			t.Errorf("TestVisitsBug: no line matching %s in:\n%s", re, visits)
		}
	}
	m := replayLine.FindStringSubmatch(visits)
	if m == nil || m[1] != "-race" {
		t.Fatalf("TestVisitsBug: no replay command with -race in:\n%s", runs["TestVisitsBug"].output.String())
	}
	if !long.Enabled() {
		t.Logf("not replaying %s: the replay builds the corpus with -race again; %s=1 runs it", m[4], long.Env)
		return
	}
	again, code := runCorpus(t, "-race", "-run", m[3], "-replay", m[4])
	if r := again["TestVisitsBug"]; code != exitFailure || r == nil || !strings.Contains(r.output.String(), "WARNING: DATA RACE") {
		t.Fatalf("replay %q: exit status %d, runs %v; want %d and a race report", m[4], code, again, exitFailure)
	}
	if k, _ := failureAt(again["TestVisitsBug"].output.String()); k != "data race" {
		t.Errorf("the replay reports %q, want %q", k, "data race")
	}
}
