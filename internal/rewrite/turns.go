// This file implements the marking of the turns of polling loops: a loop
// `for { ... }` that receives from channels or selects, and whose turns
// that go round change nothing but through weft's operations, becomes
// `for weftL_ := weftrt.Loop(); ; weftL_.Turn() { ... }`, so that weft
// knows where each turn ends (std/rt.Turns): a turn whose steps only read
// is a stutter, which weft lets other goroutines pass (a turn of loads
// only blocks until one of the variables is written). Changing nothing
// means: the turn assigns only variables declared in the loop's body, and
// calls only functions that only read (loads of atomic words, len and
// cap, a context.Context's Done and Err, and functions of the package
// whose body returns an expression of such calls); a turn that returns,
// panics or leaves the loop may do anything, as it does not go round.

package rewrite

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"
)

// turnLoop marks the turns of n if n is a polling loop.
func (r *rewriter) turnLoop(n *ast.ForStmt) {
	if n.Init != nil || n.Cond != nil || n.Post != nil {
		return
	}
	inner := map[types.Object]bool{}
	polls := false
	if !r.turnBlock(n.Body.List, inner, &polls) || !polls {
		return
	}
	r.usesRT = true
	r.insert(r.off(n.For)+len("for"), " weftL_ := "+rtName+".Loop(); ; weftL_.Turn()", false)
}

// turnBlock reports whether the statements of list change nothing, in a
// turn that goes round, but variables declared in the loop's body (inner,
// which it extends); polls is set if one receives from a channel.
func (r *rewriter) turnBlock(list []ast.Stmt, inner map[types.Object]bool, polls *bool) bool {
	for _, s := range list {
		if !r.turnStmt(s, inner, polls) {
			return false
		}
	}
	return true
}

// turnStmt is turnBlock for one statement.
func (r *rewriter) turnStmt(s ast.Stmt, inner map[types.Object]bool, polls *bool) bool {
	read := func(e ast.Expr) bool { return e == nil || r.readsOnly(e, polls, 0) }
	switch s := s.(type) {
	case nil, *ast.EmptyStmt:
		return true
	case *ast.ReturnStmt:
		return true // the turn does not go round
	case *ast.BranchStmt:
		return s.Tok == token.BREAK || s.Tok == token.CONTINUE
	case *ast.ExprStmt:
		if call, ok := ast.Unparen(s.X).(*ast.CallExpr); ok {
			if id, ok := ast.Unparen(call.Fun).(*ast.Ident); ok {
				if _, ok := r.info.Uses[id].(*types.Builtin); ok && id.Name == "panic" {
					return true
				}
			}
		}
		return read(s.X)
	case *ast.SendStmt:
		// A send writes, which the runtime sees: the turn is no stutter.
		return read(s.Chan) && read(s.Value)
	case *ast.IncDecStmt:
		return r.innerVar(s.X, inner)
	case *ast.AssignStmt:
		for _, e := range s.Rhs {
			if !read(e) {
				return false
			}
		}
		for _, e := range s.Lhs {
			if s.Tok == token.DEFINE {
				if id, ok := e.(*ast.Ident); ok {
					if obj := r.info.Defs[id]; obj != nil {
						inner[obj] = true
					}
					continue
				}
			}
			if !r.innerVar(e, inner) {
				return false
			}
		}
		return true
	case *ast.BlockStmt:
		return r.turnBlock(s.List, inner, polls)
	case *ast.IfStmt:
		return r.turnStmt(s.Init, inner, polls) && read(s.Cond) && r.turnBlock(s.Body.List, inner, polls) && r.turnStmt(s.Else, inner, polls)
	case *ast.SelectStmt:
		for _, c := range s.Body.List {
			cc := c.(*ast.CommClause)
			if cc.Comm != nil {
				*polls = true
			}
			if !r.turnStmt(cc.Comm, inner, polls) || !r.turnBlock(cc.Body, inner, polls) {
				return false
			}
		}
		return true
	}
	return false
}

// innerVar reports whether e is _ or a variable declared in the loop's
// body (inner).
func (r *rewriter) innerVar(e ast.Expr, inner map[types.Object]bool) bool {
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok {
		return false
	}
	return id.Name == "_" || inner[r.info.Uses[id]] || inner[r.info.Defs[id]]
}

// readsOnly reports whether evaluating e changes nothing but through
// weft's operations: it reads variables, receives from channels (polls is
// then set), and calls only functions that only read (readerCall); depth
// bounds the functions of the package followed.
func (r *rewriter) readsOnly(e ast.Expr, polls *bool, depth int) bool {
	ok := true
	ast.Inspect(e, func(n ast.Node) bool {
		if !ok {
			return false
		}
		switch n := n.(type) {
		case *ast.FuncLit, *ast.CompositeLit:
			ok = false
		case *ast.UnaryExpr:
			if n.Op == token.ARROW {
				*polls = true
			}
		case *ast.CallExpr:
			if tv, found := r.info.Types[n.Fun]; found && tv.IsType() {
				return true // a conversion
			}
			ok = r.readerCall(n, polls, depth)
			if ok {
				// The callee is checked; its arguments and receiver are
				// expressions of the loop's.
				if sel, isSel := ast.Unparen(n.Fun).(*ast.SelectorExpr); isSel {
					ok = r.readsOnly(sel.X, polls, depth)
				}
				for _, a := range n.Args {
					ok = ok && r.readsOnly(a, polls, depth)
				}
			}
			return false
		}
		return true
	})
	return ok
}

// readerCall reports whether call calls a function that only reads: len,
// cap, a Load of sync/atomic, a context.Context's Done or Err, or a
// function or method of the package whose body is one return of an
// expression that only reads.
func (r *rewriter) readerCall(call *ast.CallExpr, polls *bool, depth int) bool {
	if id, ok := ast.Unparen(call.Fun).(*ast.Ident); ok {
		if b, ok := r.info.Uses[id].(*types.Builtin); ok {
			return b.Name() == "len" || b.Name() == "cap"
		}
	}
	fn := r.calledFunc(call)
	if fn == nil || fn.Pkg() == nil {
		return false
	}
	switch path := fn.Pkg().Path(); {
	case path == "sync/atomic":
		return strings.HasPrefix(fn.Name(), "Load")
	case path == "context":
		return fn.Type().(*types.Signature).Recv() != nil && (fn.Name() == "Done" || fn.Name() == "Err")
	case depth >= 3:
		return false
	}
	body := r.funcBody(fn.Origin())
	if body == nil || len(body.List) != 1 {
		return false
	}
	ret, ok := body.List[0].(*ast.ReturnStmt)
	if !ok {
		return false
	}
	for _, e := range ret.Results {
		if !r.readsOnly(e, polls, depth+1) {
			return false
		}
	}
	return true
}

// funcBody returns the body of fn, a function of the package, if its
// declaration is among the package's files (r.decls).
func (r *rewriter) funcBody(fn *types.Func) *ast.BlockStmt {
	if d := r.decls[fn]; d != nil {
		return d.Body
	}
	return nil
}

// funcDecls returns the function declarations of files, by function.
func funcDecls(files []*ast.File, info *types.Info) map[types.Object]*ast.FuncDecl {
	decls := map[types.Object]*ast.FuncDecl{}
	for _, f := range files {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil {
				if obj := info.Defs[fd.Name]; obj != nil {
					decls[obj] = fd
				}
			}
		}
	}
	return decls
}
