// This file guards that package weft builds without cgo: the concolic
// strategies and their Z3 binding are opt-in (package concolic).

package weft_test

import (
	"os/exec"
	"strings"
	"testing"
)

// goTool returns the path of the go command, which runs this test.
func goTool(t *testing.T) string {
	t.Helper()
	p, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("no go command on PATH (%v): put the Go toolchain's bin directory on PATH", err)
	}
	return p
}

// TestNoCgoDependency checks that no package weft depends on uses cgo, so
// that a user of weft.Mutex needs neither a C compiler nor libz3.
func TestNoCgoDependency(t *testing.T) {
	cmd := exec.Command(goTool(t), "list", "-deps", "-f", "{{if .CgoFiles}}{{.ImportPath}}{{end}}", "github.com/weft-go/weft")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	if cgo := strings.Fields(string(out)); len(cgo) > 0 {
		t.Errorf("package weft depends on cgo packages %v; keep them behind an opt-in package such as github.com/weft-go/weft/concolic", cgo)
	}
}
