// Package golden compares test output with golden files under testdata,
// after normalising what varies between machines and runs, and rewrites
// the files when the tests run with -update.
//
// A test renders its output, normalises it and compares it:
//
//	var update = flag.Bool("update", false, "rewrite the golden files in testdata")
//
//	func TestReportGolden(t *testing.T) {
//		got := golden.Normalize(f.Report(cmd))
//		golden.Check(t, filepath.Join("testdata", "report", "deadlock.golden"), got, *update)
//	}
//
// go test -run Golden -update rewrites the files; git diff shows what
// changed.
package golden

import (
	"go/build"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"
)

// moduleRoot is the directory of weft's module: two levels above this
// file's.
var moduleRoot = func() string {
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		return ""
	}
	return filepath.Dir(filepath.Dir(filepath.Dir(file)))
}()

var (
	goroutineHeader = regexp.MustCompile(`goroutine \d+ \[[^\]]*\]:`)
	inGoroutine     = regexp.MustCompile(`in goroutine \d+`)
	// location is the second line of a stack frame: a tab, the file, the
	// line and, but for inlined calls, the offset in the function.
	location = regexp.MustCompile(`^(\s*)\t(\S+):\d+( \+0x[0-9a-f]+)?$`)
	// hexArgs are the arguments of a frame's call, when they show values.
	hexArgs = regexp.MustCompile(`\([^()]*0x[^()]*\)$`)
)

// Normalize rewrites what varies between machines and runs in s, a report
// or a command's output that may hold goroutine stacks:
//
//   - goroutine ids and states: "goroutine N [...]:", "in goroutine N";
//   - the frames of a stack: the arguments of a call that show values
//     become "(...)", and a frame's location loses its line and offset,
//     which move whenever the file is edited; weft's own files are named
//     from the module's root, "$WEFT/internal/engine/thread.go";
//   - frames in Go's own sources (GOROOT), which differ between Go
//     versions, are dropped;
//   - any other occurrence of the module's root or of GOROOT becomes $WEFT
//     or $GOROOT.
//
// Source positions outside stacks (an interleaving's "file.go:12") are
// kept: they are the report's, and do not vary between machines.
func Normalize(s string) string {
	goroot := filepath.Clean(build.Default.GOROOT)
	lines := strings.Split(s, "\n")
	out := make([]string, 0, len(lines))
	for _, line := range lines {
		if m := location.FindStringSubmatch(line); m != nil && len(out) > 0 {
			file := m[2]
			if goroot != "." && strings.HasPrefix(file, goroot+string(filepath.Separator)) {
				out = out[:len(out)-1] // the frame's function line, and this one
				continue
			}
			out[len(out)-1] = hexArgs.ReplaceAllString(out[len(out)-1], "(...)")
			line = m[1] + "\t" + file
		}
		line = goroutineHeader.ReplaceAllString(line, "goroutine N [...]:")
		line = inGoroutine.ReplaceAllString(line, "in goroutine N")
		if moduleRoot != "" {
			line = strings.ReplaceAll(line, moduleRoot, "$WEFT")
		}
		if goroot != "." {
			line = strings.ReplaceAll(line, goroot, "$GOROOT")
		}
		out = append(out, line)
	}
	return strings.Join(out, "\n")
}

// Check compares got with the golden file at path, failing t if they
// differ; with update, it first writes got to path.
func Check(t testing.TB, path, got string, update bool) {
	t.Helper()
	if update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test -run Golden -update writes it)", err)
	}
	if got != string(want) {
		t.Errorf("the output differs from %s (go test -run Golden -update rewrites it):\n--- got\n%s\n--- want\n%s", path, got, want)
	}
}
