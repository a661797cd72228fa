// This file implements the rewriting of Test functions, whose bodies run
// as weft explorations, and of the calls of *testing.T's methods, which
// inside an execution fail the execution rather than the test.

package rewrite

import (
	"go/ast"
	"go/types"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// testMethods are the methods of testing.T (and TB) whose calls become
// calls of the std/rt function of the same name.
var testMethods = map[string]bool{
	"Error": true, "Errorf": true, "Fatal": true, "Fatalf": true, "Fail": true, "FailNow": true,
	"Log": true, "Logf": true, "Skip": true, "Skipf": true, "SkipNow": true, "Parallel": true,
	"Cleanup": true,
}

// testFunc walks the body of a Test function: wrapped in weftrt.Test if it
// calls no t.Run, as a group of subtests if it does. It reports whether fn
// is a Test function.
func (r *rewriter) testFunc(fn *ast.FuncDecl) bool {
	name := fn.Name.Name
	if fn.Recv != nil || fn.Body == nil || fn.Type.TypeParams != nil || !isTestName(name) ||
		!strings.HasSuffix(r.tf.Name(), "_test.go") || len(fn.Type.Params.List) != 1 {
		return false
	}
	param := fn.Type.Params.List[0]
	if len(param.Names) > 1 || !isTestingT(r.info.TypeOf(param.Type)) {
		return false
	}
	r.directives = fn.Doc
	r.enter(fn.Type.Params, fn.Body, name)
	r.directives = nil
	return true
}

// exampleFunc starts the body of fn, if it is an Example function of a
// _test.go file, with a deferred call of weftrt.Example, on the line of
// its brace: an example runs as plain Go, outside any exploration, and
// Example bounds it by weft test's -timeout. It reports whether fn is an
// Example function.
func (r *rewriter) exampleFunc(fn *ast.FuncDecl) bool {
	name := fn.Name.Name
	if fn.Recv != nil || fn.Body == nil || fn.Type.TypeParams != nil || !isExampleName(name) ||
		!strings.HasSuffix(r.tf.Name(), "_test.go") || fn.Type.Params.NumFields() != 0 || fn.Type.Results.NumFields() != 0 {
		return false
	}
	r.usesRT = true
	r.insert(r.off(fn.Body.Lbrace)+1, " defer "+rtName+".Example("+strconv.Quote(name)+")();", false)
	return true
}

// wrap wraps body, of a function whose only parameter is a *testing.T, in
// weftrt's function wrapper (Test or Plain), naming the parameter if it
// has no name. A first statement
// t.Parallel() stays before the wrapping: the test waits as Go makes it
// wait, then runs its exploration. So do the statements before it that
// have no effect but on the variables they declare (prefix): the copy of
// a loop variable (tc := tc) before t.Parallel() that a file older than
// go1.22 needs runs where it was, before the test pauses, and so does a
// skip under a quiet condition; an if whose block ends the test
// (exploringIf) before it runs its block as an exploration of its own.
func (r *rewriter) wrap(params *ast.FieldList, body *ast.BlockStmt, wrapper string) {
	t := paramName(params)
	at := r.off(body.Lbrace) + 1
	sep := " "
	if i := r.parallelAt(body, t); i >= 0 {
		r.hoisted[body.List[i].(*ast.ExprStmt).X.(*ast.CallExpr)] = true
		at = r.off(body.List[i].End())
		sep = "; "
	}
	if r.wrapped(body, t) {
		return
	}
	if sep == "; " {
		for _, s := range body.List {
			if r.isParallel(s, t) {
				break
			}
			if b, ok := r.exploringIf(s, t); ok {
				r.wrapIf(b, t)
			}
		}
	}
	r.nameParam(params)
	r.usesRT = true
	r.insert(at, sep+rtName+"."+wrapper+"("+t+", func() {", false)
	r.depth++ // after the insertions that close the body's last statement
	end := "})"
	if wrapper == "Test" {
		end = "}" + r.testOpts + ")"
	}
	r.insert(r.off(body.Rbrace), end, false)
	r.depth--
}

// paramName returns the name of the only parameter of params, a
// *testing.T: its own, or weftT_ if it has none or is _.
func paramName(params *ast.FieldList) string {
	param := params.List[0]
	if len(param.Names) == 0 || param.Names[0].Name == "_" {
		return "weftT_"
	}
	return param.Names[0].Name
}

// nameParam names the only parameter of params, a *testing.T, weftT_ if
// it has no name or is _, and returns its name.
func (r *rewriter) nameParam(params *ast.FieldList) string {
	param, t := params.List[0], paramName(params)
	switch {
	case len(param.Names) == 0:
		r.replace(param.Type.Pos(), param.Type.Pos(), t+" ")
	case param.Names[0].Name == "_":
		r.replace(param.Names[0].Pos(), param.Names[0].End(), t)
	}
	return t
}

// isParallel reports whether s is the statement t.Parallel(), t named t.
func (r *rewriter) isParallel(s ast.Stmt, t string) bool {
	es, ok := s.(*ast.ExprStmt)
	return ok && r.isTestingCall(es.X, t, "Parallel")
}

// isTestingCall reports whether x is the call t.name() of testing's
// method name, without arguments, on the variable named t.
func (r *rewriter) isTestingCall(x ast.Expr, t, name string) bool {
	call, ok := x.(*ast.CallExpr)
	if !ok || len(call.Args) != 0 {
		return false
	}
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok {
		return false
	}
	id, ok := sel.X.(*ast.Ident)
	fn, isFunc := r.info.Uses[sel.Sel].(*types.Func)
	return ok && id.Name == t && isFunc && fn.Pkg() != nil && fn.Pkg().Path() == "testing" && fn.Name() == name
}

// isTestName reports whether name is the name of a Test function.
func isTestName(name string) bool { return isTestingName(name, "Test") }

// isExampleName reports whether name is the name of an Example function.
func isExampleName(name string) bool { return isTestingName(name, "Example") }

// isTestingName reports whether name is prefix followed by nothing or by
// a rune that is not a lower-case letter, as go test tells its functions.
func isTestingName(name, prefix string) bool {
	rest, ok := strings.CutPrefix(name, prefix)
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

// wrapped reports whether body, whose *testing.T is named t, is already a
// call of weftrt.Test or weftrt.Plain, after the t.Parallel() it may start with
// (parallelAt).
func (r *rewriter) wrapped(body *ast.BlockStmt, t string) bool {
	n := len(body.List)
	if n == 0 || (n > 1 && r.parallelAt(body, t) != n-2) {
		return false
	}
	es, ok := body.List[n-1].(*ast.ExprStmt)
	if !ok {
		return false
	}
	call, ok := es.X.(*ast.CallExpr)
	return ok && (r.rtFunc(call) == "Test" || r.rtFunc(call) == "Plain")
}

// rtFunc returns the name of the function of package weftrt (RTPath) that
// call calls, or "".
func (r *rewriter) rtFunc(call *ast.CallExpr) string {
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok {
		return ""
	}
	id, ok := sel.X.(*ast.Ident)
	if !ok {
		return ""
	}
	if pkg, ok := r.info.Uses[id].(*types.PkgName); ok && pkg.Imported().Path() == RTPath {
		return sel.Sel.Name
	}
	return ""
}

// testingCall rewrites a call of a method of package testing's types.
func (r *rewriter) testingCall(call *ast.CallExpr, sel *ast.SelectorExpr, fn *types.Func) {
	m := fn.Name()
	if !testMethods[m] || r.info.Selections[sel] == nil {
		return
	}
	if m == "Parallel" {
		switch {
		case !isTestingT(r.info.TypeOf(sel.X)) || r.hoisted[call]:
			return
		case r.ctx == ctxLeaf:
			r.errorf(call.Pos(), "t.Parallel in %s is not its first statement: weft test runs the body after t.Parallel as an exploration; call t.Parallel first (after copies of loop variables such as tc := tc)", r.test)
			return
		}
	}
	r.methodToFunc(call, sel, m)
}

// methodToFunc rewrites call, of the method sel, into a call of the
// function name of std/rt with the method's receiver as first argument:
// t.Errorf(f, x) becomes weftrt.Errorf(t, f, x).
func (r *rewriter) methodToFunc(call *ast.CallExpr, sel *ast.SelectorExpr, name string) {
	r.usesRT = true
	r.replace(sel.X.Pos(), sel.X.Pos(), rtName+"."+name+"(")
	if len(call.Args) == 0 {
		r.replace(sel.X.End(), call.Rparen+1, ")")
		return
	}
	r.replace(sel.X.End(), call.Lparen+1, ", ")
}

// Signatures of the methods of anyTestMethods.
const (
	sigArgs   = iota // (args ...any)
	sigFormat        // (format string, args ...any)
	sigNone          // ()
)

// anyTestMethods are the methods of testing.TB that an assertion library
// calls through an interface of its own (testify's TestingT), with their
// signatures.
var anyTestMethods = map[string]int{
	"Error": sigArgs, "Errorf": sigFormat, "Fatal": sigArgs, "Fatalf": sigFormat,
	"Fail": sigNone, "FailNow": sigNone, "Log": sigArgs, "Logf": sigFormat,
}

// anyTestingCall rewrites a call of one of anyTestMethods on a value of an
// interface type of the program's (an assertion library's TestingT):
// t.Errorf(f, x) becomes weftrt.AnyErrorf(t, f, x), which is Errorf's
// stand-in when t holds a testing.TB and t's own method otherwise.
func (r *rewriter) anyTestingCall(call *ast.CallExpr, sel *ast.SelectorExpr, fn *types.Func) {
	want, ok := anyTestMethods[fn.Name()]
	if !ok || !types.IsInterface(r.info.TypeOf(sel.X)) || r.info.Selections[sel] == nil {
		return
	}
	if sigKind(fn.Type().(*types.Signature)) != want {
		return
	}
	r.methodToFunc(call, sel, "Any"+fn.Name())
}

// sigKind returns the kind of sig among those of anyTestMethods, or -1.
func sigKind(sig *types.Signature) int {
	if sig.Results().Len() != 0 {
		return -1
	}
	params := sig.Params()
	isAnySlice := func(t types.Type) bool {
		s, ok := t.(*types.Slice)
		if !ok {
			return false
		}
		i, ok := s.Elem().Underlying().(*types.Interface)
		return ok && i.Empty()
	}
	switch {
	case params.Len() == 0:
		return sigNone
	case params.Len() == 1 && sig.Variadic() && isAnySlice(params.At(0).Type()):
		return sigArgs
	case params.Len() == 2 && sig.Variadic() && types.Identical(params.At(0).Type(), types.Typ[types.String]) && isAnySlice(params.At(1).Type()):
		return sigFormat
	}
	return -1
}

// helperCalls marks, after each statement of list that calls Helper on a
// testing.TB or on a value of an interface type with a method Helper(),
// the function it is in as a helper (weftrt.Helper()): a failure inside an
// execution is placed at the line that called it, as the testing package
// places it. A statement already followed by weftrt.Helper() is left.
func (r *rewriter) helperCalls(list []ast.Stmt) {
	for i, s := range list {
		es, ok := s.(*ast.ExprStmt)
		if !ok || !r.isHelperCall(es) {
			continue
		}
		if i+1 < len(list) {
			if next := stmtCall(list[i+1]); next != nil && r.rtFunc(next) == "Helper" {
				continue
			}
		}
		r.usesRT = true
		r.insert(r.off(es.End()), "; "+rtName+".Helper()", false)
	}
}

// isHelperCall reports whether s calls Helper() on a testing.TB or on a
// value of an interface type.
func (r *rewriter) isHelperCall(s *ast.ExprStmt) bool {
	call, ok := ast.Unparen(s.X).(*ast.CallExpr)
	if !ok || len(call.Args) != 0 {
		return false
	}
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != "Helper" {
		return false
	}
	fn, ok := r.info.Uses[sel.Sel].(*types.Func)
	if !ok || fn.Pkg() == nil {
		return false
	}
	return fn.Pkg().Path() == "testing" || types.IsInterface(r.info.TypeOf(sel.X)) && sigKind(fn.Type().(*types.Signature)) == sigNone
}

// stmtCall returns the call that s is, or nil.
func stmtCall(s ast.Stmt) *ast.CallExpr {
	if es, ok := s.(*ast.ExprStmt); ok {
		call, _ := es.X.(*ast.CallExpr)
		return call
	}
	return nil
}
