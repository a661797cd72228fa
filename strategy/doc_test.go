// This file checks that the package doc lists every optional capability.

package strategy_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
)

// TestCapabilitiesDocumented checks that every interface of the package but
// Strategy itself and Describer (which the runtime implements) has an item
// in the package doc's list of optional capabilities, and that the list
// names nothing else.
func TestCapabilitiesDocumented(t *testing.T) {
	fset := token.NewFileSet()
	names, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]*ast.File{}
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		files[name] = f
	}
	if len(files) == 0 {
		t.Fatal("package strategy not found")
	}
	listed := map[string]bool{}
	var doc string
	for name, f := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		if f.Doc != nil {
			doc += f.Doc.Text()
		}
	}
	for _, line := range strings.Split(doc, "\n") {
		if item, ok := strings.CutPrefix(strings.TrimSpace(line), "- "); ok {
			if name, _, ok := strings.Cut(item, ":"); ok {
				listed[name] = true
			}
		}
	}
	if len(listed) == 0 {
		t.Fatal("the package doc lists no capability")
	}
	for name, f := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		ast.Inspect(f, func(n ast.Node) bool {
			ts, ok := n.(*ast.TypeSpec)
			if !ok || !ts.Name.IsExported() {
				return true
			}
			if _, ok := ts.Type.(*ast.InterfaceType); !ok {
				return true
			}
			switch name := ts.Name.Name; {
			case name == "Strategy" || name == "Describer":
			case !listed[name]:
				t.Errorf("capability %s (%s) is not in the package doc's list of optional capabilities", name, fset.Position(ts.Pos()))
			default:
				delete(listed, name)
			}
			return true
		})
	}
	for name := range listed {
		t.Errorf("the package doc lists %s, which is no interface of the package", name)
	}
}
