// This file tests weft test's replay files: a recorded failure that no
// longer happens does not fail the test, a file is replayed only in the
// time mode it was recorded in, -replay-files chooses what is run, kept
// and written, and a failure whose token is long is replayed through its
// file by the command its report prints.

package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/weft-go/weft/internal/long"
)

// writeFiles writes files (name to content) to dir.
func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// weftTest runs weft test in dir with args, and with WEFT_REPLAY_FILES set
// to replayFiles in its environment, and returns its exit status and
// output.
func weftTest(dir, replayFiles string, args ...string) (int, string) {
	var stdout, stderr bytes.Buffer
	code := runTestEnv(dir, []string{"WEFT_REPLAY_FILES=" + replayFiles}, args, &stdout, &stderr)
	return code, stdout.String() + stderr.String()
}

// fixedFiles is the module of the replay file tests: TestFixed closes a
// channel twice, which its fixes below stop doing.
var fixedFiles = map[string]string{
	"go.mod": "module example.com/fixed\n\ngo 1.26.0\n",
	"fixed_test.go": `package fixed

import "testing"

func TestFixed(t *testing.T) {
	done := make(chan struct{})
	go close(done)
	close(done)
}
`}

// TestTestFixedReplayFile records a failure's replay file, then fixes the
// test: the recorded failure no longer happens, which weft test says
// (without -v) and which does not fail the test; -replay-files=check
// keeps the file (with WEFT_LONG=1: it builds the module again; Check's
// own tests cover check), update deletes it.
func TestTestFixedReplayFile(t *testing.T) {
	long.Skip(t, "builds a module with weft test")
	t.Parallel()
	dir := t.TempDir()
	writeFiles(t, dir, fixedFiles)
	if code, out := weftTest(dir, ""); code != exitFailure || !strings.Contains(out, "close of closed channel") || !strings.Contains(out, "replay file: testdata/weft/TestFixed/") {
		t.Fatalf("first run: exit status %d, want %d with the failure and its file:\n%s", code, exitFailure, out)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "testdata", "weft", "TestFixed", "*"))
	if len(files) != 1 {
		t.Fatalf("replay files %q, want one", files)
	}
	rel, _ := filepath.Rel(dir, files[0])
	writeFiles(t, dir, map[string]string{"fixed_test.go": `package fixed

import (
	"sync"
	"testing"
)

func TestFixed(t *testing.T) {
	var once sync.Once
	done := make(chan struct{})
	go once.Do(func() { close(done) })
	once.Do(func() { close(done) })
}
`})
	msg := "recorded failure in " + rel + " no longer happens (fixed?)"
	for _, c := range []struct {
		args []string
		kept bool
		long bool
	}{
		{nil, true, false},
		{[]string{"-replay-files", "check"}, true, true},
		{[]string{"-replay-files=update"}, false, false},
	} {
		if c.long && !long.Enabled() {
			continue
		}
		code, out := weftTest(dir, "", c.args...)
		_, err := os.Stat(files[0])
		if code != exitOK || !strings.Contains(out, msg) || strings.Contains(out, "FAIL") || (err == nil) != c.kept {
			t.Errorf("weft test %q: exit status %d, file kept %v; want %d, kept %v, and %q:\n%s", c.args, code, err == nil, exitOK, c.kept, msg, out)
		}
	}
}

// TestTestReplayFileTimeMode records a failure's replay file with -time
// any: it is not replayed with -time blocked, which passes over it, and
// replayed with -time any, where it still fails.
func TestTestReplayFileTimeMode(t *testing.T) {
	long.Skip(t, "builds a module with weft test")
	t.Parallel()
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"go.mod": fixedFiles["go.mod"],
		"fixed_test.go": `package fixed

import (
	"testing"
	"time"
)

func TestFixed(t *testing.T) {
	done := make(chan struct{}, 1)
	go func() { time.Sleep(time.Second); done <- struct{}{} }()
	select {
	case <-done:
	case <-time.After(2 * time.Second):
		t.Error("timed out")
	}
}
`})
	if code, out := weftTest(dir, "", "-time", "any"); code != exitFailure || !strings.Contains(out, "timed out") {
		t.Fatalf("-time any: exit status %d, want %d with the timeout:\n%s", code, exitFailure, out)
	}
	if code, out := weftTest(dir, "", "-v"); code != exitOK || !strings.Contains(out, "was recorded with time any, not replayed with time blocked") {
		t.Errorf("-time blocked: exit status %d, want %d with the file passed over:\n%s", code, exitOK, out)
	}
	if code, out := weftTest(dir, "", "-time", "any", "-replay-files", "check"); code != exitFailure || !strings.Contains(out, "still fails") {
		t.Errorf("-time any again: exit status %d, want %d with the file still failing:\n%s", code, exitFailure, out)
	}
}

// replayCmd matches the replay command of a report.
var replayCmd = regexp.MustCompile(`replay: weft test (\S+) -run '([^']+)' -replay '([^']+)'`)

// TestTestLongToken runs weft test on a test whose failure's token is
// longer than weft.LongToken: the report names the replay file instead of
// the token, and the replay command it prints replays the failure.
func TestTestLongToken(t *testing.T) {
	long.Skip(t, "builds a module with weft test")
	t.Parallel()
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"go.mod": "module example.com/long\n\ngo 1.26.0\n",
		"long_test.go": `package long

import (
	"sync"
	"testing"
)

func TestLong(t *testing.T) {
	var mu sync.Mutex
	n := 0
	done := make(chan bool)
	go func() {
		mu.Lock()
		n++
		mu.Unlock()
		done <- true
	}()
	for range 400 {
		mu.Lock()
		mu.Unlock()
	}
	<-done
	mu.Lock()
	defer mu.Unlock()
	if n == 1 {
		t.Error("the goroutine ran")
	}
}
`})
	code, out := weftTest(dir, "")
	m := replayCmd.FindStringSubmatch(out)
	if code != exitFailure || m == nil || !strings.Contains(out, "bytes, in the file testdata/weft/TestLong/") || strings.Contains(out, "replay token: w1.") {
		t.Fatalf("exit status %d, want %d, a report naming the replay file and a replay command:\n%s", code, exitFailure, out)
	}
	if !strings.HasPrefix(m[3], "TestLong=testdata/weft/TestLong/") {
		t.Errorf("replay command replays %q, want the replay file", m[3])
	}
	code, out = weftTest(dir, "", m[1], "-run", m[2], "-replay", m[3])
	if code != exitFailure || !strings.Contains(out, "the goroutine ran") || !strings.Contains(out, "bytes, in WEFT_REPLAY") {
		t.Errorf("the replay command: exit status %d, want %d with the failure replayed:\n%s", code, exitFailure, out)
	}
}
