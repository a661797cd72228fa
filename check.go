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
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/weft-go/weft/internal/engine"
	"github.com/weft-go/weft/strategy/replay"
	"github.com/weft-go/weft/trace"
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
	if engine.InExecution() {
		// t belongs to the enclosing test, whose goroutine this is not:
		// fail the execution that called Check instead (from a callback
		// on the dispatcher, the panic ends the process with its message).
		panic(nestedError("weft.Check"))
	}
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
		return nil
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
			t.Fatalf("weft: replay file: %v (fix it or delete it)", err)
			return nil
		}
		r, err := Replay(body, tok, opts...)
		if errors.Is(err, replay.ErrMismatch) {
			t.Logf("weft: replay file %s no longer matches the test (%v); delete it if the test changed on purpose", path, err)
			continue
		}
		if err != nil {
			t.Fatalf("weft: replay file %s: %v (fix it or delete it)", path, err)
			return nil
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

// replayFields are the fields of a replay file after its first line, all
// required, once each.
var replayFields = []string{"kind", "token"}

// readReplayFile parses a replay file: the line "weft replay v1", then the
// fields "kind: K" (a failure kind) and "token: T" (a replay token), in any
// order; blank lines are ignored. An error names the file, the line and
// the field, and what the field allows.
func readReplayFile(path string) (kind trace.FailureKind, token string, err error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0, "", err
	}
	lines := strings.Split(string(b), "\n")
	if strings.TrimSpace(lines[0]) != "weft replay v1" {
		return 0, "", fmt.Errorf(`%s:1: not a weft replay file: the first line must be "weft replay v1"`, path)
	}
	seen := map[string]bool{}
	for i, l := range lines[1:] {
		n := i + 2
		if strings.TrimSpace(l) == "" {
			continue
		}
		k, v, ok := strings.Cut(l, ":")
		k, v = strings.TrimSpace(k), strings.TrimSpace(v)
		switch {
		case !ok:
			return 0, "", fmt.Errorf("%s:%d: malformed line %q: want \"field: value\" (fields: %s)", path, n, l, strings.Join(replayFields, ", "))
		case !slices.Contains(replayFields, k):
			return 0, "", fmt.Errorf("%s:%d: unknown field %q (fields: %s)", path, n, k, strings.Join(replayFields, ", "))
		case seen[k]:
			return 0, "", fmt.Errorf("%s:%d: field %s given twice", path, n, k)
		}
		seen[k] = true
		switch k {
		case "kind":
			var ok bool
			if kind, ok = trace.ParseFailureKind(v); !ok || kind == trace.NoFailure {
				return 0, "", fmt.Errorf("%s:%d: field kind: unknown failure kind %q (allowed: %s)", path, n, v, failureKindList())
			}
		case "token":
			if _, err := replay.Decode(v); err != nil {
				return 0, "", fmt.Errorf("%s:%d: field token: %w", path, n, err)
			}
			token = v
		}
	}
	for _, f := range replayFields {
		if !seen[f] {
			return 0, "", fmt.Errorf("%s: no %s field: want a line \"%s: ...\"", path, f, f)
		}
	}
	return kind, token, nil
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

// topName is the top-level test of a (sub)test name.
func topName(name string) string {
	top, _, _ := strings.Cut(name, "/")
	return top
}
