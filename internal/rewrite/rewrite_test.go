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
	if want := []string{"cancel.go", "constructs.go", "constructs_test.go", "rangeold.go", "selectlines.go", "subtests_test.go", "timeout.go", "yield.go"}; !slices.Equal(bases(names), want) {
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
		"unsupported.go:17:14: a select case's channel holds a raw string literal over several lines, which weft test must write on one line, that of the select: bind the string to a variable before the select",
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
		"shards@8:7", "v@9:3", "len@9:5", "w@10:3", "w@11:10", `"a"@16:3`, "got@15:3", "got@17:10", "r@22:10",
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
