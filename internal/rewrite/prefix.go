// This file implements parallelAt: where a test's t.Parallel() is, when
// the statements before it either run as plain Go, once, without effect
// on weft's objects (the copy of a loop variable, tc := tc, that a file
// older than go1.22 needs; a skip under a condition, as if
// testing.Short() { t.Skip() }), or end the test in an exploration of
// their own (an if whose block ends the test, as a test that reruns its
// own binary runs its child's part).

package rewrite

import (
	"go/ast"
	"go/token"
	"go/types"
)

// parallelAt returns the index in body of the statement t.Parallel(), t
// the name of the test's *testing.T, if each statement before it may come
// before it (prefixStmt), or -1.
func (r *rewriter) parallelAt(body *ast.BlockStmt, t string) int {
	for i, s := range body.List {
		if r.isParallel(s, t) {
			return i
		}
		if !r.prefixStmt(s, t) {
			return -1
		}
	}
	return -1
}

// prefixStmt reports whether s may come before t.Parallel(): it is quiet
// (quietStmt), or it is an if statement whose block ends the test
// (exploringIf).
func (r *rewriter) prefixStmt(s ast.Stmt, t string) bool {
	if r.quietStmt(s, t) {
		return true
	}
	_, ok := r.exploringIf(s, t)
	return ok
}

// quietStmt reports whether s runs as plain Go before t.Parallel() with no
// concurrency and no effect on weft's objects: a short variable
// declaration or a var, const or type declaration whose values are quiet
// (quiet), an empty statement, a return without results, a call of one of
// t's quietMethods with quiet arguments (and the weftrt.Helper() the
// rewriting adds after t.Helper()), or an if statement whose condition is
// quiet and whose blocks hold only quiet statements.
func (r *rewriter) quietStmt(s ast.Stmt, t string) bool {
	switch s := s.(type) {
	case *ast.EmptyStmt:
		return true
	case *ast.ReturnStmt:
		return len(s.Results) == 0
	case *ast.AssignStmt:
		return s.Tok == token.DEFINE && r.quietExprs(s.Rhs)
	case *ast.DeclStmt:
		d, ok := s.Decl.(*ast.GenDecl)
		if !ok {
			return false
		}
		for _, spec := range d.Specs {
			if vs, ok := spec.(*ast.ValueSpec); ok && !r.quietExprs(vs.Values) {
				return false
			}
		}
		return true
	case *ast.ExprStmt:
		call, ok := s.X.(*ast.CallExpr)
		if !ok {
			return false
		}
		if r.rtFunc(call) == "Helper" {
			return true // weftrt.Helper() after t.Helper(): helperCalls
		}
		return (r.tMethod(call, t, quietMethods) || r.rtMethod(call, t, quietMethods)) && r.quietExprs(call.Args)
	case *ast.BlockStmt:
		return r.quietStmts(s.List, t)
	case *ast.IfStmt:
		if (s.Init != nil && !r.quietStmt(s.Init, t)) || !r.quiet(s.Cond) || !r.quietStmts(s.Body.List, t) {
			return false
		}
		return s.Else == nil || r.quietStmt(s.Else, t)
	}
	return false
}

// quietStmts reports whether every statement of list is quiet.
func (r *rewriter) quietStmts(list []ast.Stmt, t string) bool {
	for _, s := range list {
		if !r.quietStmt(s, t) {
			return false
		}
	}
	return true
}

// quietMethods are the methods of testing.T that may be called before
// t.Parallel(): they report, skip or end the test.
var quietMethods = map[string]bool{
	"Helper": true, "Log": true, "Logf": true, "Skip": true, "Skipf": true, "SkipNow": true,
	"Error": true, "Errorf": true, "Fatal": true, "Fatalf": true, "Fail": true, "FailNow": true,
}

// endMethods are the methods of testing.T that end the test.
var endMethods = map[string]bool{"Skip": true, "Skipf": true, "SkipNow": true, "Fatal": true, "Fatalf": true, "FailNow": true}

// tMethod reports whether call calls one of the methods names of
// testing's types on the variable named t.
func (r *rewriter) tMethod(call *ast.CallExpr, t string, names map[string]bool) bool {
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok {
		return false
	}
	id, ok := sel.X.(*ast.Ident)
	fn, isFunc := r.info.Uses[sel.Sel].(*types.Func)
	return ok && id.Name == t && isFunc && fn.Pkg() != nil && fn.Pkg().Path() == "testing" && names[fn.Name()]
}

// rtMethod reports whether call calls the stand-in in weftrt of one of
// the methods names of testing's types (weftrt.Skipf(t, ...)) on the
// variable named t: the call as rewritten.
func (r *rewriter) rtMethod(call *ast.CallExpr, t string, names map[string]bool) bool {
	if !names[r.rtFunc(call)] || len(call.Args) == 0 {
		return false
	}
	id, ok := call.Args[0].(*ast.Ident)
	return ok && id.Name == t
}

// exploringIf returns the block of s, if s is an if statement, without
// else, whose condition is quiet and whose block ends the test (its last
// statement is a return, panic, runtime.Goexit or one of t's endMethods)
// and is not quiet, and reports whether it is. Its condition is evaluated
// as plain Go, and its block is an exploration of its own, after which the
// test returns: if os.Getenv("CHILD") != "" { ...; t.Fatal(...) } before
// t.Parallel() becomes if os.Getenv("CHILD") != "" { weftrt.Test(t,
// func() { ...; t.Fatal(...) }); return }.
func (r *rewriter) exploringIf(s ast.Stmt, t string) (*ast.BlockStmt, bool) {
	is, ok := s.(*ast.IfStmt)
	if !ok || is.Init != nil || is.Else != nil || !r.quiet(is.Cond) {
		return nil, false
	}
	if r.wrappedIf(is.Body) {
		return is.Body, true
	}
	n := len(is.Body.List)
	if n == 0 || r.quietStmts(is.Body.List, t) || !r.endsTest(is.Body.List[n-1], t) {
		return nil, false
	}
	return is.Body, true
}

// wrappedIf reports whether body, of an exploringIf, is rewritten already:
// a call of weftrt.Test or weftrt.Plain and a return.
func (r *rewriter) wrappedIf(body *ast.BlockStmt) bool {
	if len(body.List) != 2 {
		return false
	}
	es, ok := body.List[0].(*ast.ExprStmt)
	if !ok {
		return false
	}
	call, ok := es.X.(*ast.CallExpr)
	if !ok || (r.rtFunc(call) != "Test" && r.rtFunc(call) != "Plain") {
		return false
	}
	ret, ok := body.List[1].(*ast.ReturnStmt)
	return ok && len(ret.Results) == 0
}

// endsTest reports whether s ends the test: a return, a call of panic or
// runtime.Goexit, or a call of one of t's endMethods.
func (r *rewriter) endsTest(s ast.Stmt, t string) bool {
	switch s := s.(type) {
	case *ast.ReturnStmt:
		return true
	case *ast.ExprStmt:
		call, ok := s.X.(*ast.CallExpr)
		if !ok {
			return false
		}
		if r.builtin(call) == "panic" || r.tMethod(call, t, endMethods) || r.rtMethod(call, t, endMethods) {
			return true
		}
		sel, ok := call.Fun.(*ast.SelectorExpr)
		if !ok {
			return false
		}
		fn, ok := r.info.Uses[sel.Sel].(*types.Func)
		return ok && fn.Pkg() != nil && fn.Pkg().Path() == "runtime" && fn.Name() == "Goexit"
	}
	return false
}

// pureBuiltins are the builtin functions whose calls have no effect.
var pureBuiltins = map[string]bool{"len": true, "cap": true, "min": true, "max": true, "complex": true, "real": true, "imag": true}

// quietExprs reports whether every expression of list is quiet.
func (r *rewriter) quietExprs(list []ast.Expr) bool {
	for _, e := range list {
		if !r.quiet(e) {
			return false
		}
	}
	return true
}

// quiet reports whether evaluating e involves no concurrency and no
// object of weft's: no receive, no function literal, and no call but of
// a conversion, of len, cap, min, max, complex, real or imag, or of a
// function (not a method) of a package of the standard library that weft
// test neither rewrites nor stands in for (os.Getenv, strings.Contains)
// or of package testing (testing.Short).
func (r *rewriter) quiet(e ast.Expr) bool {
	ok := true
	ast.Inspect(e, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			ok = false
		case *ast.UnaryExpr:
			ok = ok && n.Op != token.ARROW
		case *ast.CallExpr:
			if tv, found := r.info.Types[n.Fun]; found && tv.IsType() {
				break
			}
			ok = ok && (pureBuiltins[r.builtin(n)] || r.stdFunc(n))
		}
		return ok
	})
	return ok
}

// stdFunc reports whether call calls a function, not a method, of a
// package of the standard library that weft test neither rewrites nor
// stands in for, or of package testing.
func (r *rewriter) stdFunc(call *ast.CallExpr) bool {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return false
	}
	if _, ok := r.info.Uses[identOf(sel.X)].(*types.PkgName); !ok {
		return false
	}
	fn, ok := r.info.Uses[sel.Sel].(*types.Func)
	if !ok || fn.Pkg() == nil {
		return false
	}
	path := fn.Pkg().Path()
	return path == "testing" || stdPackage(path)
}

// identOf returns e if it is an identifier, or nil.
func identOf(e ast.Expr) *ast.Ident {
	id, _ := e.(*ast.Ident)
	return id
}

// wrapIf makes body, the block of an exploringIf of a test whose
// *testing.T is named t, an exploration of its own (weftrt.Test, or
// weftrt.Plain if it runs weft's explorations itself) after which the
// test returns.
func (r *rewriter) wrapIf(body *ast.BlockStmt, t string) {
	if r.wrappedIf(body) {
		return
	}
	wrapper := "Test"
	if r.explores(body) {
		wrapper = "Plain"
	}
	end := "})"
	if wrapper == "Test" {
		end = "}" + r.testOpts + ")"
	}
	r.usesRT = true
	r.insert(r.off(body.Lbrace)+1, " "+rtName+"."+wrapper+"("+t+", func() {", false)
	r.depth++ // after the insertions that close the block's last statement
	r.insert(r.off(body.Rbrace), end+"; return ", false)
	r.depth--
}
