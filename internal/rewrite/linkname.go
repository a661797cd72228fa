// This file gives a body to a function a package declares with
// //go:linkname to the runtime's cheap random numbers, so that every
// execution draws the same ones.

package rewrite

import (
	"go/ast"
	"go/types"
	"strings"
)

// runtimeRands maps the runtime's random functions that packages reach
// through go:linkname to the std/rt function that stands in for each, by
// the number of bits of its result.
var runtimeRands = map[string]string{
	"runtime.cheaprand":   "CheapRand",
	"runtime.fastrand":    "CheapRand",
	"runtime.cheaprand64": "CheapRand64",
	"runtime.fastrand64":  "CheapRand64",
}

// linknamedRand gives fn, a function declared without a body, the body
// weftrt.CheapRand() (or CheapRand64) if a //go:linkname directive in its
// comment makes it one of runtimeRands, of no parameters and the result
// it has, and blanks that directive and a //go:noescape one, which a
// function with a body may not have (puzpuzpuz/xsync's
// runtime_cheaprand, with which its Counter and RBMutex pick a stripe,
// gave other numbers in each execution, which weft reported as a test
// that is not deterministic). It reports whether it did.
func (r *rewriter) linknamedRand(fn *ast.FuncDecl) bool {
	if fn.Body != nil || fn.Doc == nil {
		return false
	}
	var link *ast.Comment
	stand := ""
	for _, c := range fn.Doc.List {
		f := strings.Fields(c.Text)
		if len(f) == 3 && f[0] == "//go:linkname" && f[1] == fn.Name.Name && runtimeRands[f[2]] != "" {
			link, stand = c, runtimeRands[f[2]]
		}
	}
	if link == nil {
		return false
	}
	sig, ok := r.info.Defs[fn.Name].Type().(*types.Signature)
	if !ok || sig.Params().Len() != 0 || sig.Results().Len() != 1 {
		return false
	}
	want := types.Typ[types.Uint32]
	if stand == "CheapRand64" {
		want = types.Typ[types.Uint64]
	}
	if !types.Identical(sig.Results().At(0).Type(), want) {
		return false
	}
	for _, c := range fn.Doc.List {
		if c == link || strings.TrimSpace(c.Text) == "//go:noescape" {
			r.replace(c.Pos(), c.End(), "//")
		}
	}
	r.usesRT = true
	r.insert(r.off(fn.Type.End()), " { return "+rtName+"."+stand+"() }", true)
	return true
}
