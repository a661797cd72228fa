// This file implements weft version: what this binary was built from.

package main

import (
	"fmt"
	"io"
	"runtime"
	"runtime/debug"

	"github.com/weft-go/weft/solver/z3"
)

// cmdVersion prints weft's module version (and, from a clone, the commit),
// the Go version it was built with, and the Z3 version it links, if any.
func cmdVersion(args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		return report(usageErrorf("weft version takes no arguments, got %q", args[0]), stderr)
	}
	fmt.Fprintf(stdout, "weft %s\n", buildVersion())
	fmt.Fprintf(stdout, "go   %s %s/%s\n", runtime.Version(), runtime.GOOS, runtime.GOARCH)
	if v := z3.Version(); v != "" {
		fmt.Fprintf(stdout, "z3   %s\n", v)
	} else {
		fmt.Fprintln(stdout, "z3   none (built without cgo: the concolic strategies are unavailable)")
	}
	return exitOK
}

// buildVersion describes the build: the module version, or the commit of
// a build from a clone (with "+dirty" for uncommitted changes), or
// "(devel)".
func buildVersion() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "(unknown: no build information)"
	}
	v := info.Main.Version
	var rev, modified string
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			modified = s.Value
		}
	}
	if rev != "" && (v == "" || v == "(devel)") {
		if len(rev) > 12 {
			rev = rev[:12]
		}
		v = "commit " + rev
		if modified == "true" {
			v += "+dirty"
		}
	}
	if v == "" {
		v = "(devel)"
	}
	return v
}
