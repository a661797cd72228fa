// This file implements File: the walk over a file's syntax tree that
// collects the edits of its channel operations, go statements, imports
// and Test functions.

package rewrite

import (
	"errors"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strconv"
	"strings"
)

// The import paths of weft's stand-in packages, and the name the rewritten
// file gives std/rt.
const (
	RTPath      = "github.com/weft-go/weft/std/rt"
	SyncPath    = "github.com/weft-go/weft/std/sync"
	AtomicPath  = "github.com/weft-go/weft/std/sync/atomic"
	RandPath    = "github.com/weft-go/weft/std/math/rand"
	RandV2Path  = "github.com/weft-go/weft/std/math/rand/v2"
	TimePath    = "github.com/weft-go/weft/std/time"
	ContextPath = "github.com/weft-go/weft/std/context"
	MaphashPath = "github.com/weft-go/weft/std/hash/maphash"
	rtName      = "weftrt"
)

// standIns maps the import paths the rewriting redirects to their
// stand-ins.
var standIns = map[string]string{
	"sync":         SyncPath,
	"sync/atomic":  AtomicPath,
	"math/rand":    RandPath,
	"math/rand/v2": RandV2Path,
	"time":         TimePath,
	"context":      ContextPath,
	"hash/maphash": MaphashPath,
}

// ErrUnsupported is wrapped by the errors of constructs the rewriting
// refuses.
var ErrUnsupported = errors.New("not supported by weft test")

// rewriter holds the state of one file's rewriting.
type rewriter struct {
	fset   *token.FileSet
	file   *ast.File
	tf     *token.File
	src    []byte
	info   *types.Info
	edits  edits
	depth  int
	usesRT bool
	// commaOK marks the receives whose two results are used.
	commaOK map[*ast.UnaryExpr]bool
	errs    []error
	// groups are the package's functions that call t.Run (groupFuncs).
	groups map[types.Object]bool
	// explorers are the package's functions that run an exploration of
	// weft's (explorerFuncs).
	explorers map[types.Object]bool
	// ctx says how the code being walked runs, test names the Test
	// function or subtest whose body it is.
	ctx  context
	test string
	// hoisted marks the t.Parallel() calls left before weftrt.Test.
	hoisted map[*ast.CallExpr]bool
	// version is the Go version the file compiles at (go1.N).
	version string
	// directives is the comment of the Test function being entered, whose
	// directives (directives.go) testOpts holds, as the arguments they
	// add to the calls of weftrt.Test of the function and its subtests.
	directives *ast.CommentGroup
	testOpts   string
	// real reports whether a package is one weft test does not rewrite;
	// made marks the calls of such packages' functions wrapped already.
	real func(path string) bool
	made map[*ast.CallExpr]bool
	// refusedAt marks the operands whose channel operation is refused
	// already (typeParamChan): one error each.
	refusedAt map[token.Pos]bool
	// assigned holds, for a call that is the value assigned to a
	// variable (x := f(), s.t = f()), the name of the variable
	// (timerName).
	assigned map[*ast.CallExpr]string
	// decls are the function declarations of the package's files
	// (funcDecls), for the polling loops' calls (turns.go).
	decls map[types.Object]*ast.FuncDecl
}

// File returns the rewritten source of file (parsed from src into fset,
// with info holding its Types, Uses, Defs and FileVersions), or nil if the
// file needs no rewriting.
func File(fset *token.FileSet, file *ast.File, src []byte, info *types.Info) ([]byte, error) {
	files := []*ast.File{file}
	return rewriteFile(fset, file, src, info, pkgFuncs{groupFuncs(files, info), explorerFuncs(files, info), funcDecls(files, info)}, info.FileVersions[file], stdPackage)
}

// stdPackage reports whether path is a package of the standard library's
// that weft test does not rewrite nor stand in for.
func stdPackage(path string) bool {
	first, _, _ := strings.Cut(path, "/")
	return !strings.Contains(first, ".") && standIns[path] == "" && path != "testing"
}

// pkgFuncs are the functions of a package that rewriteFile needs to know
// of: groupFuncs's, explorerFuncs's and funcDecls's.
type pkgFuncs struct {
	groups, explorers map[types.Object]bool
	decls             map[types.Object]*ast.FuncDecl
}

// rewriteFile is File, with funcs.groups the functions of file's package that
// call t.Run (groupFuncs of all its files), explorers those that run an
// exploration of weft's (explorerFuncs), version the Go version the
// file compiles at, and real whether a package is one weft test does not
// rewrite (the standard library's, a module's kept real).
func rewriteFile(fset *token.FileSet, file *ast.File, src []byte, info *types.Info, funcs pkgFuncs, version string, real func(path string) bool) ([]byte, error) {
	r := &rewriter{fset: fset, file: file, tf: fset.File(file.Pos()), src: src, info: info,
		commaOK: map[*ast.UnaryExpr]bool{}, groups: funcs.groups, explorers: funcs.explorers, decls: funcs.decls, hoisted: map[*ast.CallExpr]bool{}, version: version,
		refusedAt: map[token.Pos]bool{}, real: real, made: map[*ast.CallExpr]bool{}, assigned: map[*ast.CallExpr]string{}}
	if r.tf == nil || r.tf.Size() != len(src) {
		return nil, fmt.Errorf("rewrite: the source of %s does not match its syntax tree", fset.Position(file.Pos()).Filename)
	}
	r.imports()
	r.inspect(file)
	if len(r.errs) > 0 {
		return nil, errors.Join(r.errs...)
	}
	if len(r.edits) == 0 {
		return nil, nil
	}
	if r.usesRT {
		// After the package clause, on its line, so that no line moves.
		r.insert(int(r.off(file.Name.End())), fmt.Sprintf("; import %s %q", rtName, RTPath), false)
	}
	out, err := r.edits.apply(src, 0, len(src))
	if err != nil {
		return nil, fmt.Errorf("rewrite %s: %w", r.tf.Name(), err)
	}
	return []byte(out), nil
}

// off returns the byte offset of p.
func (r *rewriter) off(p token.Pos) int { return r.tf.Offset(p) }

// errorf records an error at p.
func (r *rewriter) errorf(p token.Pos, format string, args ...any) {
	r.errs = append(r.errs, fmt.Errorf("%s: %s: %w", r.fset.Position(p), fmt.Sprintf(format, args...), ErrUnsupported))
}

// replace records the replacement of [from, to) with text.
func (r *rewriter) replace(from, to token.Pos, text string) {
	r.edits = append(r.edits, edit{pos: r.off(from), end: r.off(to), text: text, depth: r.depth})
}

// insert records an insertion at offset o.
func (r *rewriter) insert(o int, text string, closes bool) {
	r.edits = append(r.edits, edit{pos: o, end: o, text: text, depth: r.depth, closes: closes})
}

// text returns the source of n with the edits inside it applied, and drops
// those edits: n moves elsewhere in the output.
func (r *rewriter) text(n ast.Node) string {
	lo, hi := r.off(n.Pos()), r.off(n.End())
	r.inspect(n)
	s, err := r.edits.apply(r.src, lo, hi)
	if err != nil {
		r.errs = append(r.errs, err)
	}
	r.edits = r.edits.without(lo, hi)
	return s
}

// imports redirects the imports of sync, sync/atomic, math/rand,
// math/rand/v2, time and context to the stand-ins.
func (r *rewriter) imports() {
	for _, spec := range r.file.Imports {
		path, err := strconv.Unquote(spec.Path.Value)
		if err != nil {
			continue
		}
		to := standIns[path]
		if to == "" {
			continue
		}
		r.replace(spec.Path.Pos(), spec.Path.End(), strconv.Quote(to))
	}
}

// inspect walks n and records the edits of what it finds.
func (r *rewriter) inspect(n ast.Node) {
	ast.Inspect(n, func(n ast.Node) bool {
		if n == nil {
			r.depth--
			return false
		}
		r.depth++
		descend := r.node(n)
		if !descend {
			r.depth--
		}
		return descend
	})
}

// node records the edits of n and reports whether the walk should descend
// into it (a node that walks its children itself says no).
func (r *rewriter) node(n ast.Node) bool {
	switch n := n.(type) {
	case *ast.FuncDecl:
		r.ctx, r.test = ctxNone, ""
		if n.Body == nil {
			r.linknamedRand(n)
			return false
		}
		if r.refusedBody(n.Body) {
			return false
		}
		if !r.testFunc(n) {
			r.exampleFunc(n)
			from := len(r.errs)
			r.inspect(n.Body)
			r.refuse(n.Body, from, rtName+".Unsupported(")
		}
		return false
	case *ast.FuncLit:
		if r.ctx == ctxGroup {
			// A function literal of a group's body may be called from its
			// subtests: its code is not refused.
			r.ctx = ctxNone
			r.inspect(n.Body)
			r.ctx = ctxGroup
			return false
		}
	case *ast.AssignStmt:
		if len(n.Lhs) == 2 && len(n.Rhs) == 1 {
			r.markCommaOK(n.Rhs[0])
		}
		if len(n.Lhs) == len(n.Rhs) {
			for i, v := range n.Rhs {
				r.markAssigned(v, n.Lhs[i])
			}
		}
	case *ast.ArrayType:
		if n.Len != nil {
			r.originalSizes(n.Len)
		}
	case *ast.ValueSpec:
		if len(n.Names) > 0 {
			if _, ok := r.info.Defs[n.Names[0]].(*types.Const); ok {
				for _, v := range n.Values {
					r.originalSizes(v)
				}
			}
		}
		if len(n.Names) == 2 && len(n.Values) == 1 {
			r.markCommaOK(n.Values[0])
		}
		if len(n.Names) == len(n.Values) {
			for i, v := range n.Values {
				r.markAssigned(v, n.Names[i])
			}
		}
	case *ast.SendStmt:
		if r.refused(n.Pos(), "a send") {
			return false
		}
		r.usesRT = true
		r.replace(n.Chan.Pos(), n.Chan.Pos(), rtName+"."+r.of(n.Chan))
		r.replace(n.Chan.End(), n.Value.Pos(), ").Send(")
		r.insert(r.off(n.Value.End()), ")", true)
	case *ast.UnaryExpr:
		if n.Op == token.ARROW && !r.refused(n.Pos(), "a receive") {
			r.usesRT = true
			r.replace(n.OpPos, n.X.Pos(), rtName+"."+r.of(n.X))
			recv := ").Recv()"
			if r.commaOK[n] {
				recv = ").RecvOK()"
			}
			r.insert(r.off(n.X.End()), recv, true)
		}
	case *ast.ExprStmt:
		r.addOnly(n)
	case *ast.BlockStmt:
		r.helperCalls(n.List)
	case *ast.CaseClause:
		r.helperCalls(n.Body)
	case *ast.CommClause:
		r.helperCalls(n.Body)
	case *ast.CallExpr:
		if r.testFile() && r.keepSize(n) {
			return false
		}
		return r.call(n)
	case *ast.SelectorExpr:
		// A method of sync's or sync/atomic's types, called or a method
		// value: named in reports.
		if fn, ok := r.info.Uses[n.Sel].(*types.Func); ok && fn.Pkg() != nil {
			if p := fn.Pkg().Path(); p == "sync" || p == "sync/atomic" {
				r.syncName(n, fn)
			}
		}
	case *ast.RangeStmt:
		return r.rangeStmt(n)
	case *ast.ForStmt:
		r.spinLoop(n)
		r.turnLoop(n)
	case *ast.GoStmt:
		if !r.refused(n.Pos(), "a go statement") {
			r.goStmt(n)
		}
		return false
	case *ast.DeferStmt:
		// Around a group's subtests, code runs as plain Go.
		if r.ctx != ctxGroup && r.deferStmt(n) {
			return false
		}
	case *ast.SelectStmt:
		if !r.refused(n.Pos(), "a select statement") {
			r.selectStmt(n)
		}
		return false
	}
	return true
}

// atomicAdds are sync/atomic's adds: the functions, and the method Add of
// these types.
var atomicAdds = map[string]bool{
	"AddInt32": true, "AddInt64": true, "AddUint32": true, "AddUint64": true, "AddUintptr": true,
	"Int32": true, "Int64": true, "Uint32": true, "Uint64": true, "Uintptr": true,
}

// addOnly rewrites a statement that is a call of one of sync/atomic's adds,
// whose result is then discarded, to the stand-in's AddOnly: the method
// AddOnly for x.Add(d), the function AddOnlyInt64 (and so on) for
// atomic.AddInt64(p, d). Such adds commute with each other.
func (r *rewriter) addOnly(n *ast.ExprStmt) {
	call, ok := ast.Unparen(n.X).(*ast.CallExpr)
	if !ok {
		return
	}
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return
	}
	fn, ok := r.info.Uses[sel.Sel].(*types.Func)
	if !ok || fn.Pkg() == nil || fn.Pkg().Path() != "sync/atomic" {
		return
	}
	recv := fn.Type().(*types.Signature).Recv()
	switch {
	case recv == nil && atomicAdds[fn.Name()]:
		r.replace(sel.Sel.Pos(), sel.Sel.End(), "AddOnly"+strings.TrimPrefix(fn.Name(), "Add"))
	case recv != nil && fn.Name() == "Add":
		t := recv.Type()
		if p, ok := t.(*types.Pointer); ok {
			t = p.Elem()
		}
		if named, ok := t.(*types.Named); ok && atomicAdds[named.Obj().Name()] {
			r.replace(sel.Sel.Pos(), sel.Sel.End(), "AddOnly")
		}
	}
}

// markCommaOK marks e, if it is a receive, as one whose ok result is used.
func (r *rewriter) markCommaOK(e ast.Expr) {
	if u, ok := ast.Unparen(e).(*ast.UnaryExpr); ok && u.Op == token.ARROW {
		r.commaOK[u] = true
	}
}

// chanType returns the channel type of e, or nil; a value of a type
// parameter's type whose type set holds a channel type is refused
// (typeParamChan) and nil.
func (r *rewriter) chanType(e ast.Expr) *types.Chan {
	t := r.info.TypeOf(e)
	if t == nil {
		return nil
	}
	if r.typeParamChan(e, t) {
		return nil
	}
	c, _ := t.Underlying().(*types.Chan)
	return c
}

// typeParamChan reports whether t, the type of e, is a type parameter
// whose type set holds a channel type, and refuses the channel operation
// on e then: weft test maps a channel to weft's by the channel's type.
func (r *rewriter) typeParamChan(e ast.Expr, t types.Type) bool {
	tp, ok := t.(*types.TypeParam)
	if !ok {
		return false
	}
	iface, ok := tp.Constraint().Underlying().(*types.Interface)
	if !ok {
		return false
	}
	for i := range iface.NumEmbeddeds() {
		var terms []types.Type
		switch x := iface.EmbeddedType(i).(type) {
		case *types.Union:
			for j := range x.Len() {
				terms = append(terms, x.Term(j).Type())
			}
		default:
			terms = append(terms, x)
		}
		for _, term := range terms {
			if _, isChan := term.Underlying().(*types.Chan); isChan {
				if !r.refusedAt[e.Pos()] {
					r.refusedAt[e.Pos()] = true
					r.errorf(e.Pos(), "a channel operation on %s, whose type %s is a type parameter: weft test rewrites the operations of channel types only; give %s a channel type (chan T, with T a type parameter if need be)", types.ExprString(e), tp, types.ExprString(e))
				}
				return true
			}
		}
	}
	return false
}

// of returns the start of the call of std/rt that makes the handle of
// channel e, up to e: Of, OfSend or OfRecv, its parenthesis and the name of
// the channel in reports, e's text (exprName), as in `Of("s.jobs", `.
func (r *rewriter) of(e ast.Expr) string {
	return r.ofFunc(e) + "(" + strconv.Quote(exprName(e)) + ", "
}

// ofFunc returns the function of std/rt that makes the handle of channel e:
// Of, OfSend or OfRecv.
func (r *rewriter) ofFunc(e ast.Expr) string {
	c := r.chanType(e)
	if c == nil {
		if t := r.info.TypeOf(e); !r.typeParamChan(e, t) {
			r.errorf(e.Pos(), "a channel operation on %s, whose type %v is not a channel type: weft test rewrites the operations of channel types only; give %s a channel type", types.ExprString(e), t, types.ExprString(e))
		}
		return "Of"
	}
	switch c.Dir() {
	case types.SendOnly:
		return "OfSend"
	case types.RecvOnly:
		return "OfRecv"
	}
	return "Of"
}

// builtin returns the name of the builtin function that call calls, or "".
func (r *rewriter) builtin(call *ast.CallExpr) string {
	id, ok := ast.Unparen(call.Fun).(*ast.Ident)
	if !ok {
		return ""
	}
	if b, ok := r.info.Uses[id].(*types.Builtin); ok {
		return b.Name()
	}
	return ""
}

// call records the edits of a call of close or len on a channel, of a
// method of *testing.T, of t.Run and of runtime.Gosched, and refuses
// reflect.Select.
func (r *rewriter) call(call *ast.CallExpr) bool {
	switch r.builtin(call) {
	case "close":
		if r.refused(call.Pos(), "a close") {
			return false
		}
		r.usesRT = true
		r.replace(call.Fun.Pos(), call.Args[0].Pos(), rtName+"."+r.of(call.Args[0]))
		r.replace(call.Args[0].End(), call.Rparen+1, ").Close()")
		return true
	case "len":
		if r.chanType(call.Args[0]) != nil {
			r.usesRT = true
			r.replace(call.Fun.Pos(), call.Args[0].Pos(), rtName+"."+r.of(call.Args[0]))
			r.replace(call.Args[0].End(), call.Rparen+1, ").Len()")
		}
		return true
	case "make":
		r.makeChan(call)
		return true
	}
	if r.rtFunc(call) == "MakeChan" && len(call.Args) == 1 {
		// Rewritten already: its make stays as it is.
		if inner, ok := ast.Unparen(call.Args[0]).(*ast.CallExpr); ok {
			r.made[inner] = true
		}
	}
	if k := isRun(r.info, call); k == testRun || k == weftRun {
		r.runCall(call, k)
		return false
	}
	r.madeOutside(call)
	if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
		if fn, ok := r.info.Uses[sel.Sel].(*types.Func); ok && fn.Pkg() != nil {
			if name := reflectChanOp(fn); name != "" {
				r.errorf(call.Pos(), "%s: its channel operations would run on the Go channel, outside weft's control, and not be steps weft schedules; write them as channel operations of Go (a select with a case per channel, a send, a receive)", name)
			}
			if fn.Pkg().Path() == "testing" {
				r.testingCall(call, sel, fn)
			} else {
				r.anyTestingCall(call, sel, fn)
			}
			if fn.Pkg().Path() == "sync/atomic" {
				r.atomicWord(call, sel, fn)
			}
			if fn.Pkg().Path() == "time" {
				r.timerName(call, sel, fn)
			}
			if name := memoryProbe(fn); name != "" {
				// weftrt.MemoryProbe("runtime.ReadMemStats", runtime.ReadMemStats)(&m)
				r.usesRT = true
				r.replace(call.Fun.Pos(), call.Fun.Pos(), rtName+".MemoryProbe("+strconv.Quote(name)+", ")
				r.replace(call.Fun.End(), call.Fun.End(), ")")
			}
			if fn.Pkg().Path() == "runtime" && (fn.Name() == "Stack" || fn.Name() == "Callers" || fn.Name() == "Caller") {
				// weftrt.Stack(runtime.Stack, buf, all), weftrt.Callers(runtime.Callers, skip, pc),
				// weftrt.Caller(runtime.Caller, skip)
				r.usesRT = true
				r.replace(call.Fun.Pos(), call.Fun.Pos(), rtName+"."+fn.Name()+"(")
				r.replace(call.Fun.End(), call.Lparen+1, ", ")
			}
			if isReflectLen(r.info, sel, fn) {
				r.methodToFunc(call, sel, "ReflectLen")
			}
			if fn.Pkg().Path() == "runtime" && (fn.Name() == "Gosched" || fn.Name() == "NumGoroutine") {
				// weftrt.Gosched(runtime.Gosched), weftrt.NumGoroutine(runtime.NumGoroutine):
				// the import stays used.
				r.usesRT = true
				r.replace(call.Fun.Pos(), call.Fun.Pos(), rtName+"."+fn.Name()+"(")
				r.replace(call.Fun.End(), call.Rparen+1, ")")
			}
		}
	}
	return true
}

// makeChan wraps a make of a channel (weftrt.MakeChan), so that inside an
// execution the channel is known to be the execution's own: a goroutine
// left blocked on a channel the execution did not make (one a
// package-level variable's initialisation made) is blocked outside weft.
// A make of a type parameter's type is left as it is.
func (r *rewriter) makeChan(call *ast.CallExpr) {
	if r.made[call] {
		return
	}
	t := r.info.TypeOf(call)
	if t == nil {
		return
	}
	if _, ok := t.(*types.TypeParam); ok {
		return
	}
	if _, ok := t.Underlying().(*types.Chan); !ok {
		return
	}
	r.usesRT = true
	r.replace(call.Pos(), call.Pos(), rtName+".MakeChan(")
	r.insert(r.off(call.End()), ")", true)
}

// madeOutside wraps a call of a function of a package weft test does not
// rewrite that returns a channel, so that the channel's weft object says
// where it was made (weftrt.Made): a goroutine left blocked on it is
// blocked outside weft, not deadlocked.
func (r *rewriter) madeOutside(call *ast.CallExpr) {
	if r.rtFunc(call) == "Made" && len(call.Args) == 2 {
		// Rewritten already: its call stays as it is.
		if inner, ok := ast.Unparen(call.Args[1]).(*ast.CallExpr); ok {
			r.made[inner] = true
		}
		return
	}
	if r.real == nil || r.made[call] || r.chanType(call) == nil {
		return
	}
	fn := r.calledFunc(call)
	if fn == nil || fn.Pkg() == nil || !r.real(fn.Pkg().Path()) {
		return
	}
	r.usesRT = true
	r.replace(call.Pos(), call.Pos(), rtName+".Made("+strconv.Quote(fn.FullName())+", ")
	r.insert(r.off(call.End()), ")", true)
}

// memoryProbe returns the name of fn ("runtime.ReadMemStats") if it is a
// function of the standard library that measures the memory the program
// allocated, which inside an exploration counts weft's own
// (weftrt.MemoryProbe), or "".
func memoryProbe(fn *types.Func) string {
	if fn.Type().(*types.Signature).Recv() != nil {
		return ""
	}
	switch name := fn.Pkg().Path() + "." + fn.Name(); name {
	case "runtime.ReadMemStats", "testing.AllocsPerRun":
		return name
	}
	return ""
}

// isReflectLen reports whether sel, the function of a call, is the method
// Len of a reflect.Value (not of a pointer to one), which the rewriting
// makes weftrt.ReflectLen(v): the length of a channel that weft models.
func isReflectLen(info *types.Info, sel *ast.SelectorExpr, fn *types.Func) bool {
	if fn.Pkg().Path() != "reflect" || fn.Name() != "Len" {
		return false
	}
	if s := info.Selections[sel]; s == nil || s.Kind() != types.MethodVal {
		return false
	}
	named, ok := info.TypeOf(sel.X).(*types.Named)
	return ok && named.Obj().Pkg() != nil && named.Obj().Pkg().Path() == "reflect" && named.Obj().Name() == "Value"
}

// reflectChanOps are the functions and methods of package reflect that
// operate on a channel.
var reflectChanOps = map[string]bool{
	"Select": true, "Value.Send": true, "Value.Recv": true, "Value.TrySend": true, "Value.TryRecv": true, "Value.Close": true,
}

// reflectChanOp returns the name of fn ("reflect.Select",
// "reflect.Value.Send") if it is a function or method of package reflect
// that operates on a channel, or "".
func reflectChanOp(fn *types.Func) string {
	if fn.Pkg().Path() != "reflect" {
		return ""
	}
	name := fn.Name()
	if recv := fn.Type().(*types.Signature).Recv(); recv != nil {
		t := recv.Type()
		if p, ok := t.(*types.Pointer); ok {
			t = p.Elem()
		}
		named, ok := t.(*types.Named)
		if !ok {
			return ""
		}
		name = named.Obj().Name() + "." + name
	}
	if !reflectChanOps[name] {
		return ""
	}
	return "reflect." + name
}

// rangeStmt rewrites a range over a channel into a range over its values,
// or, in a file whose Go version is older than go1.23, which has no range
// over a function, into a for loop that receives until the channel is
// closed, on the range's line:
//
//	for v := range ch {   for weftR_, v := weftrt.Of(ch).Loop(); ; { weftV_, weftOK_ := weftR_.RecvOK(); if !weftOK_ { break }; v = weftV_;
//	for x.v = range ch {  for weftR_, _ := weftrt.Of(ch).Loop(); ; { weftV_, weftOK_ := weftR_.RecvOK(); if !weftOK_ { break }; x.v = weftV_;
//	for range ch {        for weftR_, _ := weftrt.Of(ch).Loop(); ; { if _, weftOK_ := weftR_.RecvOK(); !weftOK_ { break };
//
// The loop stays a for statement, with the range's label, so that break
// and continue keep their meaning; its variable is one of the for clause,
// which is one for the whole loop before go1.22 and one per iteration from
// go1.22 on, as the range's is, and the receive that finds the channel
// closed assigns it nothing, as the range's end does not.
//
// It reports whether the walk should descend into n (it walks the loop's
// parts itself).
func (r *rewriter) rangeStmt(n *ast.RangeStmt) bool {
	if done, descend := r.mapRange(n); done {
		return descend
	}
	if r.chanType(n.X) == nil || r.refused(n.For, "a range over a channel") {
		return true
	}
	r.usesRT = true
	if v := r.version; v == "" || !versionLess(v, "go1.23") {
		r.replace(n.X.Pos(), n.X.Pos(), rtName+"."+r.of(n.X))
		r.insert(r.off(n.X.End()), ").Range()", true)
		return true
	}
	declared, recv := "_", " if _, weftOK_ := weftR_.RecvOK(); !weftOK_ { break };"
	if n.Key != nil && types.ExprString(n.Key) != "_" {
		target := r.flat(r.text(n.Key), n.Key.Pos(), n.Body.Lbrace, "a range's variable", "range")
		if n.Tok == token.DEFINE {
			declared = target
		}
		recv = " weftV_, weftOK_ := weftR_.RecvOK(); if !weftOK_ { break }; " + target + " = weftV_;"
	}
	r.replace(n.For+token.Pos(len("for")), n.X.Pos(), " weftR_, "+declared+" := "+rtName+"."+r.of(n.X))
	r.replace(n.X.End(), n.Body.Lbrace+1, ").Loop(); ; {"+recv)
	r.inspect(n.X)
	r.inspect(n.Body)
	return false
}

// mapRange rewrites a range over a map with a key or value variable into
// a range over the pairs std/rt's Map visits in an order fixed by the
// execution's seed, and reports whether it did. In a file whose Go
// version has range over functions (go1.23 on) the range stays a range:
//
//	for k, v := range m {   for k, v := range weftrt.Map(m) {
//
// and the walk goes on into it. In an older file it becomes a loop over
// std/rt's MapLoop, whose init statement declares the variables as the
// range did (one for the whole loop before go1.22, one per turn from
// go1.22 on, as a range's):
//
//	for k, v := range m {   for weftM_, k, v := weftrt.MapLoop(m); ; { weftK_, weftV_, weftOK_ := weftM_.Next(); if !weftOK_ { break }; k, v = weftK_, weftV_;
//
// and mapRange walks its parts itself. A range with no variables visits
// as many times in any order, and stays.
func (r *rewriter) mapRange(n *ast.RangeStmt) (done, descend bool) {
	t := r.info.TypeOf(n.X)
	if t == nil || n.Key == nil {
		return false, true
	}
	if _, ok := t.Underlying().(*types.Map); !ok {
		return false, true
	}
	r.usesRT = true
	if v := r.version; v == "" || !versionLess(v, "go1.23") {
		r.replace(n.X.Pos(), n.X.Pos(), rtName+".Map(")
		r.insert(r.off(n.X.End()), ")", true)
		return true, true
	}
	// The variables, or the targets of an assignment, that are not blank.
	blank := func(e ast.Expr) bool { return e == nil || types.ExprString(e) == "_" }
	var targets, values []string
	declared, got := []string{"_", "_"}, []string{"_", "_"}
	for i, e := range []ast.Expr{n.Key, n.Value} {
		if blank(e) {
			continue
		}
		target := r.flat(r.text(e), e.Pos(), n.Body.Lbrace, "a range's variable", "range")
		if n.Tok == token.DEFINE {
			declared[i] = target
		}
		got[i] = [...]string{"weftK_", "weftV_"}[i]
		targets, values = append(targets, target), append(values, got[i])
	}
	next := " " + got[0] + ", " + got[1] + ", weftOK_ := weftM_.Next(); if !weftOK_ { break };"
	if len(targets) > 0 {
		next += " " + strings.Join(targets, ", ") + " = " + strings.Join(values, ", ") + ";"
	}
	r.replace(n.For+token.Pos(len("for")), n.X.Pos(), " weftM_, "+declared[0]+", "+declared[1]+" := "+rtName+".MapLoop(")
	r.replace(n.X.End(), n.Body.Lbrace+1, "); ; {"+next)
	r.inspect(n.X)
	r.inspect(n.Body)
	return true, false
}

// versionLess reports whether Go version a (go1.N or go1.N.M) is older
// than b.
func versionLess(a, b string) bool {
	minor := func(v string) int {
		parts := strings.Split(strings.TrimPrefix(v, "go1."), ".")
		n, _ := strconv.Atoi(parts[0])
		return n
	}
	return minor(a) < minor(b)
}
