// This file tests the normalisation of reports and the golden file check.

package golden

import (
	"go/build"
	"os"
	"path/filepath"
	"testing"
)

func TestNormalize(t *testing.T) {
	root, goroot := moduleRoot, build.Default.GOROOT
	tests := []struct {
		name, in, want string
	}{
		{"no stack", "weft: deadlock\n     1  T0   lock a   x_test.go:12\n", "weft: deadlock\n     1  T0   lock a   x_test.go:12\n"},
		{"stack",
			"    panic: boom\n" +
				"    \n" +
				"    goroutine 31 [running]:\n" +
				"    github.com/weft-go/weft/internal/engine.stack(...)\n" +
				"    \t" + root + "/internal/engine/thread.go:155\n" +
				"    panic({0x6e3940?, 0x773990?})\n" +
				"    \t" + goroot + "/src/runtime/panic.go:860 +0x13a\n" +
				"    github.com/weft-go/weft_test.f.func3(0x36?)\n" +
				"    \t" + root + "/x_test.go:184 +0x3e\n" +
				"    created by iter.Pull[...] in goroutine 30\n" +
				"    \t" + goroot + "/src/iter/iter.go:271 +0x90\n" +
				"interleaving:\n",
			"    panic: boom\n" +
				"    \n" +
				"    goroutine N [...]:\n" +
				"    github.com/weft-go/weft/internal/engine.stack(...)\n" +
				"    \t$WEFT/internal/engine/thread.go\n" +
				"    github.com/weft-go/weft_test.f.func3(...)\n" +
				"    \t$WEFT/x_test.go\n" +
				"interleaving:\n"},
		{"created by", "created by main.f in goroutine 7\n\t" + root + "/f.go:3 +0x1\n", "created by main.f in goroutine N\n\t$WEFT/f.go\n"},
		{"paths elsewhere", "open " + root + "/testdata/x: " + goroot + "/y", "open $WEFT/testdata/x: $GOROOT/y"},
	}
	for _, tc := range tests {
		if got := Normalize(tc.in); got != tc.want {
			t.Errorf("%s: Normalize(%q)\n= %q\nwant %q", tc.name, tc.in, got, tc.want)
		}
	}
}

func TestModuleRoot(t *testing.T) {
	if _, err := os.Stat(filepath.Join(moduleRoot, "go.mod")); err != nil {
		t.Fatalf("moduleRoot %q holds no go.mod: %v", moduleRoot, err)
	}
}

func TestCheck(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sub", "x.golden")
	Check(t, path, "a\n", true)
	if b, err := os.ReadFile(path); err != nil || string(b) != "a\n" {
		t.Fatalf("update wrote %q, %v", b, err)
	}
	ft := &fakeTB{TB: t}
	Check(ft, path, "b\n", false)
	if !ft.failed {
		t.Error("a differing output passed")
	}
}

// fakeTB records that a check failed instead of failing the test.
type fakeTB struct {
	testing.TB
	failed bool
}

func (f *fakeTB) Helper()               {}
func (f *fakeTB) Errorf(string, ...any) { f.failed = true }
