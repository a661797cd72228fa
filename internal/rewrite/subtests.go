// This file implements the rewriting of subtests: a Test function or a
// subtest whose body calls t.Run runs as plain Go, and each subtest whose
// body calls no t.Run runs as its own weft exploration.

package rewrite

import (
	"go/ast"
	"go/token"
	"go/types"
	"strconv"
)

// A context says how the code being walked runs.
type context int

const (
	ctxNone  context = iota // package code, helpers, function literals
	ctxLeaf                 // the body of a Test function or subtest that runs as an exploration
	ctxGroup                // the body of a Test function or subtest that calls t.Run
)

// groupFuncs returns the functions declared in files whose bodies call
// t.Run, directly or through a call of another such function: a Test
// function, or a subtest, that calls one of them has subtests.
func groupFuncs(files []*ast.File, info *types.Info) map[types.Object]bool {
	return reaching(files, info, func(call *ast.CallExpr) bool { return isRun(info, call) != notRun })
}

// reaching returns the functions declared in files whose bodies hold a
// call for which direct reports true, or a call of another such function.
func reaching(files []*ast.File, info *types.Info, direct func(*ast.CallExpr) bool) map[types.Object]bool {
	found := map[types.Object]bool{}
	var decls []*ast.FuncDecl
	for _, f := range files {
		for _, d := range f.Decls {
			if fn, ok := d.(*ast.FuncDecl); ok && fn.Body != nil && info.Defs[fn.Name] != nil {
				decls = append(decls, fn)
			}
		}
	}
	for changed := true; changed; {
		changed = false
		for _, fn := range decls {
			obj := info.Defs[fn.Name]
			if !found[obj] && calls(fn.Body, info, found, direct) {
				found[obj] = true
				changed = true
			}
		}
	}
	return found
}

// callsRun reports whether n holds a call of t.Run (or of its rewriting,
// weftrt.Run), or of a function of groups.
func callsRun(n ast.Node, info *types.Info, groups map[types.Object]bool) bool {
	return calls(n, info, groups, func(call *ast.CallExpr) bool { return isRun(info, call) != notRun })
}

// calls reports whether n holds a call for which direct reports true, or
// a call of a function of funcs.
func calls(n ast.Node, info *types.Info, funcs map[types.Object]bool, direct func(*ast.CallExpr) bool) bool {
	found := false
	ast.Inspect(n, func(n ast.Node) bool {
		if call, ok := n.(*ast.CallExpr); ok && !found {
			found = funcs[callee(info, call.Fun)] || direct(call)
		}
		return !found
	})
	return found
}

// callee returns the function that fun, an identifier or a selector,
// names, or nil.
func callee(info *types.Info, fun ast.Expr) types.Object {
	switch f := ast.Unparen(fun).(type) {
	case *ast.Ident:
		if fn, ok := info.Uses[f].(*types.Func); ok {
			return fn
		}
	case *ast.SelectorExpr:
		if fn, ok := info.Uses[f.Sel].(*types.Func); ok {
			return fn
		}
	}
	return nil
}

// The kinds of calls isRun tells apart.
const (
	notRun  = iota
	testRun // t.Run(name, f), t a *testing.T
	weftRun // weftrt.Run(t, name, f), its rewriting
	weftSub // weftrt.Sub(f) or weftrt.SubPlain(f)
)

// isRun tells whether call is a call of t.Run, weftrt.Run, weftrt.Sub or
// weftrt.SubPlain.
func isRun(info *types.Info, call *ast.CallExpr) int {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return notRun
	}
	fn, ok := info.Uses[sel.Sel].(*types.Func)
	if !ok || fn.Pkg() == nil {
		return notRun
	}
	switch {
	case fn.Pkg().Path() == "testing" && fn.Name() == "Run" && isTestingT(info.TypeOf(sel.X)) && len(call.Args) == 2:
		return testRun
	case fn.Pkg().Path() == RTPath && fn.Name() == "Run" && len(call.Args) == 3:
		return weftRun
	case fn.Pkg().Path() == RTPath && (fn.Name() == "Sub" || fn.Name() == "SubPlain") && len(call.Args) == 1:
		return weftSub
	}
	return notRun
}

// runCall rewrites t.Run(name, f) into weftrt.Run(t, name, f), f's body
// wrapped in weftrt.Test (or weftrt.Plain, enter) if f is a function
// literal whose body calls no t.Run, and f made weftrt.Sub(f) if f is a
// function value that is not a function of groups (weftrt.SubPlain(f) if
// it is one of explorers). A call already rewritten (kind weftRun) gets the
// same treatment of f, which changes nothing.
func (r *rewriter) runCall(call *ast.CallExpr, kind int) {
	args := call.Args
	if kind == testRun {
		sel := ast.Unparen(call.Fun).(*ast.SelectorExpr)
		r.usesRT = true
		r.replace(sel.X.Pos(), sel.X.Pos(), rtName+".Run(")
		r.inspect(sel.X)
		r.replace(sel.X.End(), call.Lparen+1, ", ")
	} else {
		r.inspect(args[0])
		args = args[1:]
	}
	r.inspect(args[0])
	name := types.ExprString(args[0])
	if lit, ok := args[0].(*ast.BasicLit); ok && lit.Kind == token.STRING {
		if s, err := strconv.Unquote(lit.Value); err == nil {
			name = s
		}
	}
	if r.test != "" {
		name = r.test + "/" + name
	}
	f := args[1]
	if lit, ok := ast.Unparen(f).(*ast.FuncLit); ok {
		r.enter(lit.Type.Params, lit.Body, name)
		return
	}
	if call, ok := ast.Unparen(f).(*ast.CallExpr); (ok && isRun(r.info, call) == weftSub) || r.groups[callee(r.info, f)] {
		r.inspect(f)
		return
	}
	sub := ".Sub("
	if r.explorers[callee(r.info, f)] {
		sub = ".SubPlain("
	}
	r.usesRT = true
	r.replace(f.Pos(), f.Pos(), rtName+sub)
	r.inspect(f)
	r.insert(r.off(f.End()), ")", true)
}

// enter walks the body of the Test function or subtest name, whose
// parameters are params: as a group if it calls t.Run, else wrapped, as a
// leaf, in weftrt.Test, or in weftrt.Plain if it runs an exploration of
// weft's itself (explores): explorations do not nest.
//
// A body that holds constructs the rewriting does not support (but for
// those of its subtests, which refuse the subtest alone) is left as it
// was, and skips the test with the constructs' file:line and the way out
// (weftrt.Refuse), before anything else.
func (r *rewriter) enter(params *ast.FieldList, body *ast.BlockStmt, name string) {
	if r.refusedBody(body) {
		return
	}
	ctx, test, opts := r.ctx, r.test, r.testOpts
	r.test = name
	from := len(r.errs)
	if r.directives != nil {
		// A Test function's directives: its explorations' options, and
		// those of its subtests.
		r.testOpts = r.testOptions(r.directives)
		r.directives = nil
	}
	if callsRun(body, r.info, r.groups) {
		r.ctx = ctxGroup
	} else {
		r.ctx = ctxLeaf
		wrapper := "Test"
		if r.explores(body) {
			wrapper = "Plain"
		}
		r.wrap(params, body, wrapper)
	}
	r.inspect(body)
	r.ctx, r.test, r.testOpts = ctx, test, opts
	if len(r.errs) > from {
		r.edits = r.edits.without(r.off(params.Opening), r.off(params.Closing)+1)
		t := r.nameParam(params)
		r.refuse(body, from, rtName+".Refuse("+t+", ")
	}
}

// refused reports whether the code at p, a construct what, is in the body
// of a Test function or subtest that has subtests, and refuses it then.
func (r *rewriter) refused(p token.Pos, what string) bool {
	if r.ctx != ctxGroup {
		return false
	}
	r.errorf(p, "%s in %s outside its subtests: weft test runs each subtest that calls no t.Run as its own exploration, and the code around the subtests as plain Go, outside any exploration; move it into the subtests", what, r.test)
	return true
}
