// This file tests replay through the API: round trips of failing
// executions, divergence, malformed tokens, and Check's replay files and
// WEFT_REPLAY.

package weft_test

import (
	"encoding/base64"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/weft-go/weft"
	"github.com/weft-go/weft/strategy/replay"
	"github.com/weft-go/weft/trace"
)

// TestReplayRoundTrip explores each failing program, replays the token of
// its failure and checks that the replay fails the same way at the same
// step, with the same interleaving.
func TestReplayRoundTrip(t *testing.T) {
	for _, tc := range failingPrograms() {
		t.Run(tc.name, func(t *testing.T) {
			r := explore(t, tc.body, tc.opts...)
			if len(r.Failures) != 1 {
				t.Fatalf("failures %v, want one %v", r.FailureCounts, tc.kind)
			}
			f := r.Failures[0]
			rr, err := weft.Replay(tc.body, f.Token, tc.opts...)
			if err != nil {
				t.Fatalf("Replay(%s): %v", f.Token, err)
			}
			if rr.Executions != 1 || rr.Strategy != "replay" {
				t.Errorf("replay ran %d executions under %q, want 1 under replay", rr.Executions, rr.Strategy)
			}
			if len(rr.Failures) != 1 {
				t.Fatalf("replay: failures %v, want one %v", rr.FailureCounts, f.Kind)
			}
			g := rr.Failures[0]
			if g.Kind != f.Kind || g.Thread != f.Thread {
				t.Errorf("replay failed with %v in %v, want %v in %v:\n%s", g.Kind, g.Thread, f.Kind, f.Thread, g.Report(""))
			}
			if len(g.Record.Steps) != len(f.Record.Steps) || !reflect.DeepEqual(g.Steps, f.Steps) {
				t.Errorf("replay took other steps:\n%s\nwant\n%s", g.Report(""), f.Report(""))
			}
			if g.Token != f.Token {
				t.Errorf("replay token %s, want %s", g.Token, f.Token)
			}
		})
	}
}

// TestReplayOfOneOfMany replays a failure that exhaustive exploration finds
// only after other executions: the replay runs it alone.
func TestReplayOfOneOfMany(t *testing.T) {
	r := explore(t, lostUpdate)
	if len(r.Failures) != 1 || r.Failures[0].Execution < 2 {
		t.Fatalf("failures %v: want one lost update, after the first execution", r.FailureCounts)
	}
	f := r.Failures[0]
	rr, err := weft.Replay(lostUpdate, f.Token)
	if err != nil {
		t.Fatal(err)
	}
	if !rr.Failed() || rr.Failures[0].Message != f.Message || !reflect.DeepEqual(rr.Failures[0].Steps, f.Steps) {
		t.Fatalf("replay: %v, want the recorded %q with the same steps", rr.FailureCounts, f.Message)
	}
}

// execs counts the executions of nondeterministic; from the second on, the
// body loads x before storing it.
var execs atomic.Int64

func nondeterministic(w *weft.T) {
	var x weft.Var[int]
	if execs.Add(1) > 1 {
		x.Load()
	}
	x.Store(1)
	w.Fail("always")
}

// TestNondeterminism checks that a body that does something else under the
// same schedule is reported, naming the step, the thread, the recorded and
// the actual operation.
func TestNondeterminism(t *testing.T) {
	execs.Store(0)
	r := explore(t, nondeterministic)
	if len(r.Failures) != 1 || r.Failures[0].Kind != trace.Assertion {
		t.Fatalf("failures %v, want an assertion", r.FailureCounts)
	}
	rr, err := weft.Replay(nondeterministic, r.Failures[0].Token)
	if want := "the replay diverged from the recorded execution: step 1: T0: recorded store, but its pending operation is load o0"; !errors.Is(err, replay.ErrMismatch) || err.Error() != want {
		t.Fatalf("Replay: error %v, want %q wrapping ErrMismatch", err, want)
	}
	if rr == nil || len(rr.Failures) != 1 || rr.Failures[0].Kind != trace.Nondeterminism {
		t.Fatalf("replay result %v, want one %v failure", rr, trace.Nondeterminism)
	}
	msg := rr.Failures[0].Message
	for _, want := range []string{"not deterministic", "step 1", "T0", "recorded store", "load o0"} {
		if !strings.Contains(msg, want) {
			t.Errorf("message does not say %q:\n%s", want, msg)
		}
	}
}

// TestReplayBadTokens checks that malformed tokens are rejected with an
// error wrapping replay.ErrBadToken, before anything runs.
func TestReplayBadTokens(t *testing.T) {
	good := explore(t, failingPrograms()[0].body).Failures[0].Token
	tests := []struct{ name, tok string }{
		{"bad prefix", "w9." + good[3:]},
		{"bad base64", "w1.!!!"},
		{"bad checksum", good[:len(good)-1] + string("AB"[boolInt(good[len(good)-1] == 'A')])},
		{"truncated", good[:len(good)-4]},
		{"empty", ""},
	}
	ran := false
	body := func(w *weft.T) { ran = true }
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r, err := weft.Replay(body, tc.tok)
			if !errors.Is(err, replay.ErrBadToken) || r != nil {
				t.Fatalf("Replay(%q) = %v, %v; want nil and an error wrapping ErrBadToken", tc.tok, r, err)
			}
		})
	}
	if ran {
		t.Error("the body ran with a malformed token")
	}
}

// inputBody reads one input, then T0 and T1 store to x.
func inputBody(w *weft.T) {
	var x weft.Var[int]
	w.Input("z")
	w.Go(func() { x.Store(1) })
	x.Store(2)
}

// TestReplayMismatch replays tokens with valid checksums that do not fit
// inputBody: each is rejected with an error wrapping replay.ErrMismatch
// that names the step, what was recorded and what happened, or, for values
// that do not fit a thread or an alternative, with ErrBadToken before the
// body runs.
func TestReplayMismatch(t *testing.T) {
	store := func(th trace.ThreadID) replay.Step { return replay.Step{Thread: th, Kind: trace.KindStore} }
	tok := func(inputs []uint64, steps ...replay.Step) string {
		return replay.Encode(replay.Record{Steps: steps, Inputs: inputs})
	}
	one := []uint64{7}
	good := tok(one, store(0), store(1))
	if r, err := weft.Replay(inputBody, good); err != nil || r.Complete != 1 {
		t.Fatalf("Replay of the fitting token: %v, %v; want one complete execution", r, err)
	}
	tests := []struct {
		name, tok, want string
	}{
		{"extra step", tok(one, store(0), store(1), store(1)),
			"the replay diverged from the recorded execution: the execution ended (complete) after 2 steps, but the record has 3"},
		{"missing step", tok(one, store(0)),
			"the replay diverged from the recorded execution: step 2: the record ends after 1 steps, but the execution went on (if the failure was the step bound, replay with the bound of the run that found it: -max-steps 1, WithMaxSteps(1))"},
		{"extra input", tok([]uint64{7, 8}, store(0), store(1)),
			"the replay diverged from the recorded execution: the execution ended (complete) after 2 steps and 1 input values, but the record has 2 input values"},
		{"missing input", tok(nil, store(0), store(1)),
			`the replay diverged from the recorded execution: before step 1: input "z": the record has only 0 input values`},
		{"no such thread", tok(one, store(2)),
			"the replay diverged from the recorded execution: step 1: recorded T2 (store), but the execution has no thread T2"},
		{"finished thread", tok(one, store(1), store(1)),
			"the replay diverged from the recorded execution: step 2: recorded T1 (store), but T1 has finished"},
		{"other kind", tok(one, replay.Step{Thread: 0, Kind: trace.KindLoad}),
			"the replay diverged from the recorded execution: step 1: T0: recorded load, but its pending operation is store o0"},
		{"alternative out of range", tok(one, replay.Step{Thread: 0, Alt: 1, Kind: trace.KindStore}),
			"the replay diverged from the recorded execution: step 1: T0: recorded store alternative 1, but it has 1 enabled alternatives"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r, err := weft.Replay(inputBody, tc.tok)
			if !errors.Is(err, replay.ErrMismatch) {
				t.Fatalf("Replay: error %v, want one wrapping ErrMismatch", err)
			}
			if err.Error() != tc.want {
				t.Errorf("error %q, want %q", err, tc.want)
			}
			if r == nil || r.Executions != 1 || r.FailureCounts[trace.Nondeterminism] != 1 {
				t.Errorf("result %+v, want one execution failing with %v", r, trace.Nondeterminism)
			}
		})
	}

	// Values that do not fit are rejected before anything runs.
	ran := false
	body := func(w *weft.T) { ran = true; inputBody(w) }
	for _, tc := range []struct{ name, tok, want string }{
		{"alternative -1", tok(one, replay.Step{Thread: 0, Alt: -1, Kind: trace.KindStore}), "step 1: alternative 18446744073709551615 out of range"},
		{"thread 2^32+1", rawToken(1, 1<<32+1, 0, uint64(trace.KindStore), 0), "step 1: thread 4294967297 out of range"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := weft.Replay(body, tc.tok)
			if !errors.Is(err, replay.ErrBadToken) || r != nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Replay = %v, %v; want nil and an error wrapping ErrBadToken saying %q", r, err, tc.want)
			}
		})
	}
	if ran {
		t.Error("the body ran with a token that does not decode")
	}
}

// rawToken returns a token of the given varints with a valid checksum, for
// contents Encode cannot produce.
func rawToken(vs ...uint64) string {
	var b []byte
	for _, v := range vs {
		b = binary.AppendUvarint(b, v)
	}
	b = binary.BigEndian.AppendUint32(b, crc32.ChecksumIEEE(b))
	return "w1." + base64.RawURLEncoding.EncodeToString(b)
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// fakeTB captures what Check reports, in place of a real test.
type fakeTB struct {
	testing.TB
	name   string
	errors []string
	fatals []string
	logs   []string
	skips  []string
}

func (f *fakeTB) Helper()      {}
func (f *fakeTB) Name() string { return f.name }
func (f *fakeTB) Errorf(format string, args ...any) {
	f.errors = append(f.errors, fmt.Sprintf(format, args...))
}
func (f *fakeTB) Fatalf(format string, args ...any) {
	f.fatals = append(f.fatals, fmt.Sprintf(format, args...))
}
func (f *fakeTB) Skipf(format string, args ...any) {
	f.skips = append(f.skips, fmt.Sprintf(format, args...))
}
func (f *fakeTB) Logf(format string, args ...any) {
	f.logs = append(f.logs, fmt.Sprintf(format, args...))
}

// raceBody fails when the body reads T1's store: its second execution under
// exhaustive exploration, and only the schedule [T1 store, T0 load].
func raceBody(w *weft.T) {
	var x weft.Var[int]
	w.Go(func() { x.Store(1) })
	if x.Load() == 1 {
		w.Fail("read the store")
	}
}

// TestCheck checks Check's report, its replay file, the replay of that file
// by the next Check, and WEFT_REPLAY.
func TestCheck(t *testing.T) {
	t.Chdir(t.TempDir())
	ft := &fakeTB{TB: t, name: "TestX"}
	r := weft.Check(ft, raceBody)
	if len(ft.errors) != 1 || len(ft.fatals) != 0 {
		t.Fatalf("errors %q, fatals %q; want one error", ft.errors, ft.fatals)
	}
	if r.Executions != 2 {
		t.Errorf("%d executions, want 2: the failure is the second", r.Executions)
	}
	rep := ft.errors[0]
	tok := r.Failures[0].Token
	for _, want := range []string{"assertion", "read the store", "T1   store", "T0   load",
		"\nreplay: WEFT_REPLAY='TestX=" + tok + "' go test . -run '^TestX$'\n", "testdata/weft/TestX/"} {
		if !strings.Contains(rep, want) {
			t.Errorf("report does not contain %q:\n%s", want, rep)
		}
	}
	files, err := filepath.Glob("testdata/weft/TestX/*")
	if err != nil || len(files) != 1 {
		t.Fatalf("replay files %v (%v), want one", files, err)
	}
	content, err := os.ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	if want := "weft replay v1\nkind: assertion\ntime: blocked\ntoken: " + tok + "\n"; string(content) != want {
		t.Errorf("replay file:\n%s\nwant\n%s", content, want)
	}

	// The next Check replays the file first and fails from it, without
	// exploring.
	ft2 := &fakeTB{TB: t, name: "TestX"}
	r2 := weft.Check(ft2, raceBody)
	if len(ft2.errors) != 1 || !strings.Contains(ft2.errors[0], "replay file "+files[0]) || !strings.Contains(ft2.errors[0], "still fails") ||
		!strings.Contains(ft2.errors[0], "\nreplay: WEFT_REPLAY='TestX="+tok+"' go test . -run '^TestX$'\n") {
		t.Fatalf("second Check: errors %q, want one naming the replay file, with the replay command", ft2.errors)
	}
	if r2.Executions != 1 || r2.Strategy != "replay" {
		t.Errorf("second Check ran %d executions under %q, want 1 under replay", r2.Executions, r2.Strategy)
	}

	// With WEFT_REPLAY, Check replays that token only: a passing schedule
	// passes although the replay file fails.
	pass := replay.Encode(replay.Record{Steps: []replay.Step{{Thread: 0, Kind: trace.KindLoad}, {Thread: 1, Kind: trace.KindStore}}})
	t.Setenv(weft.ReplayEnv, pass)
	ft3 := &fakeTB{TB: t, name: "TestX"}
	r3 := weft.Check(ft3, raceBody)
	if len(ft3.errors) != 0 || len(ft3.fatals) != 0 || r3.Executions != 1 || r3.Complete != 1 {
		t.Fatalf("WEFT_REPLAY of a passing schedule: errors %q, fatals %q, %d executions, %d complete; want a pass", ft3.errors, ft3.fatals, r3.Executions, r3.Complete)
	}
	// ... and the failing token fails.
	t.Setenv(weft.ReplayEnv, tok)
	ft4 := &fakeTB{TB: t, name: "TestX"}
	r4 := weft.Check(ft4, raceBody)
	if len(ft4.errors) != 1 || !strings.Contains(ft4.errors[0], "read the store") || strings.Contains(ft4.errors[0], "replay file") {
		t.Fatalf("WEFT_REPLAY of the failing token: errors %q, want the failure alone", ft4.errors)
	}
	if r4.Executions != 1 {
		t.Errorf("%d executions, want 1", r4.Executions)
	}
	// A malformed token is a fatal error naming the variable.
	t.Setenv(weft.ReplayEnv, "w1.garbage")
	ft5 := &fakeTB{TB: t, name: "TestX"}
	weft.Check(ft5, raceBody)
	if len(ft5.fatals) != 1 || !strings.Contains(ft5.fatals[0], weft.ReplayEnv) || !strings.Contains(ft5.fatals[0], "malformed replay token") {
		t.Fatalf("malformed WEFT_REPLAY: fatals %q", ft5.fatals)
	}
}

// advice is what a report of nondeterminism, or of a replay that diverged,
// says to do about the test body.
const advice = "Make the body's behaviour a function of weft's choices only: do not let math/rand, " +
	"time, map iteration order or state kept between executions decide what it does; " +
	"read values that should vary with w.Input or w.InputRange, which weft explores."

// TestCheckReplayMismatch checks that Check says so when WEFT_REPLAY or a
// replay file holds a token that does not fit the test: the replay
// diverged from the recorded execution, where, and what to do. The
// variable, bare or tied to the test, is a fatal error; the file is passed
// over with a note.
func TestCheckReplayMismatch(t *testing.T) {
	t.Chdir(t.TempDir())
	// raceBody's passing schedule with one step too many.
	tok := replay.Encode(replay.Record{Steps: []replay.Step{{Thread: 0, Kind: trace.KindLoad}, {Thread: 1, Kind: trace.KindStore}, {Thread: 1, Kind: trace.KindStore}}})
	t.Setenv(weft.ReplayEnv, tok)
	ft := &fakeTB{TB: t, name: "TestZ"}
	weft.Check(ft, raceBody)
	want := "weft: " + weft.ReplayEnv + "=" + strconv.Quote(tok) + ": the replay diverged from the recorded execution: the execution ended (complete) after 2 steps, but the record has 3\n" +
		"The token was recorded in another test (a bare token replays in every Check; the command of a report ties it to its test, as NAME=TOKEN), " +
		"with other options, or the test body is not deterministic. Run the replay command of the report that printed the token, with the test's options unchanged; " +
		"if the replay still diverges, the body is not deterministic. " + advice
	if len(ft.fatals) != 1 || ft.fatals[0] != want || len(ft.errors) != 0 {
		t.Fatalf("fatals %q, errors %q; want one fatal %q", ft.fatals, ft.errors, want)
	}
	// Tied to this test, the token is the test's: the advice says so.
	t.Setenv(weft.ReplayEnv, "TestZ="+tok)
	ftTied := &fakeTB{TB: t, name: "TestZ"}
	weft.Check(ftTied, raceBody)
	want = "weft: " + weft.ReplayEnv + "=" + strconv.Quote("TestZ="+tok) + ": the replay diverged from the recorded execution: the execution ended (complete) after 2 steps, but the record has 3\n" +
		"The test or its options changed since the token was recorded, or the test body is not deterministic. Run the replay command of the report that printed the token, with the test's options unchanged; " +
		"if the replay still diverges, the body is not deterministic. " + advice
	if len(ftTied.fatals) != 1 || ftTied.fatals[0] != want || len(ftTied.errors) != 0 {
		t.Fatalf("tied token: fatals %q, errors %q; want one fatal %q", ftTied.fatals, ftTied.errors, want)
	}

	t.Setenv(weft.ReplayEnv, "")
	dir := filepath.Join("testdata", "weft", "TestZ")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "stale")
	if err := os.WriteFile(path, []byte("weft replay v1\nkind: assertion\ntoken: "+tok+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ft2 := &fakeTB{TB: t, name: "TestZ"}
	r := weft.Check(ft2, raceBody)
	// The failure the stale file recorded no longer happens: the test
	// does not fail for it, says so, and explores, which finds the
	// failure of its own.
	stale := "weft: recorded failure in " + path + " no longer happens (fixed?): the test no longer follows its schedule (the replay diverged from the recorded execution: the execution ended (complete) after 2 steps, but the record has 3); " +
		"the file stays, and runs first in every test run: delete it (rm '" + path + "', or WEFT_REPLAY_FILES=update deletes every such file); exploring"
	if len(ft2.logs) != 2 || ft2.logs[0] != stale || withoutWall(ft2.logs[1]) != failedSummary {
		t.Errorf("logs %q, want %q and the summary", ft2.logs, stale)
	}
	if len(ft2.errors) != 1 || !strings.Contains(ft2.errors[0], "read the store") || r.Strategy != "optimal" {
		t.Errorf("errors %q under %s, want the failure found by exploring", ft2.errors, r.Strategy)
	}
}

// TestCheckNoReplayFiles checks that NoReplayFiles writes nothing.
func TestCheckNoReplayFiles(t *testing.T) {
	t.Chdir(t.TempDir())
	ft := &fakeTB{TB: t, name: "TestY"}
	weft.Check(ft, raceBody, weft.NoReplayFiles())
	if len(ft.errors) != 1 {
		t.Fatalf("errors %q, want one", ft.errors)
	}
	if _, err := os.Stat("testdata"); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("testdata exists (%v), want nothing written", err)
	}
}
