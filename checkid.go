// This file identifies a Check call: its test's Check calls told apart,
// each with its own replay files and tokens, and the package of the
// running test binary, for the replay command of its reports.

package weft

import (
	"fmt"
	"path/filepath"
	"runtime/debug"
	"strings"
	"sync"
	"testing"
)

// checkID identifies a Check call of a test: its name, to which its tokens
// are tied (ReplayEnv's NAME=TOKEN), and the directory of its replay files.
type checkID struct {
	name string
	dir  string
}

// checks counts the Check calls of each running test, by its testing.TB:
// the same test run twice (go test -count) counts each run from 1.
var checks struct {
	sync.Mutex
	n map[testing.TB]int
}

// checkOf returns the identity of this Check call of t: the first call is
// the test itself (t.Name(), testdata/weft/<TestName>); the n-th, from the
// second, is "<TestName> (check n)", with its files in
// testdata/weft/<TestName>/check#n. No test name has a space (package
// testing replaces them), and no sanitized one a '#', so neither collides
// with a subtest's.
func checkOf(t testing.TB) checkID {
	checks.Lock()
	if checks.n == nil {
		checks.n = map[testing.TB]int{}
	}
	checks.n[t]++
	n := checks.n[t]
	checks.Unlock()
	if n == 1 {
		t.Cleanup(func() {
			checks.Lock()
			delete(checks.n, t)
			checks.Unlock()
		})
	}
	id := checkID{name: t.Name(), dir: filepath.Join(ReplayDir, sanitize(t.Name()))}
	if n > 1 {
		id.name = fmt.Sprintf("%s (check %d)", id.name, n)
		id.dir = filepath.Join(id.dir, fmt.Sprintf("check#%d", n))
	}
	return id
}

// testPackage returns the go test argument that names the package of the
// running test binary from its module's root: "./sub/pkg", "." for the
// module's root package, the import path for a package outside the main
// module, or "" if the binary is no test binary or was built from files
// named on the command line.
//
// go test builds a test binary whose build information (debug.ReadBuildInfo)
// has the path "<import path>.test", an external test package (package
// x_test) included, and the main module's path: the package is the first
// less the suffix, made relative to the second.
var testPackage = sync.OnceValue(func() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return ""
	}
	return packageArg(bi.Path, bi.Main.Path)
})

// packageArg returns the go test argument for the test binary whose build
// path is binPath in the module modPath (testPackage).
func packageArg(binPath, modPath string) string {
	pkg, ok := strings.CutSuffix(binPath, ".test")
	if !ok || pkg == "" || pkg == "command-line-arguments" {
		// No test binary, or one of files named on the command line
		// (go test x_test.go), which no package argument names.
		return ""
	}
	switch {
	case modPath == "":
		return pkg
	case pkg == modPath:
		return "."
	case strings.HasPrefix(pkg, modPath+"/"):
		return "./" + pkg[len(modPath)+1:]
	}
	return pkg
}
