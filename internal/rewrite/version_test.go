package rewrite

import (
	"go/parser"
	"go/token"
	"testing"

	"golang.org/x/tools/go/packages"
)

// TestPin checks the build constraints that pin a file's Go version: a
// //go:build line is changed in place, // +build lines are folded into a
// new one, a constraint with a Go version is kept, and a new line comes
// with a //line directive that keeps the file's line numbers. The old
// plus-build lines are blanked: go vet reports lines that do not match
// the //go:build line, which failed the build of allegro/bigcache's
// tests.
func TestPin(t *testing.T) {
	for _, c := range []struct {
		name, src, want string
	}{
		{"none", "// Package p.\npackage p\n",
			"//go:build go1.21\n\n//line /m/p.go:1\n// Package p.\npackage p\n"},
		{"go:build", "// Copyright.\n\n//go:build linux || darwin\n\npackage p\n",
			"// Copyright.\n\n//go:build (linux || darwin) && go1.21\n\npackage p\n"},
		{"+build", "// +build linux\n// +build amd64\n\npackage p\n",
			"//go:build (linux && amd64) && go1.21\n\n//line /m/p.go:1\n//             \n//             \n\npackage p\n"},
		{"go:build and +build", "//go:build linux\n// +build linux\n\npackage p\n",
			"//go:build (linux) && go1.21\n//             \n\npackage p\n"},
		{"go version", "//go:build go1.18 && linux\n\npackage p\n", ""},
	} {
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, "/m/p.go", c.src, parser.PackageClauseOnly|parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		got, err := pin("/m/p.go", []byte(c.src), fset.File(f.Pos()).Offset(f.Package), "go1.21")
		if err != nil || string(got) != c.want {
			t.Errorf("%s: pin = %q, %v; want %q", c.name, got, err, c.want)
		}
		if c.want == "" {
			continue
		}
		// The pinned file parses, at Go version go1.21, its package clause
		// on its line.
		gset := token.NewFileSet()
		g, err := parser.ParseFile(gset, "/m/p.go", got, parser.PackageClauseOnly|parser.ParseComments)
		switch {
		case err != nil:
			t.Errorf("%s: the pinned file does not parse: %v", c.name, err)
		case g.GoVersion != "go1.21":
			t.Errorf("%s: the pinned file's Go version is %q, want go1.21", c.name, g.GoVersion)
		case gset.Position(g.Package).Filename != "/m/p.go" || gset.Position(g.Package).Line != fset.Position(f.Package).Line:
			t.Errorf("%s: the package clause is at %v, was at %v", c.name, gset.Position(g.Package), fset.Position(f.Package))
		}
	}
}

// TestDepVersion checks the version a dependency's files are rewritten
// for: a module without a go line (a module-cache module without go.mod,
// go-spew's) is go1.16, with no range over functions, not the main
// module's version its files were type-checked with.
func TestDepVersion(t *testing.T) {
	for _, c := range []struct {
		m    *packages.Module
		want string
	}{
		{nil, "go1.16"},
		{&packages.Module{Path: "github.com/davecgh/go-spew"}, "go1.16"},
		{&packages.Module{GoVersion: "1.21"}, "go1.21"},
		{&packages.Module{GoVersion: "1.23.4"}, "go1.23"},
	} {
		if got := depVersion(c.m); got != c.want {
			t.Errorf("depVersion(%+v) = %q, want %q", c.m, got, c.want)
		}
	}
}
