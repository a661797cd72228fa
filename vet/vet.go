// This file implements the analyzer: it finds the bodies and reports what
// inside them weft cannot see.

package vet

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/inspect"
	"golang.org/x/tools/go/ast/inspector"
)

// weftPath is the import path of package weft.
const weftPath = "github.com/weft-go/weft"

// Analyzer reports, inside weft test bodies, go statements, operations on
// Go channels, uses of sync, sync/atomic and real time, and plain
// variables written by a thread and shared with other code of the body.
var Analyzer = &analysis.Analyzer{
	Name:     "weft",
	Doc:      "report code in weft test bodies that weft cannot schedule or see: go statements, Go channels, sync, sync/atomic, time.Sleep, and plain variables shared with a thread",
	URL:      "https://pkg.go.dev/github.com/weft-go/weft/vet",
	Requires: []*analysis.Analyzer{inspect.Analyzer},
	Run:      run,
}

// realTime are the functions of package time that wait for or schedule on
// real time, with weft's replacement.
var realTime = map[string]string{
	"Sleep":     "w.Sleep",
	"After":     "w.After",
	"Tick":      "w.After in a loop",
	"NewTimer":  "weft.NewTimer",
	"NewTicker": "weft.NewTimer",
	"AfterFunc": "weft.NewTimer and a thread",
}

func run(pass *analysis.Pass) (any, error) {
	ins := pass.ResultOf[inspect.Analyzer].(*inspector.Inspector)
	c := &checker{pass: pass, seen: map[ast.Node]bool{}}
	filter := []ast.Node{(*ast.FuncDecl)(nil), (*ast.FuncLit)(nil)}
	ins.Preorder(filter, func(n ast.Node) {
		var typ *ast.FuncType
		var body *ast.BlockStmt
		switch f := n.(type) {
		case *ast.FuncDecl:
			typ, body = f.Type, f.Body
		case *ast.FuncLit:
			typ, body = f.Type, f.Body
		}
		if body == nil || c.seen[body] || !c.takesT(typ) {
			return
		}
		c.body(body)
	})
	return nil, nil
}

// checker checks the bodies of one package.
type checker struct {
	pass *analysis.Pass
	// seen holds the bodies checked, and every function body inside them,
	// so that a body nested in another is checked once.
	seen map[ast.Node]bool
}

// takesT reports whether a function of type typ has a *weft.T parameter.
func (c *checker) takesT(typ *ast.FuncType) bool {
	for _, f := range typ.Params.List {
		if isWeft(c.pass.TypesInfo.TypeOf(f.Type), "T", true) {
			return true
		}
	}
	return false
}

// isWeft reports whether t is weft's type name (a pointer to it if ptr).
func isWeft(t types.Type, name string, ptr bool) bool {
	if ptr {
		p, ok := t.(*types.Pointer)
		if !ok {
			return false
		}
		t = p.Elem()
	}
	n, ok := types.Unalias(t).(*types.Named)
	if !ok {
		return false
	}
	o := n.Obj()
	return o.Pkg() != nil && o.Pkg().Path() == weftPath && o.Name() == name
}

// body checks the statements of a test body.
func (c *checker) body(body *ast.BlockStmt) {
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			c.seen[n.Body] = true
		case *ast.GoStmt:
			c.pass.Reportf(n.Go, "go statement in a weft test body: weft does not schedule or see the goroutine; start it with w.Go (or weft.Go, WaitGroup.Go)")
		case *ast.SendStmt:
			if c.isChan(n.Chan) {
				c.pass.Reportf(n.Arrow, "send on a Go channel in a weft test body: weft does not see it; use a weft.Chan")
			}
		case *ast.UnaryExpr:
			if n.Op == token.ARROW && c.isChan(n.X) {
				c.pass.Reportf(n.OpPos, "receive from a Go channel in a weft test body: weft does not see it; use a weft.Chan")
			}
		case *ast.SelectStmt:
			c.pass.Reportf(n.Select, "select over Go channels in a weft test body: weft does not see it; use weft.Select")
			return c.selectBodies(n)
		case *ast.RangeStmt:
			if c.isChan(n.X) {
				c.pass.Reportf(n.For, "range over a Go channel in a weft test body: weft does not see it; use a weft.Chan and range over its All()")
			}
		case *ast.CallExpr:
			c.call(n)
		case *ast.Ident:
			c.ident(n)
		}
		return true
	})
	c.shared(body)
}

// selectBodies checks the statements of a select's cases but not their
// communications, reported with the select.
func (c *checker) selectBodies(s *ast.SelectStmt) bool {
	for _, cl := range s.Body.List {
		for _, st := range cl.(*ast.CommClause).Body {
			c.body(&ast.BlockStmt{List: []ast.Stmt{st}})
		}
	}
	return false
}

// isChan reports whether e is a Go channel.
func (c *checker) isChan(e ast.Expr) bool {
	t := c.pass.TypesInfo.TypeOf(e)
	if t == nil {
		return false
	}
	_, ok := t.Underlying().(*types.Chan)
	return ok
}

// call reports close of a Go channel and the functions of real time.
func (c *checker) call(call *ast.CallExpr) {
	switch fn := ast.Unparen(call.Fun).(type) {
	case *ast.Ident:
		if b, ok := c.pass.TypesInfo.Uses[fn].(*types.Builtin); ok && b.Name() == "close" && len(call.Args) == 1 && c.isChan(call.Args[0]) {
			c.pass.Reportf(call.Lparen, "close of a Go channel in a weft test body: weft does not see it; use a weft.Chan")
		}
	case *ast.SelectorExpr:
		f, ok := c.pass.TypesInfo.Uses[fn.Sel].(*types.Func)
		if !ok || f.Pkg() == nil || f.Pkg().Path() != "time" {
			return
		}
		if alt, ok := realTime[f.Name()]; ok && f.Signature().Recv() == nil {
			c.pass.Reportf(fn.Sel.Pos(), "time.%s in a weft test body waits on real time, which weft does not control; use %s", f.Name(), alt)
		}
	}
}

// ident reports a use of package sync or sync/atomic.
func (c *checker) ident(id *ast.Ident) {
	o := c.pass.TypesInfo.Uses[id]
	if o == nil || o.Pkg() == nil {
		return
	}
	name := o.Pkg().Name() + "." + o.Name()
	if f, ok := o.(*types.Func); ok {
		name = f.FullName()
	}
	switch o.Pkg().Path() {
	case "sync":
		c.pass.Reportf(id.Pos(), "%s in a weft test body: weft does not see it; use weft's primitives (weft.Mutex, RWMutex, WaitGroup, Once, Cond)", name)
	case "sync/atomic":
		c.pass.Reportf(id.Pos(), "%s in a weft test body: weft does not see it; use weft.Var or weft.Int", name)
	}
}

// shared reports the writes, in a function literal the body starts as a
// thread, of variables captured from outside it that code outside it
// uses too.
func (c *checker) shared(body *ast.BlockStmt) {
	var threads []*ast.FuncLit
	ast.Inspect(body, func(n ast.Node) bool {
		if call, ok := n.(*ast.CallExpr); ok && c.startsThread(call) {
			for _, a := range call.Args {
				if lit, ok := ast.Unparen(a).(*ast.FuncLit); ok {
					threads = append(threads, lit)
				}
			}
		}
		return true
	})
	for _, lit := range threads {
		inside := func(p token.Pos) bool { return lit.Pos() <= p && p < lit.End() }
		for id, w := range c.writes(lit) {
			v, ok := c.pass.TypesInfo.Uses[id].(*types.Var)
			if !ok || inside(v.Pos()) || !c.usedOutside(body, v, inside) {
				continue
			}
			c.pass.Reportf(w, "%s is written by a thread started with Go and used outside it: weft does not see plain variables, so it misses the interleavings of these accesses; make it a weft.Var", id.Name)
		}
	}
}

// startsThread reports whether call starts a thread: w.Go, weft.Go or a
// weft.WaitGroup's Go.
func (c *checker) startsThread(call *ast.CallExpr) bool {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != "Go" {
		return false
	}
	f, ok := c.pass.TypesInfo.Uses[sel.Sel].(*types.Func)
	if !ok || f.Pkg() == nil || f.Pkg().Path() != weftPath {
		return false
	}
	recv := f.Signature().Recv()
	return recv == nil || isWeft(recv.Type(), "T", true) || isWeft(recv.Type(), "WaitGroup", true)
}

// writes returns the identifiers lit assigns to (the variable of an
// assignment, an increment, or of the field, element or pointee it
// assigns), with the position of each write, declarations aside.
func (c *checker) writes(lit *ast.FuncLit) map[*ast.Ident]token.Pos {
	out := map[*ast.Ident]token.Pos{}
	add := func(e ast.Expr, pos token.Pos) {
		if id := root(e); id != nil && id.Name != "_" {
			out[id] = pos
		}
	}
	ast.Inspect(lit.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			if n.Tok == token.DEFINE {
				return true
			}
			for _, l := range n.Lhs {
				add(l, n.TokPos)
			}
		case *ast.IncDecStmt:
			add(n.X, n.TokPos)
		}
		return true
	})
	return out
}

// root returns the variable an assignment to e writes: e itself, or the
// operand of a field, an element or a pointer it selects; nil if none.
func root(e ast.Expr) *ast.Ident {
	for {
		switch x := ast.Unparen(e).(type) {
		case *ast.Ident:
			return x
		case *ast.SelectorExpr:
			e = x.X
		case *ast.IndexExpr:
			e = x.X
		case *ast.StarExpr:
			e = x.X
		default:
			return nil
		}
	}
}

// usedOutside reports whether body uses v at a position where inside is
// false.
func (c *checker) usedOutside(body *ast.BlockStmt, v *types.Var, inside func(token.Pos) bool) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && !found && !inside(id.Pos()) && c.pass.TypesInfo.Uses[id] == v {
			found = true
		}
		return !found
	})
	return found
}
