// This file keeps the sizes that the program computes from the types weft
// test replaces: unsafe.Sizeof of a struct with a sync.Mutex, in an
// array's length or a constant, and anywhere in a test file, is the size
// it has under go test.

package rewrite

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/types"
	"strings"
)

// originalSizes replaces, in e, a constant expression (an array's length,
// a constant's value), each call of unsafe.Sizeof, Alignof or Offsetof
// whose argument's type holds a type weft test replaces (standInType) by
// the value it has in the original program: weft's stand-ins of sync's
// and sync/atomic's types, and of time's Timer and Ticker, are larger
// than Go's, and padding computed from a size (puzpuzpuz/xsync's
// [cacheLineSize - unsafe.Sizeof(bucket{})]byte, a bucket holding a
// sync.Mutex) went negative, so that the package did not build. Under
// weft test the padding is what it was: the layout it aims at (a cache
// line) does not matter to an exploration, and the memory is the
// rewritten type's, larger than the size used.
func (r *rewriter) originalSizes(e ast.Expr) {
	ast.Inspect(e, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		return !ok || !r.keepSize(call)
	})
}

// keepSize replaces call by the constant it has in the original program
// if it is a call of unsafe.Sizeof, Alignof or Offsetof whose argument's
// type holds a type weft test replaces (standInType), written
// unsafe.Sizeof([16]byte{}) so that the file's import of unsafe stays
// used; it reports whether it did.
func (r *rewriter) keepSize(call *ast.CallExpr) bool {
	if len(call.Args) != 1 {
		return false
	}
	fn := unsafeBuiltin(r.info, call)
	if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != "unsafe" {
		return false
	}
	tv, ok := r.info.Types[call]
	if !ok || tv.Value == nil || tv.Value.Kind() != constant.Int {
		return false
	}
	arg := ast.Unparen(call.Args[0])
	if sel, ok := arg.(*ast.SelectorExpr); ok && fn.Name() == "Offsetof" {
		arg = sel.X // the struct whose field's offset it is
	}
	if !standInType(r.info.TypeOf(arg), map[types.Type]bool{}) {
		return false
	}
	sizeof := "Sizeof"
	if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
		sizeof = r.text(sel.X) + ".Sizeof"
	}
	r.replace(call.Pos(), call.End(), fmt.Sprintf("%s([%s]byte{})", sizeof, tv.Value.ExactString()))
	return true
}

// testFile reports whether the file being rewritten is a test file, whose
// code asserts what go test gives: a size weft's types change there
// (puzpuzpuz/xsync's TestMap_BucketStructSize asserts that a padded
// bucket is 64 bytes) keeps its go test value (keepSize) in every
// expression, where in the package's own files only array lengths and
// constants keep it, since a size used in pointer arithmetic must be the
// memory's.
func (r *rewriter) testFile() bool { return strings.HasSuffix(r.tf.Name(), "_test.go") }

// unsafeBuiltin returns the builtin of package unsafe a call calls
// (unsafe.Sizeof and its kin are *types.Builtin), or nil.
func unsafeBuiltin(info *types.Info, call *ast.CallExpr) *types.Builtin {
	id := calleeIdent(call)
	if id == nil {
		return nil
	}
	b, _ := info.Uses[id].(*types.Builtin)
	return b
}

// standInType reports whether values of type t hold, in place, a value of
// a type weft test replaces by a larger one of its own: a named type of
// sync or sync/atomic, or time's Timer or Ticker, in t itself, its
// fields or its array elements (not behind a pointer, a slice, a map, a
// channel, an interface or a function, whose size does not depend on
// it).
func standInType(t types.Type, seen map[types.Type]bool) bool {
	if t == nil || seen[t] {
		return false
	}
	seen[t] = true
	if named, ok := types.Unalias(t).(*types.Named); ok {
		if obj := named.Obj(); obj.Pkg() != nil {
			switch p := obj.Pkg().Path(); {
			case p == "sync" || p == "sync/atomic":
				return true
			case p == "time" && (obj.Name() == "Timer" || obj.Name() == "Ticker"):
				return true
			}
		}
	}
	switch u := t.Underlying().(type) {
	case *types.Struct:
		for i := range u.NumFields() {
			if standInType(u.Field(i).Type(), seen) {
				return true
			}
		}
	case *types.Array:
		return standInType(u.Elem(), seen)
	}
	return false
}
