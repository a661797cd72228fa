// This file implements the replay files under testdata/weft, which Check
// runs before exploring and writes for a new failure, as Go fuzzing does
// with its corpus under testdata/fuzz: their format, their modes
// (ReplayFilesEnv), the time mode each was recorded in, and the failures
// they recorded that no longer happen.

package weft

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/weft-go/weft/internal/engine"
	"github.com/weft-go/weft/strategy/replay"
	"github.com/weft-go/weft/trace"
)

// replayMode is what Check does with replay files (ReplayFilesEnv).
type replayMode uint8

const (
	replayOn     replayMode = iota // run them, write new ones
	replayOff                      // neither
	replayCheck                    // run them, write nothing
	replayUpdate                   // run them, write new ones, delete those that no longer fail
)

// parseReplayMode returns the mode named s, a value of ReplayFilesEnv.
func parseReplayMode(s string) (replayMode, error) {
	switch s {
	case "on", "1":
		return replayOn, nil
	case "off", "0":
		return replayOff, nil
	case "check":
		return replayCheck, nil
	case "update":
		return replayUpdate, nil
	}
	return 0, errors.New("want on (run the replay files, write new ones), check (run them, write nothing), update (run them, write new ones, delete those whose failure no longer happens) or off")
}

// writes reports whether Check writes replay files in mode m.
func (m replayMode) writes() bool { return m == replayOn || m == replayUpdate }

// LongToken is the length in bytes above which a report and its replay
// command name the replay file that holds the token rather than the token
// itself (a livelock's can be hundreds of kilobytes, more than a command
// line or an environment variable holds).
const LongToken = 1024

// replayFile is the content of a replay file: the failure's kind, its
// token, and the time mode it was recorded in (timeSet false for a file
// written before files recorded it: it is replayed in every mode).
type replayFile struct {
	kind    trace.FailureKind
	token   string
	time    engine.TimeMode
	timeSet bool
}

// replayFiles replays the files of Check call id; it returns the result of
// the first that still fails, after failing t. A file recorded in another
// time mode than c's is passed over; one whose failure no longer happens
// (its replay diverges from the test, or ends without failure) is said so,
// and kept or deleted as c's mode says.
func replayFiles(t testing.TB, body func(w *T), id checkID, c *config, opts []Option) *Result {
	t.Helper()
	entries, err := os.ReadDir(id.dir)
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
		path := filepath.Join(id.dir, ent.Name())
		f, err := readReplayFile(path)
		if err != nil {
			t.Fatalf("weft: replay file: %v (fix it or delete it)", err)
			return nil
		}
		if f.timeSet && f.time != c.time {
			t.Logf("weft: replay file %s was recorded with time %v, not replayed with time %v", path, f.time, c.time)
			continue
		}
		r, err := Replay(body, f.token, opts...)
		switch {
		case errors.Is(err, replay.ErrMismatch):
			noLongerHappens(t, path, c.replayFiles, fmt.Sprintf("the test no longer follows its schedule (%v)", err))
		case errors.Is(err, ErrNoExecution):
			inconclusive(t, c, fmt.Errorf("replay file %s: %w", path, err))
			return nil
		case err != nil:
			t.Fatalf("weft: replay file %s: %v (fix it or delete it)", path, err)
			return nil
		case r.StepBounded():
			t.Logf("weft: replay file %s (recorded %v) reaches the step bound again:\n%s", path, f.kind, r.Failures[0].Report(""))
			inconclusive(t, c, fmt.Errorf("replay file %s reaches the step bound (%d steps) without ending, which proves no failure: raise the bound (WithMaxSteps, weft test -max-steps), or delete the file (rm %s)", path, maxSteps(c), shellQuote(path)))
			return nil
		case r.Failed():
			cmd := replayCommand(t.Name(), id, commandToken(f.token, path))
			r.Failures[0].tokenFile = longTokenFile(f.token, path)
			t.Errorf("weft: replay file %s (recorded %v) still fails:\n%s%s", path, f.kind, r.Failures[0].Report(cmd), htmlNote(r.Failures[0], t.Name(), cmd))
			return r
		default:
			noLongerHappens(t, path, c.replayFiles, "its schedule runs to the end without failure")
		}
	}
	return nil
}

// noLongerHappens says that the failure the replay file at path recorded
// no longer happens, why, and what becomes of the file in mode m: the test
// does not fail for it, and explores as usual.
func noLongerHappens(t testing.TB, path string, m replayMode, why string) {
	t.Helper()
	what := fmt.Sprintf("the file stays, and runs first in every test run: delete it (rm %s, or %s=update deletes every such file)", shellQuote(path), ReplayFilesEnv)
	if m == replayUpdate {
		what = "deleted it (" + ReplayFilesEnv + "=update)"
		if err := os.Remove(path); err != nil {
			what = fmt.Sprintf("could not delete it: %v", err)
		}
	}
	t.Logf("weft: recorded failure in %s no longer happens (fixed?): %s; %s; exploring", path, why, what)
}

// writeReplayFile writes f's replay file, recorded in time mode tm, into
// dir and returns its path.
func writeReplayFile(dir string, f *Failure, tm engine.TimeMode) (string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	sum := sha256.Sum256([]byte(f.Token))
	path := filepath.Join(dir, hex.EncodeToString(sum[:8]))
	content := fmt.Sprintf("weft replay v1\nkind: %s\ntime: %v\ntoken: %s\n", f.Kind, tm, f.Token)
	return path, os.WriteFile(path, []byte(content), 0o644)
}

// tokenFile returns the path of a file that holds token, for a long token
// that no replay file holds: a replay file in the directory weft-replay
// of os.TempDir, named after the token.
func tokenFile(f *Failure, tm engine.TimeMode) (string, error) {
	path, err := writeReplayFile(filepath.Join(os.TempDir(), "weft-replay"), f, tm)
	if err != nil {
		return "", fmt.Errorf("writing the long token to a file: %w", err)
	}
	return path, nil
}

// longTokenFile returns "the file <path>" if token is longer than
// LongToken and path is not "" (the report names the file), or "".
func longTokenFile(token, path string) string {
	if len(token) > LongToken && path != "" {
		return "the file " + path
	}
	return ""
}

// commandToken returns what a replay command passes for token, which the
// file at path holds: the token, or the path if the token is longer than
// LongToken (ReplayEnv takes either).
func commandToken(token, path string) string {
	if len(token) > LongToken && path != "" {
		return path
	}
	return token
}

// replayFields are the fields of a replay file after its first line: kind
// and token, required, and time, which older files lack; once each.
var replayFields = []string{"kind", "time", "token"}

// readReplayFile parses a replay file: the line "weft replay v1", then the
// fields "kind: K" (a failure kind), "token: T" (a replay token) and
// "time: M" (blocked or any; optional), in any order; blank lines are
// ignored. An error names the file, the line and the field, and what the
// field allows.
func readReplayFile(path string) (f replayFile, err error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return f, err
	}
	lines := strings.Split(string(b), "\n")
	if strings.TrimSpace(lines[0]) != "weft replay v1" {
		return f, fmt.Errorf(`%s:1: not a weft replay file: the first line must be "weft replay v1"`, path)
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
			return f, fmt.Errorf("%s:%d: malformed line %q: want \"field: value\" (fields: %s)", path, n, l, strings.Join(replayFields, ", "))
		case !slices.Contains(replayFields, k):
			return f, fmt.Errorf("%s:%d: unknown field %q (fields: %s)", path, n, k, strings.Join(replayFields, ", "))
		case seen[k]:
			return f, fmt.Errorf("%s:%d: field %s given twice", path, n, k)
		}
		seen[k] = true
		switch k {
		case "kind":
			var ok bool
			if f.kind, ok = trace.ParseFailureKind(v); !ok || f.kind == trace.NoFailure {
				return f, fmt.Errorf("%s:%d: field kind: unknown failure kind %q (allowed: %s)", path, n, v, failureKindList())
			}
		case "time":
			m, err := ParseTimeMode(v)
			if err != nil {
				return f, fmt.Errorf("%s:%d: field time: %w", path, n, err)
			}
			f.time, f.timeSet = engine.TimeMode(m), true
		case "token":
			if _, err := replay.Decode(v); err != nil {
				return f, fmt.Errorf("%s:%d: field token: %w", path, n, err)
			}
			f.token = v
		}
	}
	for _, k := range []string{"kind", "token"} {
		if !seen[k] {
			return f, fmt.Errorf("%s: no %s field: want a line \"%s: ...\"", path, k, k)
		}
	}
	return f, nil
}
