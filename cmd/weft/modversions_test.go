// This file tests the notice weft test prints when the temporary go.mod
// that adds weft to a module's requirements raises one of the module's
// own dependencies.

package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/weft-go/weft/internal/long"
)

// TestTestRaisedVersions runs weft test in a module that requires
// golang.org/x/sync v0.1.0, older than the version weft requires: minimal
// version selection builds with weft's, and weft test says so on stderr.
func TestTestRaisedVersions(t *testing.T) {
	long.Skip(t, "builds a module with weft test")
	dir := t.TempDir()
	files := map[string]string{
		"go.mod": "module example.com/raised\n\ngo 1.26.0\n\nrequire golang.org/x/sync v0.1.0\n",
		"go.sum": "golang.org/x/sync v0.1.0 h1:wsuoTGHzEhffawBOhz5CYhcrV4IdKZbEyZjBMuTp12o=\n" +
			"golang.org/x/sync v0.1.0/go.mod h1:RxMgew5VJxzue5/jJTE5uejpjVlOe/izrB70Jof72aM=\n",
		"g_test.go": `package raised

import (
	"testing"

	"golang.org/x/sync/errgroup"
)

func TestGroup(t *testing.T) {
	var g errgroup.Group
	g.Go(func() error { return nil })
	if err := g.Wait(); err != nil {
		t.Error(err)
	}
}
`,
	}
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("WEFT_REPLAY_FILES", "0")
	var stdout, stderr bytes.Buffer
	if code := runTest(dir, nil, &stdout, &stderr); code != exitOK {
		t.Fatalf("exit status %d, want %d\nstdout:\n%s\nstderr:\n%s", code, exitOK, stdout.String(), stderr.String())
	}
	want := "weft: building with golang.org/x/sync " + weftRequires(t, "golang.org/x/sync") + " (your go.mod: v0.1.0), required by weft\n"
	if got := stderr.String(); got != want {
		t.Errorf("stderr %q, want %q", got, want)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "go.mod")); err != nil || string(b) != files["go.mod"] {
		t.Errorf("go.mod changed to %q (%v)", b, err)
	}
}

// weftRequires returns the version of module path that weft's go.mod
// requires.
func weftRequires(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(string(b), "\n") {
		if f := strings.Fields(l); len(f) >= 2 && f[0] == path {
			return f[1]
		}
	}
	t.Fatalf("weft's go.mod does not require %s", path)
	return ""
}
