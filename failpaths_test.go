// This file tests the failure paths of Check and Replay: the replay command
// of a failing subtest, a WEFT_REPLAY token tied to its test, and the
// reports of a replay that diverged from its recorded execution.

package weft_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/weft-go/weft"
	"github.com/weft-go/weft/trace"
)

// storeBody stores once: one step, one thread. Replaying raceBody's tokens
// on it diverges at once.
func storeBody(w *weft.T) {
	var x weft.Var[int]
	x.Store(1)
}

// raceToken returns the token of raceBody's failure (exhaustive: the
// schedule [T1 store, T0 load]).
func raceToken(t *testing.T) string {
	t.Helper()
	r := explore(t, raceBody, weft.NoReplayFiles())
	if len(r.Failures) != 1 {
		t.Fatalf("raceBody: failures %v, want one", r.FailureCounts)
	}
	return r.Failures[0].Token
}

// TestReplayCommandAnchorsEachLevel checks the replay command of Check's
// report: the token is tied to the test's full name, and the -run pattern
// anchors and quotes each level of it, for the shell too.
func TestReplayCommandAnchorsEachLevel(t *testing.T) {
	t.Chdir(t.TempDir())
	tests := []struct{ name, value, pattern string }{
		{"TestTop", `'TestTop=TOK'`, `'^TestTop$'`},
		{"TestTop/bad", `'TestTop/bad=TOK'`, `'^TestTop$/^bad$'`},
		{"TestTop/n=3_(x)/it's_#01", `'TestTop/n=3_(x)/it'\''s_#01=TOK'`, `'^TestTop$/^n=3_\(x\)$/^it'\''s_#01$'`},
		{"TestTop/a.b|c/[d]", `'TestTop/a.b|c/[d]=TOK'`, `'^TestTop$/^a\.b\|c$/^\[d\]$'`},
	}
	for _, tc := range tests {
		ft := &fakeTB{TB: t, name: tc.name}
		r := weft.Check(ft, raceBody, weft.NoReplayFiles())
		if len(ft.errors) != 1 || len(ft.fatals) != 0 || len(r.Failures) != 1 {
			t.Fatalf("%s: errors %q, fatals %q; want one error", tc.name, ft.errors, ft.fatals)
		}
		tok := r.Failures[0].Token
		want := "\nreplay: WEFT_REPLAY=" + strings.ReplaceAll(tc.value, "TOK", tok) + " go test . -run " + tc.pattern + "\n"
		if !strings.HasSuffix(ft.errors[0], want) {
			t.Errorf("%s: the report does not end with %q:\n%s", tc.name, want, ft.errors[0])
		}
	}
}

// childEnv makes TestReplayCommandChild run: TestReplayCommandRunsOneSubtest
// runs it in a child process.
const childEnv = "WEFT_TEST_REPLAY_CHILD"

// TestReplayCommandChild is run by TestReplayCommandRunsOneSubtest: its
// own Check and subtest good pass, subtest bad fails.
func TestReplayCommandChild(t *testing.T) {
	if os.Getenv(childEnv) != "1" {
		t.Skip("run by TestReplayCommandRunsOneSubtest")
	}
	weft.Check(t, storeBody, weft.NoReplayFiles())
	t.Run("good", func(t *testing.T) { weft.Check(t, storeBody, weft.NoReplayFiles()) })
	t.Run("bad", func(t *testing.T) { weft.Check(t, raceBody, weft.NoReplayFiles()) })
}

// replayLine matches the replay command of a report; test names here hold
// no quote.
var replayLine = regexp.MustCompile(`(?m)^\s*replay: WEFT_REPLAY='([^']*)' go test \. -run '([^']*)'$`)

// TestReplayCommandRunsOneSubtest runs the test binary as the command of a
// failing subtest's report says: only that subtest runs and fails, with the
// replayed failure, while the parent's own Check, which -run must let run,
// explores (the token is not its own) and passes. Before, the command
// named the top-level test, and every sibling and the parent replayed the
// token and failed with a divergence.
func TestReplayCommandRunsOneSubtest(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Skipf("no test binary to run: %v", err)
	}
	run := func(replayValue, pattern string) (string, int) {
		t.Helper()
		cmd := exec.Command(exe, "-test.run", pattern, "-test.v", "-test.count=1")
		cmd.Dir = t.TempDir()
		for _, kv := range os.Environ() {
			if !strings.HasPrefix(kv, weft.ReplayEnv+"=") && !strings.HasPrefix(kv, childEnv+"=") {
				cmd.Env = append(cmd.Env, kv)
			}
		}
		cmd.Env = append(cmd.Env, childEnv+"=1")
		if replayValue != "" {
			cmd.Env = append(cmd.Env, weft.ReplayEnv+"="+replayValue)
		}
		out, err := cmd.CombinedOutput()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatalf("running %s: %v", exe, err)
		}
		return string(out), code
	}

	out, code := run("", "^TestReplayCommandChild$")
	ms := replayLine.FindAllStringSubmatch(out, -1)
	if code != 1 || len(ms) != 1 {
		t.Fatalf("child: exit status %d, %d replay commands; want 1 and 1:\n%s", code, len(ms), out)
	}
	value, pattern := ms[0][1], ms[0][2]
	if !strings.HasPrefix(value, "TestReplayCommandChild/bad=w1.") || pattern != "^TestReplayCommandChild$/^bad$" {
		t.Fatalf("replay command sets %s=%q and -run %q; want the token tied to TestReplayCommandChild/bad, and ^TestReplayCommandChild$/^bad$", weft.ReplayEnv, value, pattern)
	}

	out, code = run(value, pattern)
	for _, c := range []struct {
		text string
		n    int
	}{
		{"=== RUN   TestReplayCommandChild\n", 1},
		{"=== RUN   TestReplayCommandChild/bad\n", 1},
		{"=== RUN   TestReplayCommandChild/good\n", 0},
		{"--- FAIL: TestReplayCommandChild/bad ", 1},
		{"weft: assertion in T0 (execution 1, 2 steps)", 1},
		{"    read the store\n", 1},
		{"weft: WEFT_REPLAY replays a token of TestReplayCommandChild/bad, not of this test: exploring\n", 1},
		{"diverged", 0},
		{"nondeterminism", 0},
	} {
		if n := strings.Count(out, c.text); n != c.n {
			t.Errorf("the replay's output has %q %d times, want %d:\n%s", c.text, n, c.n, out)
		}
	}
	if code != 1 {
		t.Errorf("the replay exited with status %d, want 1 (the subtest fails)", code)
	}
}

// TestReplayEnvTiedToItsTest checks that a token tied to a test replays in
// that test's Check only: others explore, a malformed token or a missing
// name fails every Check.
func TestReplayEnvTiedToItsTest(t *testing.T) {
	t.Chdir(t.TempDir())
	tok := raceToken(t)

	// Tied to another test: this one explores and finds the failure itself.
	t.Setenv(weft.ReplayEnv, "TestOther/bad="+tok)
	ft := &fakeTB{TB: t, name: "TestX"}
	r := weft.Check(ft, raceBody, weft.NoReplayFiles())
	note := "weft: WEFT_REPLAY replays a token of TestOther/bad, not of this test: exploring"
	if r.Strategy != "optimal" || r.Executions != 2 || len(ft.errors) != 1 || len(ft.fatals) != 0 || len(ft.logs) != 2 || ft.logs[0] != note || withoutWall(ft.logs[1]) != failedSummary {
		t.Errorf("another test's token: %s, %d executions, errors %q, fatals %q, logs %q; want optimal, 2 executions, one error, the note %q and the summary",
			r.Strategy, r.Executions, ft.errors, ft.fatals, ft.logs, note)
	}
	// A sibling whose body the token does not fit explores and passes.
	ft = &fakeTB{TB: t, name: "TestOther/good"}
	r = weft.Check(ft, storeBody, weft.NoReplayFiles())
	if r.Strategy != "optimal" || r.Executions != 1 || r.Complete != 1 || len(ft.errors) != 0 || len(ft.fatals) != 0 {
		t.Errorf("sibling: %s, %d executions, %d complete, errors %q, fatals %q; want optimal, one complete execution, no error",
			r.Strategy, r.Executions, r.Complete, ft.errors, ft.fatals)
	}
	// A test whose name is a prefix of the token's explores too.
	ft = &fakeTB{TB: t, name: "TestOther"}
	if r = weft.Check(ft, storeBody, weft.NoReplayFiles()); r.Strategy != "optimal" || len(ft.errors) != 0 || len(ft.fatals) != 0 {
		t.Errorf("parent: %s, errors %q, fatals %q; want optimal, no error", r.Strategy, ft.errors, ft.fatals)
	}

	// Tied to this test, whose name holds '=' too: it replays.
	t.Setenv(weft.ReplayEnv, "TestX/n=3="+tok)
	ft = &fakeTB{TB: t, name: "TestX/n=3"}
	r = weft.Check(ft, raceBody, weft.NoReplayFiles())
	if r.Strategy != "replay" || r.Executions != 1 || len(ft.errors) != 1 || !strings.Contains(ft.errors[0], "read the store") || len(ft.fatals) != 0 || len(ft.logs) != 0 {
		t.Errorf("its own token: %s, %d executions, errors %q, fatals %q, logs %q; want one replay failing", r.Strategy, r.Executions, ft.errors, ft.fatals, ft.logs)
	}

	// A malformed token, or no name before '=', fails every Check.
	for _, tc := range []struct{ value, want string }{
		{"TestOther=w1.garbage", "malformed replay token: checksum mismatch (truncated or altered token)"},
		{"=" + tok, "no test name before '=': want NAME=TOKEN, as the replay command of a report sets it, or a bare TOKEN"},
	} {
		t.Setenv(weft.ReplayEnv, tc.value)
		ft = &fakeTB{TB: t, name: "TestX"}
		weft.Check(ft, raceBody, weft.NoReplayFiles())
		want := "weft: " + weft.ReplayEnv + "=" + strconv.Quote(tc.value) + ": " + tc.want
		if len(ft.fatals) != 1 || ft.fatals[0] != want || len(ft.errors) != 0 {
			t.Errorf("%s=%q: fatals %q, errors %q; want the fatal %q", weft.ReplayEnv, tc.value, ft.fatals, ft.errors, want)
		}
	}
}

// replayAdvice is what the report of a replay that diverged says to do.
const replayAdvice = "The token was recorded with another test body or other options (such as WithMaxSteps), or the body is not deterministic: " +
	"replay a token with the body and the options of the exploration that printed it; if the replay still diverges, the body is not deterministic. " + advice

// TestReplayDivergedReport checks the failure of a replay that diverged:
// it says that the replay diverged from the recorded execution, where, and
// what to do, rather than blaming the body alone.
func TestReplayDivergedReport(t *testing.T) {
	tok := raceToken(t)
	r, err := weft.Replay(storeBody, tok)
	wantErr := "the replay diverged from the recorded execution: step 1: recorded T1 (store), but the execution has no thread T1"
	if err == nil || err.Error() != wantErr {
		t.Fatalf("Replay: error %v, want %q", err, wantErr)
	}
	if r == nil || len(r.Failures) != 1 || r.Failures[0].Kind != trace.Nondeterminism {
		t.Fatalf("Replay: result %v, want one failure of kind %v", r, trace.Nondeterminism)
	}
	if want := wantErr + "\n" + replayAdvice; r.Failures[0].Message != want {
		t.Errorf("message:\n%s\nwant\n%s", r.Failures[0].Message, want)
	}
}

// TestDescribeStepsDiverged checks the report of a failure whose replay,
// run to list the interleaving, does not follow the execution (the body
// fails in its first run only): it says so, and lists the steps up to the
// divergence. Before, the interleaving was cut short without a word.
func TestDescribeStepsDiverged(t *testing.T) {
	var runs atomic.Int64
	body := func(w *weft.T) {
		x := weft.NewVar[int]("x")
		x.Store(1)
		if runs.Add(1) == 1 {
			x.Store(2)
			w.Fail("first run")
		}
	}
	r := explore(t, body, weft.NoReplayFiles())
	if len(r.Failures) != 1 || r.Failures[0].Kind != trace.Assertion {
		t.Fatalf("failures %v, want one assertion", r.FailureCounts)
	}
	f := r.Failures[0]
	want := "first run\nWhen weft replayed this execution to list its steps, the replay diverged from the recorded execution: " +
		"the execution ended (complete) after 1 steps, but the record has 2\n" +
		"The test body is not deterministic: the interleaving below stops at the divergence. " + advice
	if f.Message != want {
		t.Errorf("message:\n%s\nwant\n%s", f.Message, want)
	}
	if len(f.Steps) != 1 || len(f.Record.Steps) != 2 {
		t.Errorf("%d steps listed of %d recorded, want 1 of 2", len(f.Steps), len(f.Record.Steps))
	}
}

// TestTwoChecksInOneTest: each Check call of a test has its own replay
// files and tokens. The first call passes and the second fails: its file
// is under check#2, the next run's first call does not replay it (it would
// diverge, and be reported stale), its second call does, and its token,
// tied to "TestTwo (check 2)", replays in the second call only.
func TestTwoChecksInOneTest(t *testing.T) {
	t.Chdir(t.TempDir())
	run := func() *fakeTB {
		ft := &fakeTB{TB: t, name: "TestTwo"}
		weft.Check(ft, storeBody)
		weft.Check(ft, raceBody)
		return ft
	}
	ft := run()
	if len(ft.errors) != 1 || len(ft.fatals) != 0 {
		t.Fatalf("errors %q, fatals %q; want one error, the second Check's", ft.errors, ft.fatals)
	}
	files, err := filepath.Glob("testdata/weft/TestTwo/check#2/*")
	if err != nil || len(files) != 1 {
		t.Fatalf("replay files of the second Check %v (%v), want one", files, err)
	}
	if first, _ := filepath.Glob("testdata/weft/TestTwo/*"); len(first) != 1 || first[0] != "testdata/weft/TestTwo/check#2" {
		t.Fatalf("testdata/weft/TestTwo holds %v, want the second Check's directory alone", first)
	}
	m := replayLine.FindStringSubmatch(ft.errors[0])
	if m == nil || !strings.HasPrefix(m[1], "TestTwo (check 2)=w1.") || m[2] != "^TestTwo$" {
		t.Fatalf("the report's replay command %q, want WEFT_REPLAY='TestTwo (check 2)=w1...' go test . -run '^TestTwo$':\n%s", m, ft.errors[0])
	}

	// The next run: the first Check explores and passes, the second
	// replays its file, which still fails.
	ft = run()
	if len(ft.errors) != 1 || !strings.Contains(ft.errors[0], "replay file "+files[0]+" (recorded assertion) still fails") {
		t.Fatalf("second run: errors %q; want the second Check's replay file still failing, and nothing stale", ft.errors)
	}

	// The token of the report replays in the second Check alone.
	t.Setenv(weft.ReplayEnv, m[1])
	ft = run()
	want := "weft: WEFT_REPLAY replays a token of TestTwo (check 2), not of this Check call of it: exploring"
	if len(ft.errors) != 1 || !strings.Contains(ft.errors[0], "read the store") || strings.Contains(ft.errors[0], "replay file") ||
		len(ft.logs) == 0 || ft.logs[0] != want {
		t.Fatalf("WEFT_REPLAY=%s: errors %q, logs %q; want the replay's failure alone and the note %q", m[1], ft.errors, ft.logs, want)
	}
}
