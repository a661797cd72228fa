// This file guards the import graph of weft's layers.

package weft_test

import (
	"go/build"
	"path/filepath"
	"strings"
	"testing"
)

// TestLayers checks that arrows point down only: the runtime and the
// driver import no strategy and no API, strategies import neither the runtime nor the API,
// the trace model and the program generator (internal/gen, which strategy
// tests use without the runtime, through package strategytest) import
// nothing of weft's, and the model of the primitives (package model) only
// the trace model.
func TestLayers(t *testing.T) {
	const mod = "github.com/weft-go/weft"
	rules := []struct {
		dir       string
		forbidden []string
	}{
		{"trace", []string{mod + "/"}}, // except trace itself and solver (below)
		{"model", []string{mod + "/"}}, // except trace (below)
		{"strategy", []string{mod + "/internal", mod + "/strategy/"}},
		{"internal/engine", []string{mod + "/strategy/", mod + "/solver"}},
		// The driver runs strategies through package strategy only, and
		// knows neither the API nor the registry.
		{"internal/explore", []string{mod + "/strategy/", mod + "/internal/registry"}},
		{"internal/gen", []string{mod + "/"}},
	}
	for _, r := range rules {
		pkg, err := build.ImportDir(r.dir, 0)
		if err != nil {
			t.Fatalf("%s: %v", r.dir, err)
		}
		for _, imp := range pkg.Imports {
			for _, f := range r.forbidden {
				if strings.HasPrefix(imp, f) && !(r.dir == "trace" && (imp == mod+"/trace" || imp == mod+"/solver")) &&
					!(r.dir == "model" && imp == mod+"/trace") {
					t.Errorf("%s imports %s: the layers forbid it", r.dir, imp)
				}
			}
			if imp == mod {
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
			if imp == mod || strings.HasPrefix(imp, mod+"/internal") {
				t.Errorf("strategy %s imports %s: strategies never touch the runtime or the API", dir, imp)
			}
		}
	}
}
