// This file checks that the package doc's checklist for adding a primitive
// names files that exist.

package model

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// checklistFile matches a path of the module in the checklist: a Go file,
// possibly under directories; PRIM stands for the primitive's own file.
var checklistFile = regexp.MustCompile(`[a-z][a-z0-9_/]*[a-z0-9_]\.go`)

// TestChecklistFiles checks that every file the package doc's section
// "Adding a primitive" names exists (with PRIM, the file of Cond), so that
// the checklist follows the files it sends a contributor to.
func TestChecklistFiles(t *testing.T) {
	doc, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	text := string(doc)
	a, b := strings.Index(text, "# Adding a primitive"), strings.Index(text, "# Walkthrough")
	if a < 0 || b < a {
		t.Fatal("doc.go has no section \"Adding a primitive\" before \"Walkthrough\"")
	}
	section := strings.ReplaceAll(text[a:b], "//", "")
	section = strings.Join(strings.Fields(section), " ") // paths do not break across lines
	section = strings.ReplaceAll(section, "PRIM.go", "cond.go")
	files := checklistFile.FindAllString(section, -1)
	if len(files) < 20 {
		t.Fatalf("the checklist names %d files, want at least 20: %v", len(files), files)
	}
	for _, f := range files {
		path := f
		switch {
		case strings.HasPrefix(f, "model/"):
			path = strings.TrimPrefix(f, "model/")
		case strings.Contains(f, "/"):
			path = filepath.Join("..", f)
		default:
			// A file with no directory: this package's (table.go,
			// cond.go), or package weft's at the module's root
			// ("cond.go in package weft").
			if _, err := os.Stat(f); err == nil {
				continue
			}
			path = filepath.Join("..", f)
		}
		if _, err := os.Stat(path); err != nil {
			t.Errorf("the checklist names %s, which does not exist", f)
		}
	}
}
