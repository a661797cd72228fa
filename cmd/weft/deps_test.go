// This file tests weft test on a module whose bug is in a dependency
// module reached through a replace directive (testdata/deps): rewritten as
// the main module is, the dependency's deadlock is found at its own lines;
// kept real with -real, its goroutines run outside weft's control.

package main

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// depsDir is the module of testdata/deps whose tests run; its dependency
// example.com/pool is in testdata/deps/pool.
var depsDir = filepath.Join("testdata", "deps", "app")

// depsWantLocs reads the "// want TestPoolBug: deadlock" comments of the
// app and of its dependency: the blocked operations of the deadlock.
func depsWantLocs(t *testing.T) []string {
	t.Helper()
	var locs []string
	for _, dir := range []string{"app", "pool"} {
		for _, w := range marksIn(t, filepath.Join("testdata", "deps", dir), regexp.MustCompile(`// want (TestPoolBug): (deadlock)`)) {
			locs = append(locs, w.loc)
		}
	}
	slices.Sort(locs)
	return locs
}

// marksIn reads the want comments of the Go files of dir that mark
// matches, as corpusMarks does.
func marksIn(t *testing.T, dir string, mark *regexp.Regexp) []want {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	var out []want
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(b), "\n") {
			if m := mark.FindStringSubmatch(line); m != nil {
				out = append(out, want{kind: m[2], loc: filepath.Base(f) + ":" + strconv.Itoa(i+1)})
			}
		}
	}
	return out
}

// TestTestDeps runs weft test on testdata/deps/app: by default the
// dependency example.com/pool is rewritten, and TestPoolBug's deadlock is
// found with its three blocked operations at the lines their want
// comments mark, two of them the dependency's (its worker's lock, its
// Submit's send), while TestPoolFixed passes. With -real example.com/pool
// the pool's worker is a goroutine outside weft's control: in the first
// execution of each test, the second Submit waits on its real channel for
// the worker, itself stuck sending a result no real goroutine receives,
// and both tests fail as blocked outside weft, in the pool's Submit.
func TestTestDeps(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a module and its dependency with weft test")
	}
	wantLocs := depsWantLocs(t)
	if len(wantLocs) != 3 {
		t.Fatalf("%d want comments in testdata/deps, want 3: %v", len(wantLocs), wantLocs)
	}
	t.Parallel()
	t.Run("rewritten", func(t *testing.T) {
		t.Parallel()
		depsRewritten(t, wantLocs)
	})
	t.Run("real", func(t *testing.T) {
		t.Parallel()
		depsReal(t)
	})
}

// depsRewritten runs weft test on testdata/deps/app with its dependency
// rewritten: TestPoolBug deadlocks, blocked at wantLocs.
func depsRewritten(t *testing.T, wantLocs []string) {
	runs, code := runModule(t, depsDir)
	if code != exitFailure || len(runs) != 2 {
		t.Fatalf("exit status %d, %d tests; want %d and 2", code, len(runs), exitFailure)
	}
	bug, fixed := runs["TestPoolBug"], runs["TestPoolFixed"]
	if bug == nil || fixed == nil {
		t.Fatalf("tests run: %v, want TestPoolBug and TestPoolFixed", runs)
	}
	kind, locs := failureAt(bug.output.String())
	slices.Sort(locs)
	if bug.action != "fail" || kind != "deadlock" || !slices.Equal(locs, wantLocs) {
		t.Errorf("TestPoolBug: %s, %q blocked at %v; want fail, deadlock blocked at %v:\n%s", bug.action, kind, locs, wantLocs, bug.output.String())
	}
	if fixed.action != "pass" {
		t.Errorf("TestPoolFixed: %s, want pass:\n%s", fixed.action, fixed.output.String())
	}
}

// depsReal runs weft test on testdata/deps/app with its dependency kept
// real: both tests block outside weft, in the pool's Submit, and are
// inconclusive (weft cannot tell whether the pool's real goroutines would
// have unblocked them).
func depsReal(t *testing.T) {
	runs, code := runModule(t, depsDir, "-real", "example.com/pool")
	if code != exitInconclusive || len(runs) != 2 {
		t.Fatalf("-real: exit status %d, %d tests; want %d and 2", code, len(runs), exitInconclusive)
	}
	for name, in := range map[string]string{
		"TestPoolBug":   "example.com/pool.(*Pool).Submit (pool.go:41)",
		"TestPoolFixed": "example.com/pool.(*Fixed).Submit (fixed.go:38)",
	} {
		r := runs[name]
		if r == nil {
			t.Errorf("-real: %s did not run", name)
			continue
		}
		out := r.output.String()
		kind, _ := failureAt(out)
		if r.action != "skip" || !strings.Contains(out, "weft: inconclusive: an execution blocked outside weft's control") || kind != "blocked outside weft" || !strings.Contains(out, "(execution 1,") ||
			!strings.Contains(out, "blocked outside weft's control in "+in+": its goroutine has waited in the Go runtime [chan send]") ||
			!strings.Contains(out, "replay: weft test -real=example.com/pool example.com/app -run '^"+name+"$'") {
			t.Errorf("-real: %s: %s, %q; want skip (INCONCLUSIVE), blocked outside weft in execution 1, in %s, with a replay command that keeps the pool real:\n%s", name, r.action, kind, in, out)
		}
	}
}

// TestRaiseGoLine checks the go line of a copied module: raised to
// minDepGo when older or absent, kept when as new or newer.
func TestRaiseGoLine(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"module a\n\ngo 1.13\n", "module a\n\ngo 1.21\n"},
		{"module a\n\ngo 1.21\n", "module a\n\ngo 1.21\n"},
		{"module a\n\ngo 1.22.3\n\nrequire b v1.0.0\n", "module a\n\ngo 1.22.3\n\nrequire b v1.0.0\n"},
		{"module a\n", "module a\n\ngo 1.21\n"},
	} {
		if got := string(raiseGoLine([]byte(c.in))); got != c.want {
			t.Errorf("raiseGoLine(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// TestTestMadeOutside checks that a goroutine left blocked on a channel
// that a package kept real made (its sender a goroutine outside weft's
// control) is reported as blocked outside weft, naming the function that
// made the channel, rather than as a deadlock, and the test is
// inconclusive.
func TestTestMadeOutside(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a module and its dependency with weft test")
	}
	files := map[string]string{
		"go.mod":     "module example.com/outside\n\ngo 1.26.0\n\nrequire example.com/src v0.0.0\n\nreplace example.com/src => ./src\n",
		"src/go.mod": "module example.com/src\n\ngo 1.26.0\n",
		"src/src.go": `// Package src hands out values from a goroutine of its own.
package src

// Values returns a channel on which a goroutine sends n values.
func Values(n int) <-chan int {
	ch := make(chan int)
	go func() {
		for i := range n {
			ch <- i
		}
	}()
	return ch
}
`,
		"o_test.go": `package outside

import (
	"testing"

	"example.com/src"
)

func TestValues(t *testing.T) {
	ch := src.Values(2)
	if v := <-ch; v != 0 {
		t.Errorf("got %d", v)
	}
}
`,
	}
	out := testModuleArgs(t, t.TempDir(), files, []string{"-v", "-real", "example.com/src"}, exitInconclusive)
	for _, want := range []string{
		"weft: blocked outside weft in T0 (execution 1,",
		"--- INCONCLUSIVE: TestValues",
		"T0 blocked on recv ch, a channel made in example.com/src.Values, outside weft's control:",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "deadlock") {
		t.Errorf("output reports a deadlock:\n%s", out)
	}
}
