// This file implements the names of objects in reports: the expression a
// channel operation or a method of a sync type is applied to, which the
// rewritten code hands to the stand-ins (std/rt.Of's name,
// std/sync's WeftName) so that a report reads "lock p.mu", not
// "lock mutex#1".

package rewrite

import (
	"go/ast"
	"go/token"
	"go/types"
	"strconv"
)

// maxName is the length of the longest expression used as a name: a
// longer one (a call with arguments, a conversion) names nothing.
const maxName = 40

// exprName returns the text of e that names the object it denotes in
// reports ("s.jobs", "stop", "p.locks[i]"), or "" if e is longer than
// maxName or holds a function or composite literal.
func exprName(e ast.Expr) string {
	e = ast.Unparen(e)
	lit := false
	ast.Inspect(e, func(n ast.Node) bool {
		switch n.(type) {
		case *ast.FuncLit, *ast.CompositeLit:
			lit = true
		}
		return !lit
	})
	if lit {
		return ""
	}
	s := types.ExprString(e)
	if len(s) > maxName {
		return ""
	}
	return s
}

// namedSync are the types of package sync whose stand-ins take a name
// (WeftName).
var namedSync = map[string]bool{
	"Mutex": true, "RWMutex": true, "WaitGroup": true, "Once": true, "Cond": true, "Map": true, "Pool": true,
}

// namedAtomic are the types of package sync/atomic whose stand-ins take a
// name (WeftName).
var namedAtomic = map[string]bool{
	"Bool": true, "Int32": true, "Int64": true, "Uint32": true, "Uint64": true, "Uintptr": true, "Pointer": true, "Value": true,
}

// atomicWord names, in reports, the word a call of fn, one of package
// sync/atomic's functions, is applied to: atomic.AddInt64(&n, 1) becomes
// atomic.AddInt64(atomic.WeftWord("n", &n), 1), and a pointer p given as
// the address names the word "*p".
func (r *rewriter) atomicWord(call *ast.CallExpr, sel *ast.SelectorExpr, fn *types.Func) {
	sig := fn.Type().(*types.Signature)
	if sig.Recv() != nil || sig.Params().Len() == 0 || len(call.Args) == 0 {
		return
	}
	if _, ok := sig.Params().At(0).Type().(*types.Pointer); !ok {
		return
	}
	pkg, ok := sel.X.(*ast.Ident)
	if !ok {
		return
	}
	arg := call.Args[0]
	name := ""
	if u, ok := ast.Unparen(arg).(*ast.UnaryExpr); ok && u.Op == token.AND {
		name = exprName(u.X)
	} else if n := exprName(arg); n != "" {
		name = "*" + n
	}
	if name == "" {
		return
	}
	r.replace(arg.Pos(), arg.Pos(), pkg.Name+".WeftWord("+strconv.Quote(name)+", ")
	r.insert(r.off(arg.End()), ")", true)
}

// syncName names, in reports, the object a call of fn, a method of one of
// package sync's or sync/atomic's types, is applied to (sel.X): x.Lock() becomes
// x.WeftName("x").Lock(), and, for a method promoted from an embedded
// field, c.Lock() becomes c.Mutex.WeftName("c").Lock(). A path through an
// unexported field of another package names nothing.
func (r *rewriter) syncName(sel *ast.SelectorExpr, fn *types.Func) {
	recv := fn.Type().(*types.Signature).Recv()
	if recv == nil {
		return
	}
	t := recv.Type()
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	named, ok := t.(*types.Named)
	if !ok {
		return
	}
	set := namedSync
	if fn.Pkg().Path() == "sync/atomic" {
		set = namedAtomic
	}
	if !set[named.Obj().Name()] {
		return
	}
	s := r.info.Selections[sel]
	if s == nil || s.Kind() != types.MethodVal {
		return
	}
	name := exprName(sel.X)
	if name == "" {
		return
	}
	path := ""
	typ := s.Recv()
	idx := s.Index()
	for _, i := range idx[:len(idx)-1] {
		if p, ok := typ.Underlying().(*types.Pointer); ok {
			typ = p.Elem()
		}
		st, ok := typ.Underlying().(*types.Struct)
		if !ok {
			return
		}
		f := st.Field(i)
		if !f.Exported() && (f.Pkg() == nil || f.Pkg().Name() != r.file.Name.Name) {
			return
		}
		path += "." + f.Name()
		typ = f.Type()
	}
	r.insert(r.off(sel.X.End()), path+".WeftName("+strconv.Quote(name)+")", false)
}

// markAssigned notes, if v is a call, that it is the value assigned to
// lhs, which names its result (timerName), if lhs is short enough to
// name it (exprName).
func (r *rewriter) markAssigned(v, lhs ast.Expr) {
	if call, ok := ast.Unparen(v).(*ast.CallExpr); ok {
		if id, ok := lhs.(*ast.Ident); !ok || id.Name != "_" {
			r.assigned[call] = exprName(lhs)
		}
	}
}

// timerMakers are the functions of package time that make a timer or a
// ticker, which reports name (timerName).
var timerMakers = map[string]bool{"NewTimer": true, "After": true, "AfterFunc": true, "NewTicker": true, "Tick": true}

// timerName names, in reports, the timer or ticker a call of fn, one of
// package time's timerMakers, makes: after the variable it is assigned to
// (t := time.NewTimer(d) becomes t := time.WeftName("t").NewTimer(d)),
// or after the call itself (<-time.After(d) becomes
// <-time.WeftName("time.After(d)").After(d)).
func (r *rewriter) timerName(call *ast.CallExpr, sel *ast.SelectorExpr, fn *types.Func) {
	if !timerMakers[fn.Name()] || fn.Type().(*types.Signature).Recv() != nil {
		return
	}
	pkg, ok := sel.X.(*ast.Ident)
	if !ok {
		return
	}
	if _, ok := r.info.Uses[pkg].(*types.PkgName); !ok {
		return
	}
	name := r.assigned[call]
	if name == "" {
		name = exprName(call)
	}
	if name == "" {
		return
	}
	r.insert(r.off(pkg.End()), ".WeftName("+strconv.Quote(name)+")", false)
}
