// This file implements Check, the entry point for go test: replay files
// first, then exploration, and a failing test with a report.

package weft

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/weft-go/weft/strategy/replay"
)

// ReplayEnv is the environment variable that makes Check replay one token
// instead of exploring.
const ReplayEnv = "WEFT_REPLAY"

// ReplayDir is where Check keeps the replay files of failing executions, one
// directory per test, as Go fuzzing does with testdata/fuzz.
const ReplayDir = "testdata/weft"

// Check explores the executions of body inside a Go test and fails t with a
// report for the first failure found. Replay files under
// testdata/weft/<TestName>/ run first; WEFT_REPLAY=<token> replays one token
// and nothing else.
func Check(t testing.TB, body func(w *T), opts ...Option) *Result {
	t.Helper()
	c := defaultConfig()
	for _, o := range opts {
		if err := o(&c); err != nil {
			t.Fatalf("weft: bad option: %v", err)
			return nil
		}
	}
	if tok := os.Getenv(ReplayEnv); tok != "" {
		r, err := Replay(body, tok, opts...)
		if errors.Is(err, replay.ErrMismatch) {
			t.Fatalf("weft: %s=%q: %v\nthe token comes from another test or other options, or the test body is not deterministic", ReplayEnv, tok, err)
			return r
		}
		if err != nil {
			t.Fatalf("weft: %s=%q: %v", ReplayEnv, tok, err)
			return nil
		}
		if r.Failed() {
			t.Errorf("%s", r.Failures[0].Report(""))
		} else {
			t.Logf("weft: the replay of %s completed without failure", ReplayEnv)
		}
		return r
	}
	dir := filepath.Join(ReplayDir, sanitize(t.Name()))
	if c.replayFiles {
		if r := replayFiles(t, body, dir, opts); r != nil {
			return r
		}
	}
	r, err := Explore(body, opts...)
	if err != nil {
		t.Fatalf("weft: %v", err)
	}
	if r.Failed() {
		f := r.Failures[0]
		where := ""
		if c.replayFiles {
			path, err := writeReplayFile(dir, f)
			if err != nil {
				where = fmt.Sprintf("(could not write the replay file: %v)\n", err)
			} else {
				where = fmt.Sprintf("replay file: %s (runs first in every go test until removed)\n", path)
			}
		}
		cmd := fmt.Sprintf("%s=%s go test -run '^%s$'", ReplayEnv, f.Token, regexp.QuoteMeta(topName(t.Name())))
		t.Errorf("%s%s", f.Report(cmd), where)
	}
	return r
}

// replayFiles replays the files in dir; it returns the result of the first
// that still fails, after failing t.
func replayFiles(t testing.TB, body func(w *T), dir string, opts []Option) *Result {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		t.Fatalf("weft: reading replay files: %v", err)
	}
	for _, ent := range entries {
		if ent.IsDir() {
			continue
		}
		path := filepath.Join(dir, ent.Name())
		kind, tok, err := readReplayFile(path)
		if err != nil {
			t.Fatalf("weft: replay file %s: %v (fix it or delete it)", path, err)
		}
		r, err := Replay(body, tok, opts...)
		if errors.Is(err, replay.ErrMismatch) {
			t.Logf("weft: replay file %s no longer matches the test (%v); delete it if the test changed on purpose", path, err)
			continue
		}
		if err != nil {
			t.Fatalf("weft: replay file %s: %v (fix it or delete it)", path, err)
		}
		if r.Failed() {
			t.Errorf("weft: replay file %s (recorded %v) still fails:\n%s", path, kind, r.Failures[0].Report(""))
			return r
		}
	}
	return nil
}

// writeReplayFile writes f's replay file into dir and returns its path.
func writeReplayFile(dir string, f *Failure) (string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	sum := sha256.Sum256([]byte(f.Token))
	path := filepath.Join(dir, hex.EncodeToString(sum[:8]))
	content := fmt.Sprintf("weft replay v1\nkind: %s\ntoken: %s\n", f.Kind, f.Token)
	return path, os.WriteFile(path, []byte(content), 0o644)
}

// readReplayFile parses a replay file.
func readReplayFile(path string) (kind, token string, err error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return "", "", err
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	if len(lines) == 0 || strings.TrimSpace(lines[0]) != "weft replay v1" {
		return "", "", errors.New(`not a weft replay file: the first line must be "weft replay v1"`)
	}
	for _, l := range lines[1:] {
		k, v, ok := strings.Cut(l, ":")
		if !ok {
			return "", "", fmt.Errorf("malformed line %q: want key: value", l)
		}
		switch strings.TrimSpace(k) {
		case "kind":
			kind = strings.TrimSpace(v)
		case "token":
			token = strings.TrimSpace(v)
		}
	}
	if token == "" {
		return "", "", errors.New("no token line")
	}
	return kind, token, nil
}

var unsafeChars = regexp.MustCompile(`[^A-Za-z0-9_.\-/]`)

// sanitize turns a test name into a relative path.
func sanitize(name string) string {
	return strings.ReplaceAll(unsafeChars.ReplaceAllString(name, "_"), "..", "_")
}

// topName is the top-level test of a (sub)test name.
func topName(name string) string {
	top, _, _ := strings.Cut(name, "/")
	return top
}
