// This file implements the rewriting of busy-wait loops to awaits: a loop
// `for cond { runtime.Gosched() }`, or with an empty body, whose condition
// only loads atomic words, becomes `for weftrt.Spin(func() bool { return
// cond }) { ... }`, which weft explores as one await event.

package rewrite

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"
)

// spinLoop rewrites the condition of n to weftrt.Spin if n is a busy-wait
// loop: no init or post statement, a body that is empty or only calls
// runtime.Gosched, and a condition that loads atomic words and does
// nothing else (spinCond).
func (r *rewriter) spinLoop(n *ast.ForStmt) {
	if n.Init != nil || n.Post != nil || n.Cond == nil || !r.spinBody(n.Body) {
		return
	}
	loads := 0
	if !r.spinCond(n.Cond, &loads) || loads == 0 {
		return
	}
	r.usesRT = true
	r.replace(n.Cond.Pos(), n.Cond.Pos(), rtName+".Spin(func() bool { return ")
	r.insert(r.off(n.Cond.End()), " })", true)
}

// spinBody reports whether b is empty or only calls runtime.Gosched.
func (r *rewriter) spinBody(b *ast.BlockStmt) bool {
	switch len(b.List) {
	case 0:
		return true
	case 1:
		s, ok := b.List[0].(*ast.ExprStmt)
		if !ok {
			return false
		}
		call, ok := ast.Unparen(s.X).(*ast.CallExpr)
		if !ok || len(call.Args) != 0 {
			return false
		}
		fn := r.calledFunc(call)
		return fn != nil && fn.Pkg() != nil && fn.Pkg().Path() == "runtime" && fn.Name() == "Gosched"
	}
	return false
}

// calledFunc returns the function or method call calls, or nil.
func (r *rewriter) calledFunc(call *ast.CallExpr) *types.Func {
	var id *ast.Ident
	switch f := ast.Unparen(call.Fun).(type) {
	case *ast.Ident:
		id = f
	case *ast.SelectorExpr:
		id = f.Sel
	default:
		return nil
	}
	fn, _ := r.info.Uses[id].(*types.Func)
	return fn
}

// spinCond reports whether e only loads atomic words (sync/atomic's Load
// methods and functions, counted in loads) and combines their values
// with constants and local variables: an evaluation of it has no effect and reads nothing
// but the words, so that weft may evaluate it silently, as the condition
// of an await, and again whenever one of the words is written.
func (r *rewriter) spinCond(e ast.Expr, loads *int) bool {
	if tv, ok := r.info.Types[e]; ok && tv.Value != nil {
		return true // a constant
	}
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident:
		switch obj := r.info.Uses[e].(type) {
		case *types.Nil:
			return true
		case *types.Var:
			// A local variable, which the loop does not change: another
			// goroutine that wrote it would race with the loop in Go.
			return obj.Parent() != nil && obj.Parent() != obj.Pkg().Scope()
		}
		return false
	case *ast.UnaryExpr:
		return (e.Op == token.NOT || e.Op == token.SUB || e.Op == token.XOR) && r.spinCond(e.X, loads)
	case *ast.BinaryExpr:
		return r.spinCond(e.X, loads) && r.spinCond(e.Y, loads)
	case *ast.CallExpr:
		fn := r.calledFunc(e)
		if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != "sync/atomic" || !strings.HasPrefix(fn.Name(), "Load") {
			return false
		}
		if fn.Type().(*types.Signature).Recv() != nil {
			// x.Load(): x must be a word reached without effects.
			sel, ok := ast.Unparen(e.Fun).(*ast.SelectorExpr)
			if !ok || len(e.Args) != 0 || !r.wordPath(sel.X) {
				return false
			}
		} else if len(e.Args) != 1 || !r.wordPath(e.Args[0]) {
			return false // atomic.LoadInt32(&x)
		}
		*loads++
		return true
	}
	return false
}

// wordPath reports whether e names a variable without effects and
// without reading shared memory other than through pointers to the word:
// a variable, a field of one, or its address (x, p.state, &s.n).
func (r *rewriter) wordPath(e ast.Expr) bool {
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident:
		_, ok := r.info.Uses[e].(*types.Var)
		return ok
	case *ast.SelectorExpr:
		s := r.info.Selections[e]
		return s != nil && s.Kind() == types.FieldVal && r.wordPath(e.X)
	case *ast.UnaryExpr:
		return e.Op == token.AND && r.wordPath(e.X)
	}
	return false
}
