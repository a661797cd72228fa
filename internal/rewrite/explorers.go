// This file implements the tests that make explorations of their own: a
// Test function or subtest whose body calls weft.Check, weft.Explore or
// weft.Replay, directly or through a function of its package, runs
// plainly (weftrt.Plain), not as an exploration of weft test's, since
// explorations do not nest.

package rewrite

import (
	"go/ast"
	"go/types"
)

// WeftPath is the import path of package weft.
const WeftPath = "github.com/weft-go/weft"

// explorationFuncs are the functions of package weft that run an
// exploration.
var explorationFuncs = map[string]bool{"Check": true, "Explore": true, "Replay": true, "NewPartExplorer": true}

// isExploration reports whether call calls a function of package weft that
// runs an exploration.
func isExploration(info *types.Info, call *ast.CallExpr) bool {
	fn, ok := callee(info, call.Fun).(*types.Func)
	return ok && fn.Pkg() != nil && fn.Pkg().Path() == WeftPath && explorationFuncs[fn.Name()] &&
		fn.Type().(*types.Signature).Recv() == nil
}

// explorerFuncs returns the functions declared in files whose bodies run
// an exploration of weft's (isExploration), directly or through a call of
// another such function.
func explorerFuncs(files []*ast.File, info *types.Info) map[types.Object]bool {
	return reaching(files, info, func(call *ast.CallExpr) bool { return isExploration(info, call) })
}

// explores reports whether body runs an exploration of weft's, directly or
// through a function of the package: it then runs plainly.
func (r *rewriter) explores(body *ast.BlockStmt) bool {
	return calls(body, r.info, r.explorers, func(call *ast.CallExpr) bool { return isExploration(r.info, call) })
}
