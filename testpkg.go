// This file finds the package of the running test binary, for the replay
// command of Check's reports.

package weft

import (
	"runtime/debug"
	"strings"
	"sync"
)

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
