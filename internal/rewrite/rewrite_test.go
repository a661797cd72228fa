package rewrite

import (
	"errors"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/weft-go/weft/internal/golden"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// TestGolden rewrites the package testdata/src and compares each file with
// testdata/golden/<file>.golden; it checks that rewriting the output
// changes nothing and that go vet finds nothing in it.
func TestGolden(t *testing.T) {
	out, err := Packages(Config{}, "./testdata/src")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for name := range out {
		names = append(names, name)
	}
	slices.Sort(names)
	if want := []string{"cancel.go", "constructs.go", "constructs_test.go", "subtests_test.go", "timeout.go", "yield.go"}; !slices.Equal(bases(names), want) {
		t.Fatalf("rewritten files %v, want %v", bases(names), want)
	}
	for _, name := range names {
		golden.Check(t, filepath.Join("testdata", "golden", filepath.Base(name)+".golden"), string(out[name]), *update)
		if got, want := strings.Count(string(out[name]), "\n"), lines(t, name); got != want {
			t.Errorf("%s: %d lines rewritten, %d in the original", name, got, want)
		}
	}
	again, err := Packages(Config{Overlay: out}, "./testdata/src")
	if err != nil {
		t.Fatalf("rewriting the rewritten files: %v", err)
	}
	if len(again) != 0 {
		t.Errorf("rewriting the rewritten files changed %v, want nothing", bases(keys(again)))
	}
	overlay := writeOverlay(t, out)
	if b, err := exec.Command("go", "vet", "-overlay", overlay, "./testdata/src").CombinedOutput(); err != nil {
		t.Errorf("go vet of the rewritten files: %v\n%s", err, b)
	}
}

// TestUnsupported checks the errors of the constructs the rewriting
// refuses.
func TestUnsupported(t *testing.T) {
	_, err := Packages(Config{}, "./testdata/unsupported")
	if !errors.Is(err, ErrUnsupported) {
		t.Fatalf("err = %v, want ErrUnsupported", err)
	}
	msg := err.Error()
	for _, want := range []string{
		"unsupported.go:11:13: reflect.Select",
		"unsupported.go:17:14: a select case whose expression spans several lines",
		"unsupported_test.go:11:3: a send in TestSub outside its subtests",
		"unsupported_test.go:23:3: t.Parallel in TestLateParallel/late is not its first statement",
		"unsupported_test.go:25:2: a go statement in TestLateParallel outside its subtests",
	} {
		if !strings.Contains(msg, want) {
			t.Errorf("error %q does not contain %q", msg, want)
		}
	}
	if n := strings.Count(msg, "\n") + 1; n != 5 {
		t.Errorf("%d errors, want 5:\n%s", n, msg)
	}
}

func bases(names []string) []string {
	var b []string
	for _, n := range names {
		b = append(b, filepath.Base(n))
	}
	return b
}

func keys(m map[string][]byte) []string {
	var k []string
	for n := range m {
		k = append(k, n)
	}
	return k
}

func lines(t *testing.T, name string) int {
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Count(string(b), "\n")
}

// writeOverlay writes the files of out to a temporary directory and
// returns the path of the overlay file for go build's -overlay.
func writeOverlay(t *testing.T, out map[string][]byte) string {
	dir := t.TempDir()
	b, err := Overlay(dir, out)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestNotMainModule checks that patterns matching no package of the main
// module are refused (loading no pattern would load the directory's).
func TestNotMainModule(t *testing.T) {
	out, err := Packages(Config{}, "fmt")
	if !errors.Is(err, ErrNotMainModule) || out != nil {
		t.Errorf("Packages(fmt) = %d files, %v; want %v", len(out), err, ErrNotMainModule)
	}
}
