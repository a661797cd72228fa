// This file implements the rewriting of go and select statements.

package rewrite

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strings"
)

// goStmt rewrites a go statement into a call of weftrt.Go. The function
// value and the arguments are bound to variables at the statement, in
// place; the new goroutine calls the function with them.
func (r *rewriter) goStmt(g *ast.GoStmt) {
	r.usesRT = true
	call := g.Call
	fun := ast.Unparen(call.Fun)
	if lit, ok := fun.(*ast.FuncLit); ok && len(call.Args) == 0 {
		// go func() {...}(): weftrt.Go(func() {...})
		r.replace(g.Go, call.Fun.Pos(), rtName+".Go(")
		r.inspect(lit)
		r.replace(call.Fun.End(), call.Rparen+1, ")")
		return
	}
	r.bindCall(g.Go, call, func(body string) string { return rtName + ".Go(func() { " + body + " })" })
}

// bindCall rewrites the statement that starts at stmt, go or defer with
// call, into a block that binds call's function value and arguments to
// variables, in place, and then runs launch(body), body the call of the
// function with them.
func (r *rewriter) bindCall(stmt token.Pos, call *ast.CallExpr, launch func(body string) string) {
	fun := ast.Unparen(call.Fun)
	var names []string
	callee := ""
	bindFun := r.evaluated(fun)
	if bindFun {
		names = append(names, "weftF_")
		callee = "weftF_"
	} else {
		callee = r.text(call.Fun)
	}
	sig, _ := r.info.TypeOf(call.Fun).Underlying().(*types.Signature)
	var args []string
	for i, a := range call.Args {
		n := fmt.Sprintf("weftA%d_", i)
		names = append(names, n)
		args = append(args, n)
		if conv := r.conversion(sig, i, a, call.Ellipsis.IsValid()); conv != "" {
			r.replace(a.Pos(), a.Pos(), conv+"(")
			r.inspect(a)
			r.insert(r.off(a.End()), ")", true)
		} else {
			r.inspect(a)
		}
	}
	ellipsis := ""
	if call.Ellipsis.IsValid() {
		ellipsis = "..."
	}
	body := callee + "(" + strings.Join(args, ", ") + ellipsis + ")"
	if r.builtin(call) == "close" {
		r.usesRT = true
		body = rtName + "." + r.of(call.Args[0]) + args[0] + ").Close()"
	}
	start := "{ " + strings.Join(names, ", ") + " := "
	end := "; " + launch(body) + " }"
	switch {
	case len(names) == 0:
		r.replace(stmt, call.Rparen+1, launch(body))
	case bindFun && len(call.Args) == 0:
		r.replace(stmt, call.Fun.Pos(), start)
		r.inspect(call.Fun)
		r.replace(call.Fun.End(), call.Rparen+1, end)
	case bindFun:
		r.replace(stmt, call.Fun.Pos(), start)
		r.inspect(call.Fun)
		r.replace(call.Fun.End(), call.Args[0].Pos(), ", ")
		r.replace(call.Args[len(call.Args)-1].End(), call.Rparen+1, end)
	default:
		r.replace(stmt, call.Args[0].Pos(), start)
		r.replace(call.Args[len(call.Args)-1].End(), call.Rparen+1, end)
	}
}

// deferStmt rewrites a defer statement whose call runs a step of weft's
// stand-ins directly (close of a channel, a method or function of sync,
// sync/atomic, time or context, a context's cancel function) so that the
// deferred call is a function literal written on the defer's line, its
// function value and arguments bound at the statement as Go binds them:
//
//	defer mu.Unlock()   { weftF_ := mu.WeftName("mu").Unlock; defer func() { weftF_() }() }
//
// The literal's frame is the one the step's call site is taken from, so a
// report shows the step at its defer line, not at the return or the panic
// that ran it. It reports whether it rewrote g. Other deferred calls are
// left alone: a function of the program's may call recover, which works
// only when called by the deferred function itself.
func (r *rewriter) deferStmt(d *ast.DeferStmt) bool {
	if !r.standInCall(d.Call) {
		return false
	}
	r.bindCall(d.Defer, d.Call, func(body string) string { return "defer func() { " + body + " }()" })
	return true
}

// standInPkgs are the packages whose functions and methods weft test's
// rewritten code calls the stand-ins of.
var standInPkgs = map[string]bool{"sync": true, "sync/atomic": true, "time": true, "context": true}

// standInCall reports whether call is one of a stand-in's: close of a
// channel, a function or method of standInPkgs, or a call of a function
// value of one of package context's types (CancelFunc).
func (r *rewriter) standInCall(call *ast.CallExpr) bool {
	if r.builtin(call) == "close" {
		return len(call.Args) == 1 && r.chanType(call.Args[0]) != nil
	}
	fun := ast.Unparen(call.Fun)
	if _, ok := fun.(*ast.FuncLit); ok {
		return false
	}
	var id *ast.Ident
	switch f := fun.(type) {
	case *ast.Ident:
		id = f
	case *ast.SelectorExpr:
		id = f.Sel
	}
	if id != nil {
		if fn, ok := r.info.Uses[id].(*types.Func); ok {
			return fn.Pkg() != nil && standInPkgs[fn.Pkg().Path()]
		}
	}
	if named, ok := r.info.TypeOf(fun).(*types.Named); ok {
		obj := named.Obj()
		return obj.Pkg() != nil && obj.Pkg().Path() == "context"
	}
	return false
}

// evaluated reports whether the function value fun of a go statement must
// be evaluated at the statement: all but a builtin and a function named by
// an identifier (or package.identifier), whose value cannot change, and
// which may be generic with type arguments inferred from the call.
func (r *rewriter) evaluated(fun ast.Expr) bool {
	var id *ast.Ident
	switch f := fun.(type) {
	case *ast.Ident:
		id = f
	case *ast.SelectorExpr:
		if x, ok := f.X.(*ast.Ident); ok {
			if _, ok := r.info.Uses[x].(*types.PkgName); ok {
				id = f.Sel
			}
		}
	}
	if id == nil {
		return true
	}
	switch r.info.Uses[id].(type) {
	case *types.Builtin, *types.Func:
		return false
	}
	return true
}

// conversion returns the type that argument i of a call of sig must be
// converted to when it is bound to a variable: the parameter's type for a
// constant or nil, whose variable would otherwise take the constant's
// default type; "" for any other argument.
func (r *rewriter) conversion(sig *types.Signature, i int, a ast.Expr, ellipsis bool) string {
	tv, ok := r.info.Types[a]
	if !ok || (tv.Value == nil && !tv.IsNil()) || sig == nil {
		return ""
	}
	var pt types.Type
	params := sig.Params()
	switch {
	case sig.Variadic() && i >= params.Len()-1 && !ellipsis:
		pt = params.At(params.Len() - 1).Type().(*types.Slice).Elem()
	case i < params.Len():
		pt = params.At(i).Type()
	default:
		return ""
	}
	return "(" + types.TypeString(pt, r.qualifier(a.Pos())) + ")"
}

// qualifier names a package as the file imports it; a package the file
// does not import is an error at p.
func (r *rewriter) qualifier(p token.Pos) types.Qualifier {
	return func(pkg *types.Package) string {
		if pkg == r.pkg() {
			return ""
		}
		for _, spec := range r.file.Imports {
			if pn, ok := r.info.Defs[spec.Name].(*types.PkgName); spec.Name != nil && ok && pn.Imported() == pkg {
				return pn.Name()
			}
			if pn, ok := r.info.Implicits[spec].(*types.PkgName); ok && pn.Imported() == pkg {
				return pn.Name()
			}
		}
		r.errorf(p, "a go statement's untyped constant argument has a parameter type of package %s, which the file does not import: give the constant a type", pkg.Path())
		return pkg.Name()
	}
}

// pkg returns the file's package.
func (r *rewriter) pkg() *types.Package {
	if obj := r.info.Defs[r.file.Name]; obj != nil {
		return obj.Pkg()
	}
	return nil
}

// selectStmt rewrites a select statement into a switch on the index of
// the case weftrt.Select chose. The cases' channels and values are
// evaluated where the select starts, in the switch's initialisation, on
// its line, each with its original lines and columns (flat), and each
// clause binds what its receive assigns; the clauses' bodies stay where
// they are.
func (r *rewriter) selectStmt(s *ast.SelectStmt) {
	r.usesRT = true
	var names, cases []string
	if len(s.Body.List) == 0 {
		// select {} blocks for ever, and is a terminating statement.
		r.replace(s.Select, s.Body.Rbrace+1, "for { "+rtName+".Select(false) }")
		return
	}
	hasDefault := false
	last := len(s.Body.List) - 1
	for _, st := range s.Body.List {
		if st.(*ast.CommClause).Comm == nil {
			hasDefault = true
		}
	}
	for k, st := range s.Body.List {
		cc := st.(*ast.CommClause)
		if cc.Comm == nil {
			continue
		}
		i := len(names)
		name := fmt.Sprintf("weftS%d_", i)
		names = append(names, name)
		var ch, val ast.Expr
		assign := ""
		switch c := cc.Comm.(type) {
		case *ast.SendStmt:
			ch, val = c.Chan, c.Value
		case *ast.ExprStmt:
			ch = ast.Unparen(c.X).(*ast.UnaryExpr).X
		case *ast.AssignStmt:
			ch = ast.Unparen(c.Rhs[0]).(*ast.UnaryExpr).X
			var lhs []string
			blank := true
			for _, l := range c.Lhs {
				lhs = append(lhs, r.flat(r.text(l), l.Pos(), cc.Case, "a select case's assigned operand", "select"))
				blank = blank && types.ExprString(l) == "_"
			}
			tok := c.Tok.String()
			if blank {
				tok = "="
			}
			rhs := name + ".V"
			if len(lhs) == 2 {
				rhs += ", " + name + ".OK"
			}
			assign = " " + strings.Join(lhs, ", ") + " " + tok + " " + rhs + ";"
		}
		c := rtName + "." + r.of(ch) + r.flat(r.text(ch), ch.Pos(), s.Select, "a select case's channel", "select") + ")"
		if val != nil {
			c += ".SendCase(" + r.flat(r.text(val), val.Pos(), s.Select, "a select case's value", "select") + ")"
		} else {
			c += ".RecvCase()"
		}
		cases = append(cases, c)
		label := fmt.Sprintf("case %d:", i)
		if !hasDefault && k == last {
			// The last case is the switch's default: a select without
			// default whose cases all end in a terminating statement is
			// one, and so is a switch only with a default.
			label = "default:"
		}
		r.replace(cc.Case, cc.Colon+1, label+assign)
	}
	head := "switch "
	if len(names) > 0 {
		head += strings.Join(names, ", ") + " := " + strings.Join(cases, ", ") + "; "
	}
	head += fmt.Sprintf("%s.Select(%v", rtName, hasDefault)
	for _, n := range names {
		head += ", " + n
	}
	head += ") "
	r.replace(s.Select, s.Body.Lbrace, head)
	for _, st := range s.Body.List {
		for _, b := range st.(*ast.CommClause).Body {
			r.inspect(b)
		}
	}
}
