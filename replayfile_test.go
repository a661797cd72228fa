// This file tests the replay files' modes (WEFT_REPLAY_FILES), the time
// mode each file records, and the long tokens that reports name by their
// file.

package weft_test

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/weft-go/weft"
	"github.com/weft-go/weft/strategy/replay"
	"github.com/weft-go/weft/trace"
)

// replayFileNames returns the names of the files in dir, sorted.
func replayFileNames(t *testing.T, dir string) []string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
	}
	return names
}

// TestReplayFileModes runs, in each mode of WEFT_REPLAY_FILES, a test that
// passes with two replay files whose failures no longer happen (one runs
// to its end without failure, one diverges), then a failing test: which
// files are run, kept, deleted and written, and that none fails the test.
func TestReplayFileModes(t *testing.T) {
	fixed := replay.Encode(replay.Record{Steps: []replay.Step{{Thread: 0, Kind: trace.KindLoad}, {Thread: 1, Kind: trace.KindStore}}})
	diverged := replay.Encode(replay.Record{Steps: []replay.Step{{Thread: 0, Kind: trace.KindLoad}, {Thread: 1, Kind: trace.KindStore}, {Thread: 1, Kind: trace.KindStore}}})
	passBody := func(w *weft.T) {
		var x weft.Var[int]
		w.Go(func() { x.Store(1) })
		x.Load()
	}
	for _, c := range []struct {
		mode string
		// noLonger is the number of "no longer happens" lines; kept the
		// files left of the two; written the files the failing test
		// writes.
		noLonger int
		kept     []string
		written  int
	}{
		{"", 2, []string{"diverged", "fixed"}, 1},
		{"on", 2, []string{"diverged", "fixed"}, 1},
		{"check", 2, []string{"diverged", "fixed"}, 0},
		{"update", 2, nil, 1},
		{"off", 0, []string{"diverged", "fixed"}, 0},
	} {
		t.Run("mode="+c.mode, func(t *testing.T) {
			t.Chdir(t.TempDir())
			t.Setenv(weft.ReplayFilesEnv, c.mode)
			dir := filepath.Join("testdata", "weft", "TestP")
			if err := os.MkdirAll(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			for name, tok := range map[string]string{"fixed": fixed, "diverged": diverged} {
				if err := os.WriteFile(filepath.Join(dir, name), []byte("weft replay v1\nkind: assertion\ntime: blocked\ntoken: "+tok+"\n"), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			ft := &fakeTB{TB: t, name: "TestP"}
			r := weft.Check(ft, passBody)
			n := 0
			for _, l := range ft.logs {
				if strings.Contains(l, " no longer happens (fixed?): ") {
					n++
				}
			}
			if n != c.noLonger || len(ft.errors) != 0 || len(ft.fatals) != 0 || r.Strategy != "optimal" || r.Failed() {
				t.Errorf("%d lines of failures that no longer happen, errors %q, fatals %q, strategy %s; want %d, none, none, optimal:\n%s",
					n, ft.errors, ft.fatals, r.Strategy, c.noLonger, strings.Join(ft.logs, "\n"))
			}
			if got := replayFileNames(t, dir); !slices.Equal(got, c.kept) {
				t.Errorf("files left %q, want %q", got, c.kept)
			}
			ft = &fakeTB{TB: t, name: "TestQ"}
			weft.Check(ft, raceBody)
			if got := len(replayFileNames(t, filepath.Join("testdata", "weft", "TestQ"))); got != c.written || len(ft.errors) != 1 {
				t.Errorf("failing test: %d files written, %d errors; want %d and 1", got, len(ft.errors), c.written)
			}
		})
	}
	t.Setenv(weft.ReplayFilesEnv, "sometimes")
	ft := &fakeTB{TB: t, name: "TestP"}
	weft.Check(ft, passBody)
	if len(ft.fatals) != 1 || !strings.Contains(ft.fatals[0], `WEFT_REPLAY_FILES="sometimes": want on`) {
		t.Errorf("bad mode: fatals %q", ft.fatals)
	}
}

// TestReplayFileTime checks that a replay file is replayed only in the
// time mode it was recorded in, and that one without a time (written
// before files had one) is replayed in both.
func TestReplayFileTime(t *testing.T) {
	t.Chdir(t.TempDir())
	ft := &fakeTB{TB: t, name: "TestT"}
	tok := weft.Check(ft, raceBody, weft.WithTime(weft.TimeAnyStep)).Failures[0].Token
	files, _ := filepath.Glob(filepath.Join("testdata", "weft", "TestT", "*"))
	if len(files) != 1 {
		t.Fatalf("files %q, want one", files)
	}
	if b, _ := os.ReadFile(files[0]); !strings.Contains(string(b), "\ntime: any\n") {
		t.Errorf("replay file:\n%s\nwant time: any", b)
	}
	t.Setenv(weft.ReplayFilesEnv, "check")
	for _, c := range []struct {
		name    string
		content string
		mode    weft.TimeMode
		replays bool
	}{
		{"any in blocked", "time: any\n", weft.TimeWhenBlocked, false},
		{"any in any", "time: any\n", weft.TimeAnyStep, true},
		{"none in blocked", "", weft.TimeWhenBlocked, true},
		{"none in any", "", weft.TimeAnyStep, true},
	} {
		if err := os.WriteFile(files[0], []byte("weft replay v1\nkind: assertion\n"+c.content+"token: "+tok+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		ft := &fakeTB{TB: t, name: "TestT"}
		r := weft.Check(ft, raceBody, weft.WithTime(c.mode))
		replayed := r.Strategy == "replay"
		passedOver := slices.ContainsFunc(ft.logs, func(l string) bool {
			return strings.Contains(l, "was recorded with time any, not replayed with time blocked")
		})
		if replayed != c.replays || passedOver == c.replays || len(ft.errors) != 1 {
			t.Errorf("%s: strategy %s, logs %q, %d errors; want replayed %v, said so if not, one failure", c.name, r.Strategy, ft.logs, len(ft.errors), c.replays)
		}
	}
}

// longTokenBody fails after 600 steps of one thread: its token is longer than
// LongToken.
func longTokenBody(w *weft.T) {
	var x weft.Var[int]
	w.Go(func() { x.Store(1) })
	for range 600 {
		x.Load()
	}
	w.Fail("after a long while")
}

// TestLongToken checks that the report of a failure whose token is longer
// than LongToken names the replay file that holds it, in the token's line
// and in the replay command, which replays it through WEFT_REPLAY; without
// replay files, the token goes to a file of the temporary directory.
func TestLongToken(t *testing.T) {
	t.Chdir(t.TempDir())
	ft := &fakeTB{TB: t, name: "TestLong"}
	r := weft.Check(ft, longTokenBody)
	if len(ft.errors) != 1 || !r.Failed() {
		t.Fatalf("errors %q, want one", ft.errors)
	}
	tok := r.Failures[0].Token
	files, _ := filepath.Glob(filepath.Join("testdata", "weft", "TestLong", "*"))
	if len(tok) <= weft.LongToken || len(files) != 1 {
		t.Fatalf("token of %d bytes, files %q; want more than %d bytes, one file", len(tok), files, weft.LongToken)
	}
	rep := ft.errors[0]
	for _, want := range []string{"replay token: " + strconv.Itoa(len(tok)) + " bytes, in the file " + files[0] + "\n",
		"replay: WEFT_REPLAY='TestLong=" + files[0] + "' go test . -run '^TestLong$'\n"} {
		if !strings.Contains(rep, want) {
			t.Errorf("report lacks %q:\n%s", want, rep)
		}
	}
	if strings.Contains(rep, tok) {
		t.Errorf("report holds the long token:\n%s", rep)
	}
	t.Setenv(weft.ReplayEnv, "TestLong="+files[0])
	ft = &fakeTB{TB: t, name: "TestLong"}
	r = weft.Check(ft, longTokenBody)
	if r.Strategy != "replay" || len(ft.errors) != 1 || !strings.Contains(ft.errors[0], "after a long while") ||
		!strings.Contains(ft.errors[0], "replay token: "+strconv.Itoa(len(tok))+" bytes, in WEFT_REPLAY\n") {
		t.Errorf("WEFT_REPLAY with the file: strategy %s, errors %q; want the replay's failure", r.Strategy, ft.errors)
	}
	t.Setenv(weft.ReplayEnv, "")
	ft = &fakeTB{TB: t, name: "TestLong"}
	weft.Check(ft, longTokenBody, weft.NoReplayFiles())
	want := filepath.Join(os.TempDir(), "weft-replay") + string(filepath.Separator)
	if len(ft.errors) != 1 || !strings.Contains(ft.errors[0], "replay: WEFT_REPLAY='TestLong="+want) {
		t.Errorf("without replay files: errors %q, want a command naming a file in %s", ft.errors, want)
	}
}
