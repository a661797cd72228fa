// This file guards the import graph of weft's layers.

package weft_test

import (
	"errors"
	"fmt"
	"go/ast"
	"go/build"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestLayers checks that arrows point down only: the runtime imports no
// strategy and no API; package explore, which runs explorations in every
// mode, no API, no distribution and strategies only through package
// strategy, the registry and the replay strategy (its tokens); the
// distribution (internal/distrib) runs them through package explore, not
// the API; the API no distribution; strategies import neither the runtime
// nor the API, the trace model and the program generator (internal/gen,
// which strategy tests use without the runtime, through package
// strategytest) import nothing of weft's, nor do the binary forms of units
// of work (internal/wire, which package strategy and the strategies use),
// and the model of the primitives (package model) only the trace model.
func TestLayers(t *testing.T) {
	const mod = "github.com/weft-go/weft"
	rules := []struct {
		dir       string
		forbidden []string
		allowed   []string // exceptions to forbidden
	}{
		{"trace", []string{mod + "/"}, []string{mod + "/trace", mod + "/solver"}},
		{"model", []string{mod + "/"}, []string{mod + "/trace"}},
		{"strategy", []string{mod + "/internal", mod + "/strategy/"}, []string{mod + "/internal/wire"}},
		{"internal/engine", []string{mod + "/strategy/", mod + "/solver"}, nil},
		// Package explore builds strategies by name (the registry) and
		// makes replay tokens; it runs them through package strategy.
		{"internal/explore", []string{mod + "/strategy/", mod + "/internal/distrib", mod + "/programs"}, []string{mod + "/strategy/replay"}},
		// The distribution takes its test bodies from its caller.
		{"internal/distrib", []string{mod + "/programs", mod + "/strategy/"}, nil},
		{".", []string{mod + "/internal/distrib"}, nil},
		{"internal/gen", []string{mod + "/"}, nil},
		{"internal/wire", []string{mod + "/"}, nil},
	}
	for _, r := range rules {
		pkg, err := build.ImportDir(r.dir, 0)
		if err != nil {
			t.Fatalf("%s: %v", r.dir, err)
		}
		for _, imp := range pkg.Imports {
			for _, f := range r.forbidden {
				if strings.HasPrefix(imp, f) && !slices.Contains(r.allowed, imp) {
					t.Errorf("%s imports %s: the layers forbid it", r.dir, imp)
				}
			}
			if imp == mod && r.dir != "." {
				t.Errorf("%s imports the API package %s", r.dir, mod)
			}
		}
	}
	// Every strategy package: no runtime, no API. Package strategytest, the
	// strategies' test support, may use the program generator, which
	// imports nothing of weft's (checked above).
	dirs, err := filepath.Glob("strategy/*")
	if err != nil || len(dirs) == 0 {
		t.Fatalf("no strategy packages found: %v", err)
	}
	for _, dir := range dirs {
		if filepath.Ext(dir) != "" {
			continue // a file of package strategy itself, checked above
		}
		pkg, err := build.ImportDir(dir, 0)
		if err != nil {
			t.Fatalf("%s: %v", dir, err)
		}
		for _, imp := range pkg.Imports {
			if dir == filepath.Join("strategy", "strategytest") && imp == mod+"/internal/gen" {
				continue
			}
			if imp == mod || strings.HasPrefix(imp, mod+"/internal") && imp != mod+"/internal/wire" {
				t.Errorf("strategy %s imports %s: strategies never touch the runtime or the API", dir, imp)
			}
		}
	}
}

// testOnly are the packages only tests import: no package of the module
// imports them outside its _test.go files.
var testOnly = []string{
	"github.com/weft-go/weft/internal/explore/dividetest",
	"github.com/weft-go/weft/internal/checktest",
}

// TestTestOnly checks that the packages of testOnly serve tests only.
func TestTestOnly(t *testing.T) {
	err := filepath.WalkDir(".", func(dir string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return err
		}
		if name := d.Name(); dir != "." && (name == "testdata" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
			return filepath.SkipDir
		}
		pkg, err := build.ImportDir(dir, 0)
		var none *build.NoGoError
		if errors.As(err, &none) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("%s: %w", dir, err)
		}
		for _, imp := range pkg.Imports {
			if slices.Contains(testOnly, imp) {
				t.Errorf("%s imports %s, which serves tests only", dir, imp)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// rootFiles bounds the non-test files of package weft, which holds what a
// test writes (the primitives, T, Check, Explore, Replay, the options and
// the Result); running explorations is package explore's.
const rootFiles = 28

// orchestration names the types that run explorations, in package explore
// and the distribution, which package weft must not export.
var orchestration = []string{"Coordinator", "PartExplorer", "Part", "Session", "Config"}

// TestRootAPI checks that package weft stays what a test writes: at most
// rootFiles non-test files, none of the orchestration types exported.
func TestRootAPI(t *testing.T) {
	pkg, err := build.ImportDir(".", 0)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(pkg.GoFiles) + len(pkg.CgoFiles); n > rootFiles {
		t.Errorf("package weft has %d non-test files, more than %d: what runs explorations belongs in internal/explore", n, rootFiles)
	}
	fset := token.NewFileSet()
	for _, name := range pkg.GoFiles {
		f, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			g, ok := d.(*ast.GenDecl)
			if !ok || g.Tok != token.TYPE {
				continue
			}
			for _, s := range g.Specs {
				if n := s.(*ast.TypeSpec).Name.Name; slices.Contains(orchestration, n) {
					t.Errorf("%s: package weft exports %s, a type of package explore's orchestration", name, n)
				}
			}
		}
	}
}
