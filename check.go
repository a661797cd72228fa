// This file implements Check, the entry point for go test: replay files
// first, then exploration, and a failing test with a report.

package weft

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/weft-go/weft/internal/engine"
	"github.com/weft-go/weft/internal/explore"
	"github.com/weft-go/weft/strategy/replay"
	"github.com/weft-go/weft/trace"
)

// ReplayEnv is the environment variable that makes Check replay one token
// instead of exploring. Its value takes one of two forms:
//
//   - NAME=TOKEN, the form the command in a failure report sets, ties the
//     token to the test named NAME (its t.Name(), subtests included: for
//     example TestTop/bad=w1.AgAABgEABgBGoe1X). The Check of that test
//     replays TOKEN and nothing else; every other Check of the process
//     explores as usual. TOKEN is what follows the last '=', which no token
//     contains, so NAME may contain '=' too.
//   - TOKEN alone makes every Check of the process replay it, each failing
//     with a report of the divergence if its body does not follow the token.
//
// In both forms a malformed token fails every Check of the process.
const ReplayEnv = "WEFT_REPLAY"

// ReplayDir is where Check keeps the replay files of failing executions, one
// directory per test, as Go fuzzing does with testdata/fuzz.
const ReplayDir = "testdata/weft"

// Inconclusive starts the message with which Check skips a test whose
// exploration a bound (WithTimeout) stopped before its first execution
// ended, so that nothing was checked, or whose failing executions all
// reached the step bound (Result.StepBounded), which proves nothing.
// Under WithStrict (or StrictEnv=1) the test fails instead.
const Inconclusive = "weft: inconclusive"

// Check explores the executions of body inside a Go test and fails t with a
// report for the first failure found, and the command that replays it:
// the first failure that is not a step bound hit (trace.Livelock), with
// the first bound hit's report besides, if there is one.
//
//	WEFT_REPLAY='TestTop/sub=w1.AgAABgEABgBGoe1X' go test ./pkg -run '^TestTop$/^sub$'
//
// The package argument is the test binary's package relative to its
// module's root (testPackage), so the command works from the module root.
//
// Replay files under testdata/weft/<TestName>/ run first. With ReplayEnv set
// to a token tied to this test, or to a bare token, Check replays that token
// and nothing else.
//
// A test that calls Check more than once gives each call its own replay
// files and tokens: the n-th call, from the second, keeps its files in
// testdata/weft/<TestName>/check#n/ and ties its tokens to
// "<TestName> (check n)", so that one call never replays another's.
//
// The environment overrides the options given (StrategyEnv, MaxRunsEnv,
// SeedEnv, StrictEnv).
//
// Check logs one line per exploration (t.Logf, shown by go test -v): the
// strategy, the executions, the final states, the wall time, and whether
// the exploration was exhaustive or what stopped it. An exploration a
// bound stopped (WithMaxRuns, WithTimeout) without a failure passes, unless
// WithStrict or StrictEnv=1 makes it fail; one stopped before its first
// execution ended is inconclusive: the test is skipped (Inconclusive), or
// fails under WithStrict.
//
// An execution that reaches the step bound (WithMaxSteps) proves nothing:
// weft cannot tell a loop that ends after more steps from one that never
// ends. The exploration goes on after it (up to 10 of them without
// KeepGoing: the bound hits cost the whole bound each), and a test whose
// failing executions all reached the bound is inconclusive: Check logs the
// first one's report, with the command that replays it (but writes no
// replay file for it), and skips the test (Inconclusive), or fails it
// under WithStrict.
func Check(t testing.TB, body func(w *T), opts ...Option) *Result {
	t.Helper()
	if engine.InExecution() {
		// t belongs to the enclosing test, whose goroutine this is not:
		// fail the execution that called Check instead (from a callback
		// on the dispatcher, the panic ends the process with its message).
		panic(nestedError("weft.Check"))
	}
	env, err := envOptions()
	if err != nil {
		t.Fatalf("weft: %v", err)
		return nil
	}
	opts = append(opts[:len(opts):len(opts)], env...)
	opts = append(opts, withTestName(t.Name()))
	c := defaultConfig()
	for _, o := range opts {
		if err := o(&c); err != nil {
			t.Fatalf("weft: bad option: %v", err)
			return nil
		}
	}
	id := checkOf(t)
	if v := os.Getenv(ReplayEnv); v != "" {
		name, tok, err := parseReplayEnv(v)
		if err != nil {
			t.Fatalf("weft: %s=%q: %v", ReplayEnv, v, err)
			return nil
		}
		if name == "" || name == id.name {
			return replayEnv(t, body, v, name, tok, &c, opts)
		}
		what := "this test"
		if name == t.Name() || strings.HasPrefix(name, t.Name()+" (check ") {
			what = "this Check call of it"
		}
		t.Logf("weft: %s replays a token of %s, not of %s: exploring", ReplayEnv, name, what)
	}
	if c.replayFiles != replayOff {
		start := time.Now()
		if r := replayFiles(t, body, id, &c, opts); r != nil {
			return r
		}
		if c.timeout > 0 {
			// The replay files and the exploration share the timeout.
			spent := time.Since(start)
			if spent >= c.timeout {
				inconclusive(t, &c, fmt.Errorf("timeout %v expired replaying the files of %s: %w; raise the timeout (0: no bound)", c.timeout, id.dir, ErrNoExecution))
				return nil
			}
			opts = append(opts[:len(opts):len(opts)], func(c *config) error { c.spent = spent; return nil })
		}
	}
	r, err := Explore(body, opts...)
	strict := c.isStrict()
	if errors.Is(err, ErrNoExecution) {
		inconclusive(t, &c, err)
		return nil
	}
	if err != nil {
		t.Fatalf("weft: %v", err)
		return nil
	}
	t.Logf("weft: %s", r.summary(&c))
	if r.Note != "" {
		t.Logf("weft: note: %s", r.Note)
	}
	if !r.Failed() && !r.Exhausted && strict {
		t.Errorf("weft: strict (%s or %s=1): the exploration found no failure but did not finish, so the test does not pass: %s; raise the bound, or choose a systematic strategy (optimal, dpor, exhaustive)",
			"WithStrict", StrictEnv, r.stopped(&c))
	}
	if n := uncontrolled(body, r, opts); n > 0 {
		t.Errorf("%s", uncontrolledMessage(n, r))
	}
	if f := r.outsideOnly(); f != nil {
		// Neither a failure nor a pass: what the goroutines outside
		// weft would have done, weft cannot tell.
		cmd, where := tokenCommand(t, f, id, &c)
		t.Logf("%s%s%s", f.Report(cmd), where, htmlNote(f, t.Name(), cmd))
		inconclusive(t, &c, fmt.Errorf("an execution blocked outside weft's control (a goroutine weft does not schedule, or a channel made before the execution, may or may not unblock it): no failure of the test, and no pass; run the test alone (-run), or let weft rewrite what made the object"))
		return r
	}
	if f := r.firstFailure(); f != nil && f.Unrepeatable != "" {
		// Neither a failure nor a pass: the failing execution may have
		// started from a state the test never starts from.
		cmd, where := tokenCommand(t, f, id, &c)
		t.Logf("%s%s%s", f.Report(cmd), where, htmlNote(f, t.Name(), cmd))
		inconclusive(t, &c, fmt.Errorf("the only failure found may be no failure of the program's: %s: the body keeps state between executions; make that state in the body, or reset it at its start", f.Unrepeatable))
		return r
	}
	if f := r.firstFailure(); f != nil {
		where, path := "", ""
		if c.replayFiles.writes() {
			var err error
			if path, err = writeReplayFile(id.dir, f, c.time); err != nil {
				where = fmt.Sprintf("(could not write the replay file: %v)\n", err)
				path = ""
			} else {
				where = fmt.Sprintf("replay file: %s (runs first in every test run until its failure no longer happens; see %s)\n", path, ReplayFilesEnv)
			}
		}
		if len(f.Token) > LongToken && path == "" {
			var err error
			if path, err = tokenFile(f, c.time); err != nil {
				where += fmt.Sprintf("(%v)\n", err)
			}
		}
		f.tokenFile = longTokenFile(f.Token, path)
		cmd := replayCommand(t.Name(), id, commandToken(f.Token, path))
		t.Errorf("%s%s%s", f.Report(cmd), where, htmlNote(f, t.Name(), cmd))
	}
	if f := r.boundFailure(); f != nil {
		boundReport(t, r, f, id, &c)
	}
	return r
}

// replayCommand is the shell command that replays token in Check call id of
// the test named name alone: the token tied to the call, and a -run pattern
// that anchors each level of the name, so that no sibling subtest runs.
// Under weft test (CommandEnv set) it is that command with -run and
// -replay.
func replayCommand(name string, id checkID, token string) string {
	if cmd := os.Getenv(CommandEnv); cmd != "" {
		return fmt.Sprintf("%s -run %s -replay %s", cmd, shellQuote(runPattern(name)), shellQuote(id.name+"="+token))
	}
	pkg := testPackage()
	if pkg != "" {
		pkg += " "
	}
	return fmt.Sprintf("%s=%s go test %s-run %s", ReplayEnv, shellQuote(id.name+"="+token), pkg, shellQuote(runPattern(name)))
}

// withMaxSteps returns cmd, a command of replayCommand's, with the step
// bound of c if it is not the default: the replay of an execution that
// reached the bound must stop where it did.
func withMaxSteps(cmd string, c *config) string {
	switch {
	case c.maxSteps <= 0:
		return cmd
	case os.Getenv(CommandEnv) != "":
		return fmt.Sprintf("%s -max-steps %d", cmd, c.maxSteps)
	}
	return fmt.Sprintf("%s=%d %s", MaxStepsEnv, c.maxSteps, cmd)
}

// runPattern returns the go test -run pattern that matches the test named
// name and none other: each level of the name ('/'-separated, as t.Name()
// gives it, with spaces already '_') quoted and anchored.
func runPattern(name string) string {
	levels := strings.Split(name, "/")
	for i, l := range levels {
		levels[i] = "^" + regexp.QuoteMeta(l) + "$"
	}
	return strings.Join(levels, "/")
}

// shellQuote quotes s for a POSIX shell.
func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// parseReplayEnv parses the value of ReplayEnv: a token tied to the test
// named name (NAME=TOKEN, split at the last '=', which no token contains),
// or a bare token (name ""). The token must decode. In place of the
// token, the path of a replay file (a token has no '/') gives the token
// the file holds.
func parseReplayEnv(v string) (name, token string, err error) {
	token = v
	if i := strings.LastIndexByte(v, '='); i >= 0 {
		name, token = v[:i], v[i+1:]
		if name == "" {
			return "", "", errors.New("no test name before '=': want NAME=TOKEN, as the replay command of a report sets it, or a bare TOKEN")
		}
	}
	if strings.ContainsRune(token, '/') {
		// The path of a replay file (a long token's report names it).
		f, err := readReplayFile(token)
		if err != nil {
			return "", "", err
		}
		return name, f.token, nil
	}
	if _, err := replay.Decode(token); err != nil {
		return "", "", err
	}
	return name, token, nil
}

// replayEnv replays tok, the token of ReplayEnv (whose value is v), in the
// test t, which name names ("" for a bare token), and fails t if the replay
// fails or diverges; a replay that reaches the step bound is inconclusive
// under c.
func replayEnv(t testing.TB, body func(w *T), v, name, tok string, c *config, opts []Option) *Result {
	t.Helper()
	r, err := Replay(body, tok, opts...)
	if errors.Is(err, replay.ErrMismatch) {
		why := "The test or its options changed since the token was recorded, or the test body is not deterministic."
		if name == "" {
			why = "The token was recorded in another test (a bare token replays in every Check; the command of a report ties it to its test, as NAME=TOKEN), with other options, or the test body is not deterministic."
		}
		t.Fatalf("weft: %s=%q: %v\n%s Run the replay command of the report that printed the token, with the test's options unchanged; if the replay still diverges, the body is not deterministic. %s",
			ReplayEnv, v, err, why, explore.DeterminismAdvice)
		return r
	}
	if err != nil {
		t.Fatalf("weft: %s=%q: %v", ReplayEnv, v, err)
		return nil
	}
	if r.Failed() {
		if len(tok) > LongToken {
			r.Failures[0].tokenFile = ReplayEnv
		}
		if r.StepBounded() {
			t.Logf("%s", r.Failures[0].Report(""))
			inconclusive(t, c, fmt.Errorf("the replay of %s reached the step bound (%d steps) without ending: weft cannot tell a loop that ends after more steps from one that never ends; raise the bound (WithMaxSteps, weft test -max-steps) if the test is just long", ReplayEnv, maxSteps(c)))
			return r
		}
		t.Errorf("%s", r.Failures[0].Report(""))
	} else {
		t.Logf("weft: the replay of %s completed without failure", ReplayEnv)
	}
	return r
}

// failureKindList lists the failure kinds, quoted, for messages.
func failureKindList() string {
	var ks []string
	for _, k := range trace.FailureKinds() {
		ks = append(ks, strconv.Quote(k.String()))
	}
	return strings.Join(ks, ", ")
}

var unsafeChars = regexp.MustCompile(`[^A-Za-z0-9_.\-/]`)

// sanitize turns a test name into a relative path.
func sanitize(name string) string {
	return strings.ReplaceAll(unsafeChars.ReplaceAllString(name, "_"), "..", "_")
}

// boundReport reports f, the first execution of r that reached the step
// bound: with the rest of r's failures, which t reports, as a note; alone,
// as the reason the test is inconclusive (skipped, or failed under
// WithStrict). Its report says how to replay it, but no replay file keeps
// it, which would fail every later run of the test.
func boundReport(t testing.TB, r *Result, f *Failure, id checkID, c *config) {
	t.Helper()
	cmd, where := tokenCommand(t, f, id, c)
	cmd = withMaxSteps(cmd, c)
	n := r.FailureCounts[trace.Livelock]
	what := fmt.Sprintf("%s reached the step bound (%d steps) without ending", plural(n, "execution", "executions"), maxSteps(c))
	if !r.StepBounded() {
		t.Logf("weft: besides, %s (inconclusive in itself), the first of them:\n%s%s%s", what, f.Report(cmd), where, htmlNote(f, t.Name(), cmd))
		return
	}
	t.Logf("weft: %s, the first of them:\n%s%s%s", what, f.Report(cmd), where, htmlNote(f, t.Name(), cmd))
	inconclusive(t, c, fmt.Errorf("%s, and no execution failed otherwise: weft cannot tell a loop that ends after more steps from one that never ends; raise the bound (WithMaxSteps, weft test -max-steps) if the test is just long, or make the test smaller", what))
}

// tokenCommand returns the command that replays f, a failure that keeps
// no replay file, in Check call id of test t: a token over LongToken long
// goes into a file the command names (where says why not, if it could not
// be written).
func tokenCommand(t testing.TB, f *Failure, id checkID, c *config) (cmd, where string) {
	path := ""
	if len(f.Token) > LongToken {
		var err error
		if path, err = tokenFile(f, c.time); err != nil {
			where = fmt.Sprintf("(%v)\n", err)
		}
	}
	f.tokenFile = longTokenFile(f.Token, path)
	return replayCommand(t.Name(), id, commandToken(f.Token, path)), where
}

// inconclusive ends Check's test when a bound stopped it before anything
// was checked (err wraps ErrNoExecution), or its failing executions all
// reached the step bound (err says so): the test is skipped as
// Inconclusive, neither a pass nor a failure, or fails under WithStrict.
func inconclusive(t testing.TB, c *config, err error) {
	t.Helper()
	if c.isStrict() {
		t.Fatalf("weft: %v", err)
		return
	}
	t.Skipf("%s: %v", Inconclusive, err)
}

// htmlNote writes the HTML report of f, a failure of the test named name
// replayed by cmd, into the directory HTMLEnv names, if it is set, and
// returns the line of the test's message that says where (or why not).
//
// With FailuresEnv set, it also writes f as JSON into the directory it
// names, for weft test -json.
func htmlNote(f *Failure, name, cmd string) string {
	note, path := "", ""
	if dir := os.Getenv(HTMLEnv); dir != "" {
		var err error
		if path, err = f.writeHTMLFile(dir, name, cmd); err != nil {
			note = fmt.Sprintf("(could not write the HTML report: %v)\n", err)
		} else {
			if abs, err := filepath.Abs(path); err == nil {
				path = abs
			}
			note = fmt.Sprintf("html report: %s\n", path)
		}
	}
	if dir := os.Getenv(FailuresEnv); dir != "" {
		if err := f.writeJSONFile(dir, name, cmd, path); err != nil {
			note += fmt.Sprintf("(could not write the failure as JSON: %v)\n", err)
		}
	}
	return note
}

// isStrict reports whether a test whose exploration a bound stopped fails
// (WithStrict, or StrictEnv=1 for every test).
func (c *config) isStrict() bool { return c.strict || os.Getenv(StrictEnv) == "1" }
