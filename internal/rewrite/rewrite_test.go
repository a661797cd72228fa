package rewrite

import (
	"errors"
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/weft-go/weft/internal/golden"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// TestGolden rewrites the package testdata/src and compares each file with
// testdata/golden/<file>.golden; it checks that rewriting the output
// changes nothing and that go vet finds nothing in it.
func TestGolden(t *testing.T) {
	t.Parallel()
	out, err := Packages(Config{}, "./testdata/src")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for name := range out {
		names = append(names, name)
	}
	slices.Sort(names)
	if want := []string{"cancel.go", "cheaprand.go", "constructs.go", "constructs_test.go", "explorers_test.go", "maprange.go", "measure.go", "names.go", "parallel_test.go", "polls.go", "rangeold.go", "selectlines.go", "sizes.go", "sizes_test.go", "subtests_test.go", "timeout.go", "yield.go"}; !slices.Equal(bases(names), want) {
		t.Fatalf("rewritten files %v, want %v", bases(names), want)
	}
	for _, name := range names {
		golden.Check(t, filepath.Join("testdata", "golden", filepath.Base(name)+".golden"), string(out[name]), *update)
		if got, want := strings.Count(string(out[name]), "\n"), lines(t, name); got != want {
			t.Errorf("%s: %d lines rewritten, %d in the original", name, got, want)
		}
	}
	checkPositions(t, filepath.Join("testdata", "src", "selectlines.go"), out)
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

// TestUnsupported checks the refusals of the constructs the rewriting does
// not support: the function that holds them is left as it was, but for a
// first statement, on its first line, that refuses the test that reaches
// it (weftrt.Unsupported; weftrt.Refuse in a Test function or subtest,
// which skips it) with each construct's file:line and the way out, one
// message per construct. Rewriting the output changes nothing, and it
// builds.
func TestUnsupported(t *testing.T) {
	t.Parallel()
	out, err := Packages(Config{}, "./testdata/unsupported")
	if err != nil {
		t.Fatal(err)
	}
	const reflectOut = ": its channel operations would run on the Go channel, outside weft's control, and not be steps weft schedules; write them as channel operations of Go (a select with a case per channel, a send, a receive)"
	const typeParamOut = ", whose type C is a type parameter: weft test rewrites the operations of channel types only; give c a channel type (chan T, with T a type parameter if need be)"
	const subtestsOut = " outside its subtests: weft test runs each subtest that calls no t.Run as its own exploration, and the code around the subtests as plain Go, outside any exploration; move it into the subtests"
	wants := []struct {
		file, line string
		msgs       []string
	}{
		{"unsupported.go", "func pick(a, b chan int) int { weftrt.Unsupported(", []string{"unsupported.go:14:13: reflect.Select" + reflectOut}},
		{"unsupported.go", "func split(chans map[string]chan int) int { weftrt.Unsupported(", []string{
			"unsupported.go:20:14: a select case's channel holds a raw string literal over several lines, which weft test must write on one line, that of the select: bind the string to a variable before the select"}},
		{"unsupported.go", "func reflected(a chan int) { weftrt.Unsupported(", []string{
			"unsupported.go:27:2: reflect.Value.Send" + reflectOut,
			"unsupported.go:28:10: reflect.Value.TryRecv" + reflectOut,
			"unsupported.go:30:2: reflect.Value.Close" + reflectOut}},
		{"unsupported.go", "func generic[C ~chan int](c C) int { weftrt.Unsupported(", []string{
			"unsupported.go:34:2: a channel operation on c" + typeParamOut,
			"unsupported.go:36:17: a channel operation on c" + typeParamOut,
			"unsupported.go:39:17: a channel operation on c" + typeParamOut}},
		{"unsupported.go", "func write() { weftrt.Unsupported(", []string{
			"unsupported.go:43:32: a go statement's untyped constant argument has a parameter type of package io/fs, which the file does not import: give the constant a type"}},
		{"unsupported_test.go", "func TestSub(t *testing.T) { weftrt.Refuse(t, ", []string{"unsupported_test.go:11:3: a send in TestSub" + subtestsOut}},
		// The subtest's own refusal goes with its parent's body, which is
		// refused; a subtest with t.Parallel not first refuses itself
		// alone, and the next subtest runs.
		{"unsupported_test.go", "func TestLateParallel(t *testing.T) { weftrt.Refuse(t, ", []string{"unsupported_test.go:25:2: a go statement in TestLateParallel" + subtestsOut}},
		{"unsupported_test.go", "	weftrt.Run(t, \"late\", func(t *testing.T) { weftrt.Refuse(t, ", []string{
			"unsupported_test.go:31:3: t.Parallel in TestLateParallelSub/late is not its first statement: weft test runs the body after t.Parallel as an exploration; call t.Parallel first (after copies of loop variables such as tc := tc)"}},
	}
	files := map[string]string{}
	for name, b := range out {
		files[filepath.Base(name)] = string(b)
	}
	refusals := 0
	for _, w := range wants {
		line := w.line + strconv.Quote(strings.Join(w.msgs, "; ")) + ");\n"
		if !strings.Contains(files[w.file], line) {
			t.Errorf("%s lacks the line\n%s\n%s", w.file, line, files[w.file])
		}
		refusals++
	}
	if got := strings.Count(files["unsupported.go"]+files["unsupported_test.go"], "weftrt.Unsupported(") + strings.Count(files["unsupported_test.go"], "weftrt.Refuse("); got != refusals {
		t.Errorf("%d refusals, want %d", got, refusals)
	}
	again, err := Packages(Config{Overlay: out}, "./testdata/unsupported")
	if err != nil || len(again) != 0 {
		t.Errorf("rewriting the rewritten files: changed %v, error %v; want nothing", bases(keys(again)), err)
	}
	if b, err := exec.Command("go", "test", "-count=1", "-overlay", writeOverlay(t, out), "-run", "^$", "./testdata/unsupported").CombinedOutput(); err != nil {
		t.Errorf("building the rewritten files: %v\n%s", err, b)
	}
}

// TestCgo checks that a package that uses cgo is refused, naming its
// import of "C".
func TestCgo(t *testing.T) {
	if out, err := exec.Command("go", "env", "CGO_ENABLED").Output(); err != nil || strings.TrimSpace(string(out)) != "1" {
		t.Skip("cgo is not enabled: the package's file is not built")
	}
	_, err := Packages(Config{}, "./testdata/cgo")
	const want = "cgo.go:4:8: package github.com/weft-go/weft/internal/rewrite/testdata/cgo uses cgo (import \"C\"): weft test does not rewrite a package that uses cgo, whose C code would run outside weft's control; test the concurrency in a package without cgo, or build without it (CGO_ENABLED=0) if the package has files for that"
	if !errors.Is(err, ErrUnsupported) || !strings.Contains(err.Error(), want) {
		t.Errorf("err = %v, want ErrUnsupported and %q", err, want)
	}
}

// checkPositions checks that the tokens of the select cases over several
// lines of file keep their lines and columns in its rewritten source
// (their /*line*/ directives), that weftrt.Select is on the select's line
// and the clauses' bodies on theirs.
func checkPositions(t *testing.T, file string, out map[string][]byte) {
	t.Helper()
	abs, err := filepath.Abs(file)
	if err != nil {
		t.Fatal(err)
	}
	orig, err := os.ReadFile(abs)
	if err != nil {
		t.Fatal(err)
	}
	before, after := tokenPositions(t, abs, orig), tokenPositions(t, abs, out[abs])
	for _, want := range []string{
		"shards@8:7", "v@9:2", "len@9:4", "w@10:3", "w@11:10", "reply@15:15", `"a"@16:3`, "got@15:3", "got@17:10", "r@22:10",
	} {
		if !before[want] || !after[want] {
			t.Errorf("%s: token %s: in the original %v, in the rewritten source %v; want both", file, want, before[want], after[want])
		}
	}
	if !after["Select@7:"] {
		t.Errorf("%s: weftrt.Select is not on line 7, the select's", file)
	}
}

// tokenPositions returns the identifiers and basic literals of the Go file
// name whose source is src, each as text@line:col by its position with
// its line directives, and each as text@line: too.
func tokenPositions(t *testing.T, name string, src []byte) map[string]bool {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, name, src, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	pos := map[string]bool{}
	ast.Inspect(f, func(n ast.Node) bool {
		var text string
		switch n := n.(type) {
		case *ast.Ident:
			text = n.Name
		case *ast.BasicLit:
			text = n.Value
		default:
			return true
		}
		p := fset.Position(n.Pos())
		pos[fmt.Sprintf("%s@%d:%d", text, p.Line, p.Column)] = true
		pos[fmt.Sprintf("%s@%d:", text, p.Line)] = true
		return true
	})
	return pos
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
