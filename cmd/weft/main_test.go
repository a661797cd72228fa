// This file tests the weft command in process: exit statuses, messages, the
// JSON summary, replay round trips and the golden output of weft list.

package main

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"flag"
	"hash/crc32"
	"math"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/weft-go/weft"
	"github.com/weft-go/weft/strategy/replay"
	"github.com/weft-go/weft/trace"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// runCmd runs the command with args and returns its exit status and output.
func runCmd(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = run(args, &out, &errOut)
	return code, out.String(), errOut.String()
}

func TestExitStatus(t *testing.T) {
	tests := []struct {
		name       string
		args       []string
		code       int
		stdout     []string // substrings of stdout
		stderr     []string // substrings of stderr
		stdoutNone bool     // stdout must be empty
	}{
		{name: "no args", args: nil, code: 2, stderr: []string{"Usage:", "weft run"}, stdoutNone: true},
		{name: "help", args: []string{"help"}, code: 0, stdout: []string{"weft list", "weft replay"}},
		{name: "help run", args: []string{"help", "run"}, code: 0, stdout: []string{"-strategy", "-max-runs", "-keep-going"}},
		{name: "run -h", args: []string{"run", "-h"}, code: 0, stdout: []string{"usage: weft run"}},
		{name: "help unknown", args: []string{"help", "frob"}, code: 2, stderr: []string{`unknown command "frob"`}},
		{name: "unknown command", args: []string{"frob"}, code: 2, stderr: []string{`weft: unknown command "frob"; run 'weft help'`}},
		{name: "xy exhaustive", args: []string{"run", "-strategy", "exhaustive", "xy"}, code: 0,
			stdout: []string{"executions    6 (the strategy explored everything it covers)", "failures      none", "final states  3 distinct", "events        24"}},
		{name: "fixed dining", args: []string{"run", "-strategy", "exhaustive", "-p", "n=3", "-p", "fixed=1", "dining"}, code: 0,
			stdout: []string{"program       dining n=3 meals=1 fixed=1", "executions    1205 "}},
		{name: "dining deadlocks", args: []string{"run", "-p", "n=5", "dining"}, code: 1,
			stdout: []string{"weft: deadlock", "replay: weft replay dining n=5,meals=1,fixed=0:w1.", "failures      1 (deadlock 1)", "strategy      optimal"}},
		// The timeout race: found only when time may move at any step,
		// with a token that replays so.
		{name: "timeout blocked", args: []string{"run", "-keep-going", "timeout"}, code: 0,
			stdout: []string{"executions    5 (the strategy explored everything it covers)", "failures      none"}},
		{name: "timeout any", args: []string{"run", "-time", "any", "-keep-going", "timeout"}, code: 1,
			stdout: []string{"weft: leak", "advance to 1s", "replay: weft replay timeout n=2,fixed=0:w1a.", "executions    20 (the strategy explored everything it covers)", "failures      14 (leak 14)"}},
		{name: "timeout any reach", args: []string{"run", "-time", "any", "-strategy", "reach", "-keep-going", "timeout"}, code: 1,
			stdout: []string{"weft: leak", "advance to 1s", "replay: weft replay timeout n=2,fixed=0:w1a.", "executions              12 (the strategy explored everything it covers)", "failures                6 (leak 6)"}},
		{name: "timeout any unfold", args: []string{"run", "-time", "any", "-keep-going", "-strategy", "unfold", "timeout"}, code: 1,
			stdout: []string{"weft: leak", "executions      6 (the strategy explored everything it covers)", "failures        4 (leak 4)", "net events      26"}},
		{name: "bad time", args: []string{"run", "-time", "soon", "timeout"}, code: 2,
			stderr: []string{`invalid value "soon" for flag -time: time mode "soon": want any (time may move at any step) or blocked`}},
		{name: "races fib", args: []string{"run", "-races", "-keep-going", "-p", "n=1", "fib"}, code: 1,
			stdout: []string{"weft: data race in T2", "data race on j: T2's write (store, step 7) at basic.go:107 and T0's read (load, step 4) at basic.go:111", "replay: weft replay -races fib n=1:w1.", "executions    11 (the strategy explored everything it covers)", "failures      11 (data race 11)"}},
		{name: "races locked pi", args: []string{"run", "-races", "-p", "threads=2", "-p", "locked=1", "parallelpi"}, code: 0,
			stdout: []string{"executions    2 (the strategy explored everything it covers)", "failures      none"}},
		{name: "dining keep going", args: []string{"run", "-strategy", "exhaustive", "-keep-going", "-p", "n=3", "dining"}, code: 1,
			stdout: []string{"executions    1113 (the strategy explored everything it covers)", "failures      6 (deadlock 6)"}},
		{name: "lost update", args: []string{"run", "-strategy", "exhaustive", "-p", "threads=2", "-p", "locked=0", "parallelpi"}, code: 1,
			stdout: []string{"weft: assertion in T0", "a partial sum was lost"}},
		{name: "max runs", args: []string{"run", "-max-runs", "7", "fib"}, code: 0, stdout: []string{"executions    7 (stopped at -max-runs)"}},
		{name: "unfold", args: []string{"run", "-strategy", "unfold", "-p", "n=3", "fib"}, code: 0,
			stdout: []string{"executions      1698 (the strategy explored everything it covers)", "net events      7127", "net deadlocks   0"}},
		// The timeout's timer is a thread of the net: one test, where
		// time never moves (the sender is always ready first).
		{name: "unfold timers", args: []string{"run", "-strategy", "unfold", "timeout"}, code: 0,
			stdout: []string{"executions      1 (the strategy explored everything it covers)", "failures        none", "net events      8"}},
		{name: "unknown program", args: []string{"run", "foo"}, code: 2,
			stderr: []string{`weft: unknown program "foo"; run 'weft list' to see the programs`}, stdoutNone: true},
		{name: "unknown strategy", args: []string{"run", "-strategy", "nope", "xy"}, code: 2,
			stderr: []string{`unknown strategy "nope" (known: ` + strings.Join(weft.Strategies(), ", ") + `); run 'weft list'`}},
		{name: "unknown parameter", args: []string{"run", "-p", "m=2", "dining"}, code: 2,
			stderr: []string{`program dining has no parameter "m" (its parameters: n, meals, fixed); run 'weft list' to see the parameters`}},
		{name: "parameter out of range", args: []string{"run", "-p", "n=1", "dining"}, code: 2,
			stderr: []string{"parameter n=1 of program dining is out of range [2, 32]"}},
		{name: "parameter not a number", args: []string{"run", "-p", "n=five", "dining"}, code: 2,
			stderr: []string{`weft run: invalid value "n=five" for flag -p: parameter "n=five": "five" is not an integer; see 'weft help run'`}},
		{name: "parameter twice", args: []string{"run", "-p", "n=2", "-p", "n=3", "dining"}, code: 2, stderr: []string{"parameter n given twice"}},
		{name: "bad flag", args: []string{"run", "-bogus", "xy"}, code: 2, stderr: []string{"flag provided but not defined: -bogus; see 'weft help run'"}},
		{name: "bad depth", args: []string{"run", "-depth", "0", "xy"}, code: 2, stderr: []string{"bug depth 0: must be at least 1"}},
		{name: "missing program", args: []string{"run"}, code: 2, stderr: []string{"weft run: missing PROGRAM"}},
		{name: "k above the maximum", args: []string{"run", "-strategy", "con2", "-k", "1000000", "addall"}, code: 2, stdoutNone: true,
			stderr: []string{"weft run: -k 1000000: con2 explores at most 16 interferences (its scenarios grow combinatorially with k; the programs of Farzan et al. 2013 need at most 4); give -k 16 or less\n"}},
		{name: "negative max-steps", args: []string{"run", "-max-steps", "-5", "xy"}, code: 2, stdoutNone: true,
			stderr: []string{`weft run: invalid value "-5" for flag -max-steps: must not be negative (0: weft's default); see 'weft help run'`}},
		{name: "negative max-runs", args: []string{"run", "-max-runs", "-1", "xy"}, code: 2, stdoutNone: true,
			stderr: []string{`weft run: invalid value "-1" for flag -max-runs: must not be negative (0: no bound); see 'weft help run'`}},
		{name: "negative timeout", args: []string{"run", "-timeout", "-1s", "xy"}, code: 2, stdoutNone: true,
			stderr: []string{`weft run: invalid value "-1s" for flag -timeout: must not be negative (0: no bound); see 'weft help run'`}},
		{name: "timeout without a unit", args: []string{"run", "-timeout", "5", "xy"}, code: 2,
			stderr: []string{`weft run: invalid value "5" for flag -timeout: a duration needs a unit: 5s, 5ms or 5m, say (units: ns, us, ms, s, m, h); see 'weft help run'`}},
		{name: "timeout not a duration", args: []string{"run", "-timeout", "5x", "xy"}, code: 2,
			stderr: []string{`weft run: invalid value "5x" for flag -timeout: not a duration: want a number and a unit, as 30s, 1.5m or 500ms (units: ns, us, ms, s, m, h); see 'weft help run'`}},
		{name: "timeout before the first execution", args: []string{"run", "-timeout", "1ns", "xy"}, code: 2, stdoutNone: true,
			stderr: []string{"weft run: -timeout 1ns expired before the first execution ended: nothing was explored; raise -timeout (0: no bound)\n"}},
		{name: "timeout before the first execution, json", args: []string{"run", "-json", "-timeout", "1ns", "xy"}, code: 2, stdoutNone: true,
			stderr: []string{"weft run: -timeout 1ns expired before the first execution"}},
		{name: "replay negative max-steps", args: []string{"replay", "-max-steps", "-1", "xy", "w1.AABB2RL_"}, code: 2, stdoutNone: true,
			stderr: []string{`weft replay: invalid value "-1" for flag -max-steps: must not be negative (0: weft's default); see 'weft help replay'`}},
		{name: "bench negative max-runs", args: []string{"bench", "-max-runs", "-1"}, code: 2, stdoutNone: true,
			stderr: []string{`weft bench: invalid value "-1" for flag -max-runs: must not be negative (0: no bound); see 'weft help bench'`}},
		{name: "bench unknown row", args: []string{"bench", "-table", "fig13", "-rows", "nosuchrow"}, code: 2, stdoutNone: true,
			stderr: []string{"weft bench: -rows \"nosuchrow\" matches no row of -table fig13 (a row runs when its label contains the text; case matters); the rows:\n  fig13: DP (3), DP (5), DP (7), DP (9)\n"}},
		{name: "bench unknown row of all", args: []string{"bench", "-rows", "nosuchrow"}, code: 2, stdoutNone: true,
			stderr: []string{"matches no row of -table all", "\n  fig8: Indexer (12), ", "\n  table1: addAll (Fig. 2), bluetooth, art2, art3, art4, art5\n"}},
		{name: "bench no orders", args: []string{"bench", "-orders", "0"}, code: 2, stdoutNone: true,
			stderr: []string{`weft bench: invalid value "0" for flag -orders: must be at least 1; see 'weft help bench'`}},
		{name: "flag after program", args: []string{"run", "dining", "-p", "n=3"}, code: 2,
			stderr: []string{`weft run: unexpected arguments after PROGRAM: "-p n=3" (flags go before PROGRAM, as with the go command)`}},
		{name: "run with no NATS server", args: []string{"run", "-nats", "nats://127.0.0.1:1", "xy"}, code: 2, stdoutNone: true,
			stderr: []string{"weft run: connecting to NATS at nats://127.0.0.1:1: ", "(is a server with JetStream running there? 'weft run -nats embedded' starts one)\n"}},
		{name: "worker with no NATS server", args: []string{"worker", "-nats", "nats://127.0.0.1:1"}, code: 2, stdoutNone: true,
			stderr: []string{"weft worker: connecting to NATS at nats://127.0.0.1:1: ", "(is a server with JetStream running there? 'weft run -nats embedded' starts one)\n"}},
		{name: "list with argument", args: []string{"list", "x"}, code: 2, stderr: []string{`weft list takes no arguments, got "x"`}},
		{name: "malformed token", args: []string{"replay", "xy", "abc"}, code: 2,
			stderr: []string{`malformed replay token: "abc" does not start with "w1."`, "copy the whole token"}, stdoutNone: true},
		{name: "altered token", args: []string{"replay", "-p", "n=5", "dining", "w1.BQUABgEABgIABgQABgMABgB3g5g3"}, code: 2,
			stderr: []string{"malformed replay token: checksum mismatch"}},
		{name: "replay missing token", args: []string{"replay", "dining"}, code: 2, stderr: []string{"weft replay: want PROGRAM TOKEN, got 1 arguments"}},
		{name: "replay unknown program", args: []string{"replay", "foo", "w1.AABB2RL_"}, code: 2, stderr: []string{`unknown program "foo"`}},
		// The deadlock token of dining n=5 (seed 1) replayed with n=4: the
		// thread T5 does not exist.
		{name: "replay other parameters", args: []string{"replay", "-p", "n=4", "dining", "w1.BQUABgEABgIABgQABgMABgB3g5g2"}, code: 2,
			stderr: []string{"weft replay: dining n=4 meals=1 fixed=0: the replay diverged from the recorded execution: step 1: recorded T5 (lock), but the execution has no thread T5\n" +
				"the token was recorded with another program, other parameters or another -max-steps, or it is corrupt"}, stdoutNone: true},
		// A library token with -p flags, as weft printed them before its
		// tokens carried the parameters.
		{name: "replay deadlock", args: []string{"replay", "-p", "n=5", "dining", "w1.BQUABgEABgIABgQABgMABgB3g5g2"}, code: 1,
			stdout: []string{"weft: deadlock (execution 1, 5 steps)", "T5(phil4) blocked on lock", "replay: weft replay dining n=5,meals=1,fixed=0:w1.BQUABgEABgIABgQABgMABgB3g5g2"}},
		// The token carries the parameters: no -p needed; one that agrees
		// is accepted, one that does not is refused.
		{name: "replay token with parameters", args: []string{"replay", "dining", "n=5,meals=1,fixed=0:w1.BQUABgEABgIABgQABgMABgB3g5g2"}, code: 1,
			stdout: []string{"weft: deadlock (execution 1, 5 steps)", "replay: weft replay dining n=5,meals=1,fixed=0:w1.BQUABgEABgIABgQABgMABgB3g5g2"}},
		{name: "replay token and agreeing -p", args: []string{"replay", "-p", "n=5", "dining", "n=5,meals=1,fixed=0:w1.BQUABgEABgIABgQABgMABgB3g5g2"}, code: 1,
			stdout: []string{"weft: deadlock (execution 1, 5 steps)"}},
		{name: "replay token and other -p", args: []string{"replay", "-p", "n=4", "dining", "n=5,meals=1,fixed=0:w1.BQUABgEABgIABgQABgMABgB3g5g2"}, code: 2, stdoutNone: true,
			stderr: []string{"weft replay: -p n=4, but the token was recorded with n=5; drop the -p flag (the token carries the parameters)\n"}},
		{name: "replay token with bad parameters", args: []string{"replay", "dining", "n=five:w1.BQUABgEABgIABgQABgMABgB3g5g2"}, code: 2, stdoutNone: true,
			stderr: []string{`weft replay: the token's parameters "n=five": parameter "n=five": "five" is not an integer; copy the whole token from the failure report or from weft run -json` + "\n"}},
		{name: "replay token with unknown parameter", args: []string{"replay", "dining", "n=5,m=1:w1.BQUABgEABgIABgQABgMABgB3g5g2"}, code: 2, stdoutNone: true,
			stderr: []string{`program dining has no parameter "m" (its parameters: n, meals, fixed)`}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, stdout, stderr := runCmd(t, tc.args...)
			if code != tc.code {
				t.Errorf("exit status %d, want %d\nstdout:\n%s\nstderr:\n%s", code, tc.code, stdout, stderr)
			}
			for _, s := range tc.stdout {
				if !strings.Contains(stdout, s) {
					t.Errorf("stdout lacks %q:\n%s", s, stdout)
				}
			}
			for _, s := range tc.stderr {
				if !strings.Contains(stderr, s) {
					t.Errorf("stderr lacks %q:\n%s", s, stderr)
				}
			}
			if tc.stdoutNone && stdout != "" {
				t.Errorf("stdout not empty:\n%s", stdout)
			}
		})
	}
}

// decodeSummary runs weft run -json with args and decodes its output.
func decodeSummary(t *testing.T, wantCode int, args ...string) *Summary {
	t.Helper()
	code, stdout, stderr := runCmd(t, append([]string{"run", "-json"}, args...)...)
	if code != wantCode {
		t.Fatalf("exit status %d, want %d; stderr:\n%s", code, wantCode, stderr)
	}
	dec := json.NewDecoder(strings.NewReader(stdout))
	dec.DisallowUnknownFields()
	var s Summary
	if err := dec.Decode(&s); err != nil {
		t.Fatalf("decoding %q: %v", stdout, err)
	}
	if dec.More() {
		t.Fatalf("more than one JSON value:\n%s", stdout)
	}
	return &s
}

func TestJSON(t *testing.T) {
	s := decodeSummary(t, 0, "-strategy", "exhaustive", "xy")
	if s.Program != "xy" || len(s.Params) != 0 || s.Strategy != "exhaustive" || s.Executions != 6 || s.Complete != 6 ||
		s.Cut != 0 || !s.Exhausted || s.Stopped != "exhausted" || len(s.Failures) != 0 || len(s.FailureCounts) != 0 ||
		s.FinalStates != 3 || s.Events != 24 {
		t.Errorf("xy summary = %+v", s)
	}
	if s.WallS <= 0 || s.ExecPerS <= 0 || s.PeakRSSBytes <= 0 {
		t.Errorf("xy: wall_s %v, exec_per_s %v, peak_rss_bytes %d: want positive", s.WallS, s.ExecPerS, s.PeakRSSBytes)
	}

	// The raw form: field names and an empty failure list, not null.
	_, stdout, _ := runCmd(t, "run", "-json", "-strategy", "exhaustive", "xy")
	for _, field := range []string{`"program": "xy"`, `"params": {}`, `"failures": []`, `"executions": 6`, `"wall_s": `, `"exec_per_s": `, `"peak_rss_bytes": `} {
		if !strings.Contains(stdout, field) {
			t.Errorf("JSON lacks %s:\n%s", field, stdout)
		}
	}

	// Dining n=3: 1113 executions, 6 deadlocks (programs_test.go); the
	// first deadlock is execution 639 of the depth-first order, after
	// the 3 steps that take the left forks, and 16623 steps in all
	// (measured; exhaustive search is deterministic).
	s = decodeSummary(t, 1, "-strategy", "exhaustive", "-keep-going", "-p", "n=3", "dining")
	if s.Executions != 1113 || s.Complete != 1107 || !s.Exhausted || len(s.Failures) != 1 || len(s.FailureCounts) != 1 || s.FailureCounts["deadlock"] != 6 ||
		s.FinalStates != 1 || s.Events != 16623 || s.Params["n"] != 3 || s.Params["meals"] != 1 || s.Params["fixed"] != 0 {
		t.Errorf("dining summary = %+v", s)
	}
	const tok = "n=3,meals=1,fixed=0:w1.AwEABgIABgMABgCH-Fm1"
	if f := s.Failures[0]; f.Kind != "deadlock" || f.Token != tok || f.Execution != 639 || f.Steps != 3 ||
		f.Replay != "weft replay dining "+tok || !strings.Contains(f.Message, "no thread can move") {
		t.Errorf("dining failure = %+v", f)
	}

	// pairs n=1 has one trace and no failure: 50 complete executions of
	// 2 steps each.
	s = decodeSummary(t, 0, "-strategy", "random", "-seed", "7", "-max-runs", "50", "-p", "n=1", "pairs")
	if s.Strategy != "random" || s.Seed != 7 || s.Executions != 50 || s.Complete != 50 || s.Events != 100 || s.FinalStates != 1 ||
		s.Exhausted || s.Stopped != "max-runs" {
		t.Errorf("pairs random summary = %+v", s)
	}
}

// TestReplayRoundTrip replays the token of each strategy's first dining
// deadlock and gets the same failure, at the same number of steps.
func TestReplayRoundTrip(t *testing.T) {
	for _, strat := range weft.Strategies() {
		t.Run(strat, func(t *testing.T) {
			if strings.HasPrefix(strat, "concolic") {
				needZ3(t)
			}
			if strat == "con2" {
				t.Skip("con2 covers branch sides (dining has none), it does not look for deadlocks")
			}
			s := decodeSummary(t, 1, "-strategy", strat, "-p", "n=3", "dining")
			if len(s.Failures) != 1 || s.Failures[0].Kind != "deadlock" {
				t.Fatalf("failures = %+v, want one deadlock", s.Failures)
			}
			f := s.Failures[0]
			args := strings.Fields(f.Replay)
			if args[0] != "weft" {
				t.Fatalf("replay command %q", f.Replay)
			}
			code, stdout, stderr := runCmd(t, args[1:]...)
			if code != 1 {
				t.Fatalf("replay exit status %d, want 1; stderr:\n%s", code, stderr)
			}
			head := "weft: deadlock (execution 1, " + strconv.Itoa(f.Steps) + " steps)"
			if !strings.HasPrefix(stdout, head) {
				t.Errorf("replay output does not start with %q:\n%s", head, stdout)
			}
			for _, line := range strings.Split(f.Message, "\n") {
				if !strings.Contains(stdout, "    "+line+"\n") {
					t.Errorf("replay output lacks the message line %q:\n%s", line, stdout)
				}
			}
		})
	}
}

// TestReplayAnyStep replays the token of timeout's leak, found with -time
// any: the token says so (w1a.), weft replay needs no -time, and the
// replay leaks at the same number of steps; the token with its prefix
// edited to w1. is refused as corrupt.
func TestReplayAnyStep(t *testing.T) {
	s := decodeSummary(t, 1, "-time", "any", "timeout")
	if len(s.Failures) != 1 || s.Failures[0].Kind != "leak" {
		t.Fatalf("failures = %+v, want one leak", s.Failures)
	}
	f := s.Failures[0]
	args := strings.Fields(f.Replay)
	if len(args) != 4 || args[1] != "replay" || !strings.HasPrefix(args[3], "n=2,fixed=0:w1a.") {
		t.Fatalf("replay command %q, want weft replay timeout n=2,fixed=0:w1a.…", f.Replay)
	}
	code, stdout, stderr := runCmd(t, args[1:]...)
	head := "weft: leak (execution 1, " + strconv.Itoa(f.Steps) + " steps)"
	if code != 1 || !strings.HasPrefix(stdout, head) || !strings.Contains(stdout, "advance to 1s") {
		t.Errorf("replay: exit status %d, want 1, and output starting %q with the clock's advance:\n%s%s", code, head, stdout, stderr)
	}
	// The checksum covers the prefix: the token edited to say that time
	// moved only when every thread was blocked is corrupt, not a replay
	// that diverges.
	edited := strings.Replace(args[3], ":w1a.", ":w1.", 1)
	code, stdout, stderr = runCmd(t, "replay", args[2], edited)
	want := "weft: malformed replay token: checksum mismatch: the token is corrupt: it was made as a w1a. token (virtual time moved at any step) and its prefix edited to w1.; "
	if code != exitUsage || stdout != "" || !strings.HasPrefix(stderr, want) {
		t.Errorf("replay %s: exit status %d, stdout %q, stderr %q; want %d, nothing and %q", edited, code, stdout, stderr, exitUsage, want)
	}
}

// TestReplayBadContent replays tokens whose checksum is valid but whose
// content does not fit xy (T1 stores twice, then T2 twice) or does not
// decode: each exits 2 with an error naming the cause, never a panic, an
// internal error or a silent success.
func TestReplayBadContent(t *testing.T) {
	st := replay.Step{Thread: 1, Kind: trace.KindStore}
	steps := []replay.Step{st, st, {Thread: 2, Kind: trace.KindStore}, {Thread: 2, Kind: trace.KindStore}}
	tok := func(inputs []uint64, steps ...replay.Step) string {
		return replay.Encode(replay.Record{Steps: steps, Inputs: inputs})
	}
	// raw is the token of varints vs, with a valid checksum.
	raw := func(vs ...uint64) string {
		var b []byte
		for _, v := range vs {
			b = binary.AppendUvarint(b, v)
		}
		b = binary.BigEndian.AppendUint32(b, crc32.ChecksumIEEE(b))
		return "w1." + base64.RawURLEncoding.EncodeToString(b)
	}
	const (
		malformed = "weft: malformed replay token: "
		corrupt   = "; the token is corrupt or was not made by this version of weft; copy the whole token from the failure report or from weft run -json\n"
		notFit    = "weft replay: xy: the replay diverged from the recorded execution: "
		way       = "\nthe token was recorded with another program, other parameters or another -max-steps, or it is corrupt; replay with the program and -max-steps of the run that printed the token, and its whole token (which carries the parameters)\n"
	)
	tests := []struct{ name, tok, stderr string }{
		{"thread 2^31", tok(nil, replay.Step{Thread: math.MinInt32, Kind: trace.KindStore}),
			malformed + "step 1: thread 18446744071562067968 out of range (at most 2147483647)" + corrupt},
		{"thread 2^32+1", raw(1, 1<<32+1, 0, uint64(trace.KindStore), 0),
			malformed + "step 1: thread 4294967297 out of range (at most 2147483647)" + corrupt},
		{"alternative -1", tok(nil, replay.Step{Thread: 1, Alt: -1, Kind: trace.KindStore}),
			malformed + "step 1: alternative 18446744073709551615 out of range (at most 2147483647)" + corrupt},
		{"unknown kind", tok(nil, replay.Step{Thread: 1, Kind: 99}),
			malformed + "step 1: unknown operation kind 99" + corrupt},
		{"alternative out of range", tok(nil, replay.Step{Thread: 1, Alt: 3, Kind: trace.KindStore}),
			notFit + "step 1: T1: recorded store alternative 3, but it has 1 enabled alternatives" + way},
		{"no such thread", tok(nil, replay.Step{Thread: 9, Kind: trace.KindStore}),
			notFit + "step 1: recorded T9 (store), but the execution has no thread T9" + way},
		{"extra step", tok(nil, append(steps, st)...),
			notFit + "the execution ended (complete) after 4 steps, but the record has 5" + way},
		{"extra input", tok([]uint64{5}, steps...),
			notFit + "the execution ended (complete) after 4 steps and 0 input values, but the record has 1 input values" + way},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, stdout, stderr := runCmd(t, "replay", "xy", tc.tok)
			if code != 2 || stdout != "" || stderr != tc.stderr {
				t.Errorf("exit status %d, stdout %q, stderr:\n%s\nwant 2, no output and stderr:\n%s", code, stdout, stderr, tc.stderr)
			}
		})
	}
}

// TestReplayNoFailure replays an execution that does not fail: xy's first
// exhaustive one, T1's two stores then T2's.
func TestReplayNoFailure(t *testing.T) {
	st := replay.Step{Thread: 1, Kind: trace.KindStore}
	rec := replay.Record{Steps: []replay.Step{st, st, {Thread: 2, Kind: trace.KindStore}, {Thread: 2, Kind: trace.KindStore}}}
	code, stdout, stderr := runCmd(t, "replay", "xy", replay.Encode(rec))
	if want := "weft: the replay of xy completed without failure (4 steps)\n"; code != 0 || stdout != want {
		t.Errorf("exit status %d, stdout %q, stderr %q; want 0, %q", code, stdout, stderr, want)
	}
}

// TestListGolden compares weft list with testdata/list.golden; go test
// -update rewrites it. The list of strategies, which grows as strategies are
// added, is checked against weft.Strategies instead.
func TestListGolden(t *testing.T) {
	code, stdout, stderr := runCmd(t, "list")
	if code != 0 || stderr != "" {
		t.Fatalf("exit status %d, stderr %q", code, stderr)
	}
	strategies := strings.Join(weft.Strategies(), ", ")
	line := "default " + defaultStrategy + "): " + strategies + "\n"
	if !strings.HasSuffix(stdout, line) {
		t.Fatalf("the output does not end with the strategies %q:\n%s", line, stdout)
	}
	got := strings.TrimSuffix(stdout, strategies+"\n") + "<weft.Strategies()>\n"
	path := filepath.Join("testdata", "list.golden")
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("weft list differs from %s (go test -update rewrites it):\n--- got\n%s\n--- want\n%s", path, got, want)
	}
}

func TestProgressLine(t *testing.T) {
	var b bytes.Buffer
	pp := newProgressPrinter(&b)
	if pp.terminal {
		t.Fatal("a buffer is not a terminal")
	}
	pp.print(weft.Progress{Executions: 3000, Failures: 1, Elapsed: 2 * time.Second})
	pp.print(weft.Progress{Executions: 9000, Failures: 2, Elapsed: 3 * time.Second})
	pp.done()
	want := "weft: 3000 executions, 1 failures, 2s, 1500 executions/s\nweft: 9000 executions, 2 failures, 3s, 3000 executions/s\n"
	if b.String() != want {
		t.Errorf("progress = %q, want %q", b.String(), want)
	}
}

func TestFormatBytes(t *testing.T) {
	for _, tc := range []struct {
		n    int64
		want string
	}{
		{0, "unknown"}, {512, "512 B"}, {1536, "1.5 KiB"}, {3 << 20, "3.0 MiB"}, {5 << 30, "5.0 GiB"},
	} {
		if got := formatBytes(tc.n); got != tc.want {
			t.Errorf("formatBytes(%d) = %q, want %q", tc.n, got, tc.want)
		}
	}
}

// TestTimeoutExitStatus: a run that -timeout stops before it finds a
// failure exits with status 3 and says it was not exhaustive.
func TestTimeoutExitStatus(t *testing.T) {
	code, stdout, stderr := runCmd(t, "run", "-strategy", "random", "-max-runs", "0", "-timeout", "100ms", "-p", "fixed=1", "dining")
	if code != exitTimeout {
		t.Fatalf("exit status %d, want %d; stderr:\n%s", code, exitTimeout, stderr)
	}
	s := decodeSummary(t, exitTimeout, "-strategy", "random", "-max-runs", "0", "-timeout", "100ms", "-p", "fixed=1", "dining")
	if s.Stopped != "timeout" || len(s.Failures) != 0 {
		t.Errorf("stopped %q, failures %v; want timeout and none\n%s", s.Stopped, s.Failures, stdout)
	}
}

// TestVersion: weft version names weft's build, Go's version and Z3's (or
// its absence), and takes no arguments.
func TestVersion(t *testing.T) {
	code, stdout, stderr := runCmd(t, "version")
	lines := strings.Split(strings.TrimSuffix(stdout, "\n"), "\n")
	if code != exitOK || stderr != "" || len(lines) != 3 {
		t.Fatalf("exit %d, stdout %q, stderr %q; want 0 and three lines", code, stdout, stderr)
	}
	if want := "go   " + runtime.Version() + " " + runtime.GOOS + "/" + runtime.GOARCH; lines[1] != want {
		t.Errorf("line 2 = %q, want %q", lines[1], want)
	}
	if want := "weft " + buildVersion(); lines[0] != want {
		t.Errorf("line 1 = %q, want %q", lines[0], want)
	}
	if !strings.HasPrefix(lines[2], "z3   ") {
		t.Errorf("line 3 = %q, want the Z3 version", lines[2])
	}
	if code, _, stderr := runCmd(t, "version", "x"); code != exitUsage || stderr != "weft version takes no arguments, got \"x\"\n" {
		t.Errorf("weft version x: exit %d, stderr %q; want 2 and the reason", code, stderr)
	}
}

// TestInterruptExitStatus: an interrupt (SIGINT) stops a run that would
// never end; it prints the partial summary, says so, and exits with 130.
func TestInterruptExitStatus(t *testing.T) {
	// The test's own handler keeps a signal that comes after the run
	// stopped listening from killing the test binary.
	guard := make(chan os.Signal, 8)
	signal.Notify(guard, os.Interrupt)
	defer signal.Stop(guard)
	done := make(chan struct{})
	go func() {
		for {
			select {
			case <-done:
				return
			case <-time.After(200 * time.Millisecond):
				syscall.Kill(os.Getpid(), syscall.SIGINT)
			}
		}
	}()
	code, stdout, stderr := runCmd(t, "run", "-json", "-strategy", "random", "-max-runs", "0", "-p", "fixed=1", "dining")
	close(done)
	if code != exitInterrupted {
		t.Fatalf("exit status %d, want %d; stderr:\n%s", code, exitInterrupted, stderr)
	}
	if !strings.Contains(stderr, "weft run: warning: -strategy random with -max-runs 0 never ends by itself") {
		t.Errorf("no warning that the run never ends; stderr:\n%s", stderr)
	}
	var s Summary
	if err := json.Unmarshal([]byte(stdout), &s); err != nil {
		t.Fatalf("decoding the summary: %v\n%s", err, stdout)
	}
	if s.Stopped != "interrupted" || s.Exhausted || s.Executions == 0 || len(s.Failures) != 0 {
		t.Errorf("stopped %q, exhausted %v, %d executions, failures %v; want interrupted, false, some, none", s.Stopped, s.Exhausted, s.Executions, s.Failures)
	}
}
