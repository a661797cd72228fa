// This file implements the rewriting of Test functions, whose bodies run
// as weft explorations, and of the calls of *testing.T's methods, which
// inside an execution fail the execution rather than the test.

package rewrite

import (
	"go/ast"
	"go/types"
	"strings"
	"unicode"
	"unicode/utf8"
)

// testMethods are the methods of testing.T (and TB) whose calls become
// calls of the std/rt function of the same name.
var testMethods = map[string]bool{
	"Error": true, "Errorf": true, "Fatal": true, "Fatalf": true, "Fail": true, "FailNow": true,
	"Log": true, "Logf": true, "Skip": true, "Skipf": true, "SkipNow": true, "Parallel": true,
}

// testFunc wraps the body of a Test function in weftrt.Test, and walks it.
func (r *rewriter) testFunc(fn *ast.FuncDecl) {
	name := fn.Name.Name
	if fn.Recv != nil || fn.Body == nil || fn.Type.TypeParams != nil || !isTestName(name) ||
		!strings.HasSuffix(r.tf.Name(), "_test.go") || len(fn.Type.Params.List) != 1 {
		return
	}
	param := fn.Type.Params.List[0]
	if len(param.Names) > 1 || !isTestingT(r.info.TypeOf(param.Type)) || r.wrapped(fn.Body) {
		return
	}
	t := "t"
	switch {
	case len(param.Names) == 0:
		t = "weftT_"
		r.replace(param.Type.Pos(), param.Type.Pos(), t+" ")
	case param.Names[0].Name == "_":
		t = "weftT_"
		r.replace(param.Names[0].Pos(), param.Names[0].End(), t)
	default:
		t = param.Names[0].Name
	}
	r.usesRT = true
	r.insert(r.off(fn.Body.Lbrace)+1, " "+rtName+".Test("+t+", func() {", false)
	r.depth++ // after the insertions that close the body's last statement
	r.insert(r.off(fn.Body.Rbrace), "})", false)
	r.depth--
	r.inTest = name
}

// isTestName reports whether name is the name of a Test function.
func isTestName(name string) bool {
	rest, ok := strings.CutPrefix(name, "Test")
	if !ok {
		return false
	}
	if rest == "" {
		return true
	}
	c, _ := utf8.DecodeRuneInString(rest)
	return !unicode.IsLower(c)
}

// isTestingT reports whether t is *testing.T.
func isTestingT(t types.Type) bool {
	p, ok := t.(*types.Pointer)
	if !ok {
		return false
	}
	n, ok := p.Elem().(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "testing" && n.Obj().Name() == "T"
}

// wrapped reports whether body is already a call of weftrt.Test.
func (r *rewriter) wrapped(body *ast.BlockStmt) bool {
	if len(body.List) != 1 {
		return false
	}
	es, ok := body.List[0].(*ast.ExprStmt)
	if !ok {
		return false
	}
	call, ok := es.X.(*ast.CallExpr)
	if !ok {
		return false
	}
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok {
		return false
	}
	id, ok := sel.X.(*ast.Ident)
	if !ok {
		return false
	}
	pkg, ok := r.info.Uses[id].(*types.PkgName)
	return ok && pkg.Imported().Path() == RTPath && sel.Sel.Name == "Test"
}

// testingCall rewrites a call of a method of package testing's types.
func (r *rewriter) testingCall(call *ast.CallExpr, sel *ast.SelectorExpr, fn *types.Func) {
	m := fn.Name()
	if m == "Run" && r.inTest != "" {
		r.errorf(call.Pos(), "%s.Run in %s: subtests are not supported by weft test (their functions would run outside the exploration); write one Test function per case", types.ExprString(sel.X), r.inTest)
		return
	}
	if !testMethods[m] || r.info.Selections[sel] == nil {
		return
	}
	if m == "Parallel" && !isTestingT(r.info.TypeOf(sel.X)) {
		return
	}
	r.usesRT = true
	r.replace(sel.X.Pos(), sel.X.Pos(), rtName+"."+m+"(")
	if len(call.Args) == 0 {
		r.replace(sel.X.End(), call.Rparen+1, ")")
		return
	}
	r.replace(sel.X.End(), call.Lparen+1, ", ")
}
