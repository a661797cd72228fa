// This file implements blockedIn: the function, named with its package,
// in which a goroutine blocked outside weft's control waits, for the
// watchdog's report.

package engine

import (
	"path/filepath"
	"strings"
)

// blockedIn returns where the first goroutine of stacks (runningStacks)
// waits, as "pkg.Func (file.go:line)": its innermost frame of a package
// outside the standard library (code kept real, or not rewritten), or,
// for a goroutine that waits in the standard library's own code, its
// innermost frame outside the runtime's internals. It returns "" if stacks
// holds no such frame.
func blockedIn(stacks string) string {
	g, _, _ := strings.Cut(stacks, "\n\n")
	lines := strings.Split(g, "\n")
	var fallback string
	for i := 1; i+1 < len(lines); i += 2 {
		fn := lines[i]
		if strings.HasPrefix(fn, "created by ") {
			break
		}
		if strings.HasSuffix(fn, ")") {
			if j := strings.LastIndexByte(fn, '('); j > 0 {
				fn = fn[:j]
			}
		}
		loc := strings.TrimSpace(lines[i+1])
		loc, _, _ = strings.Cut(loc, " +0x")
		where := fn + " (" + filepath.Base(loc) + ")"
		path := fn
		if k := strings.LastIndexByte(path, '/'); k >= 0 {
			path = path[:k]
		} else {
			path, _, _ = strings.Cut(path, ".")
		}
		first, _, _ := strings.Cut(path, "/")
		switch {
		case strings.HasPrefix(fn, weftPkg+".") || strings.HasPrefix(fn, weftPkg+"/"):
			return fallback // weft's own frames: the thread's code ends here
		case strings.Contains(first, "."):
			return where
		case fallback == "" && !internalFrame(fn):
			fallback = where
		}
	}
	return fallback
}

// weftPkg is weft's module path.
const weftPkg = "github.com/weft-go/weft"

// internalFrame reports whether fn, a function of the standard library,
// is one of the runtime's internals through which a goroutine parks (the
// runtime, internal packages, sync's and iter's own), which name no
// package of the code under test.
func internalFrame(fn string) bool {
	for _, p := range []string{"runtime.", "internal/", "sync.", "iter."} {
		if strings.HasPrefix(fn, p) {
			return true
		}
	}
	return false
}
