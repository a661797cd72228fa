// This file implements parallelAt: where a test's t.Parallel() is, when
// only statements that change nothing but their own variables come before
// it, such as the copy of a loop variable (tc := tc) that a file older
// than go1.22 needs before t.Parallel().

package rewrite

import (
	"go/ast"
	"go/token"
)

// parallelAt returns the index in body of the statement t.Parallel(), t
// the name of the test's *testing.T, if the statements before it are
// declarations whose values have no effect (prefixStmt), or -1.
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

// prefixStmt reports whether s may come before t.Parallel(): a short
// variable declaration or a var, const or type declaration whose values
// have no effect (pure), an empty statement, or t.Helper() (and the
// weftrt.Helper() the rewriting adds after it).
func (r *rewriter) prefixStmt(s ast.Stmt, t string) bool {
	switch s := s.(type) {
	case *ast.EmptyStmt:
		return true
	case *ast.AssignStmt:
		if s.Tok != token.DEFINE {
			return false
		}
		for _, e := range s.Rhs {
			if !r.pure(e) {
				return false
			}
		}
		return true
	case *ast.DeclStmt:
		d, ok := s.Decl.(*ast.GenDecl)
		if !ok {
			return false
		}
		for _, spec := range d.Specs {
			if vs, ok := spec.(*ast.ValueSpec); ok {
				for _, e := range vs.Values {
					if !r.pure(e) {
						return false
					}
				}
			}
		}
		return true
	case *ast.ExprStmt:
		if call, ok := s.X.(*ast.CallExpr); ok && r.rtFunc(call) == "Helper" {
			return true // weftrt.Helper() after t.Helper(): helperCalls
		}
		return r.isTestingCall(s.X, t, "Helper")
	}
	return false
}

// pureBuiltins are the builtin functions whose calls have no effect.
var pureBuiltins = map[string]bool{"len": true, "cap": true, "min": true, "max": true, "complex": true, "real": true, "imag": true}

// pure reports whether evaluating e has no effect but reading: no call but
// of a conversion or of len, cap, min, max, complex, real or imag, no
// receive, no function literal.
func (r *rewriter) pure(e ast.Expr) bool {
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
			ok = ok && pureBuiltins[r.builtin(n)]
		}
		return ok
	})
	return ok
}
