// This file implements the rewriting of busy-wait loops to awaits: a loop
// whose condition only loads atomic words, and whose body only yields
// (runtime.Gosched, and bookkeeping of local variables such as a back-off
// count), becomes a loop on weftrt.Spin, which weft explores as one await
// event. A loop that tries a compare-and-swap until it succeeds stays as
// it is: a failed one is a load, and runtime.Gosched (weft.Yield) then
// blocks the thread until the word is written, so the loop's turns cost
// no more than an await would, and an await before each compare-and-swap
// would add an event to each acquisition.

package rewrite

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"
)

// spinLoop rewrites the condition of n to weftrt.Spin if n is a busy-wait
// loop: no init or post statement, a body that only yields (spinBody),
// and a condition that loads atomic words and does nothing else
// (spinCond), and reads no local variable the body changes.
func (r *rewriter) spinLoop(n *ast.ForStmt) {
	if n.Init != nil || n.Post != nil || n.Cond == nil {
		return
	}
	changed := map[types.Object]bool{}
	if !r.spinBody(n.Body, changed) || r.readsAny(n.Cond, changed) {
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

// spinBody reports whether b only yields: calls of runtime.Gosched, and
// assignments to local variables (recorded in changed) of values without
// effects, in blocks, ifs and loops whose conditions are such values. A
// break, continue, return or goto, or any other statement, says no.
func (r *rewriter) spinBody(b *ast.BlockStmt, changed map[types.Object]bool) bool {
	for _, s := range b.List {
		if !r.spinStmt(s, changed) {
			return false
		}
	}
	return true
}

// spinStmt is spinBody for one statement.
func (r *rewriter) spinStmt(s ast.Stmt, changed map[types.Object]bool) bool {
	loads := 0
	pure := func(e ast.Expr) bool { return e == nil || r.spinCond(e, &loads) && loads == 0 }
	switch s := s.(type) {
	case nil:
		return true
	case *ast.ExprStmt:
		call, ok := ast.Unparen(s.X).(*ast.CallExpr)
		if !ok || len(call.Args) != 0 {
			return false
		}
		fn := r.calledFunc(call)
		return fn != nil && fn.Pkg() != nil && fn.Pkg().Path() == "runtime" && fn.Name() == "Gosched"
	case *ast.IncDecStmt:
		return r.localVar(s.X, changed)
	case *ast.AssignStmt:
		for _, e := range s.Rhs {
			if !pure(e) {
				return false
			}
		}
		for _, e := range s.Lhs {
			if !r.localVar(e, changed) {
				return false
			}
		}
		return true
	case *ast.BlockStmt:
		return r.spinBody(s, changed)
	case *ast.IfStmt:
		return r.spinStmt(s.Init, changed) && pure(s.Cond) && r.spinBody(s.Body, changed) && r.spinStmt(s.Else, changed)
	case *ast.ForStmt:
		return r.spinStmt(s.Init, changed) && pure(s.Cond) && r.spinStmt(s.Post, changed) && r.spinBody(s.Body, changed)
	}
	return false
}

// localVar reports whether e is a local variable (or _), and records it
// in changed.
func (r *rewriter) localVar(e ast.Expr, changed map[types.Object]bool) bool {
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok {
		return false
	}
	if id.Name == "_" {
		return true
	}
	obj := r.info.ObjectOf(id)
	v, ok := obj.(*types.Var)
	if !ok || !local(v) {
		return false
	}
	changed[obj] = true
	return true
}

// local reports whether v is declared inside a function.
func local(v *types.Var) bool {
	return v.Parent() != nil && v.Pkg() != nil && v.Parent() != v.Pkg().Scope()
}

// readsAny reports whether e uses one of the objects in objs.
func (r *rewriter) readsAny(e ast.Expr, objs map[types.Object]bool) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && objs[r.info.Uses[id]] {
			found = true
		}
		return !found
	})
	return found
}

// calledFunc returns the function or method call calls, or nil.
func (r *rewriter) calledFunc(call *ast.CallExpr) *types.Func {
	id := calleeIdent(call)
	if id == nil {
		return nil
	}
	fn, _ := r.info.Uses[id].(*types.Func)
	return fn
}

// spinCond reports whether e only loads atomic words (sync/atomic's Load
// methods and functions, counted in loads) and combines their values
// with constants and local variables: an evaluation of it has no effect
// and reads nothing but the words, so that weft may evaluate it silently,
// as the condition of an await, and again whenever one of the words is
// written.
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
			return local(obj)
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
// a variable, a field of one, its address, or a conversion of such a
// pointer ((*uint32)(l), for a named word type).
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
	case *ast.CallExpr:
		tv, ok := r.info.Types[e.Fun]
		return ok && tv.IsType() && len(e.Args) == 1 && r.wordPath(e.Args[0])
	}
	return false
}

// calleeIdent returns the name call calls by (f in f(x), Sel in p.f(x)),
// or nil if its function is no name (a function literal, a call's
// result).
func calleeIdent(call *ast.CallExpr) *ast.Ident {
	switch f := ast.Unparen(call.Fun).(type) {
	case *ast.Ident:
		return f
	case *ast.SelectorExpr:
		return f.Sel
	}
	return nil
}
