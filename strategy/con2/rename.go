// This file implements the renaming of read symbols: from the runtime's
// names (one per step of an execution) to the forest's positional ones.

package con2

import (
	"github.com/weft-go/weft/solver"
	"github.com/weft-go/weft/trace"
)

// renamer rewrites expressions of one execution: each variable named
// trace.ReadSymbol(i) becomes the positional symbol of step i's node.
type renamer struct {
	sym  map[int]solver.Expr // step -> positional symbol
	memo map[solver.Expr]solver.Expr
}

func (r *renamer) reset() {
	clear(r.sym)
	clear(r.memo)
	if r.sym == nil {
		r.sym, r.memo = map[int]solver.Expr{}, map[solver.Expr]solver.Expr{}
	}
}

// rename returns e with the read symbols renamed; an invalid e stays so.
// A read symbol of a step with no node yet (which cannot happen in a
// trace, whose reads come before their uses) is kept.
func (r *renamer) rename(e solver.Expr) solver.Expr {
	if !e.IsValid() {
		return e
	}
	if v, ok := r.memo[e]; ok {
		return v
	}
	var out solver.Expr
	switch e.Op() {
	case solver.OpConst:
		out = e
	case solver.OpVar:
		out = e
		if i, ok := trace.ReadStep(e.Name()); ok {
			if s, ok := r.sym[i]; ok {
				out = s
			}
		}
	default:
		args := make([]solver.Expr, e.NumArgs())
		same := true
		for i := range args {
			args[i] = r.rename(e.Arg(i))
			same = same && args[i] == e.Arg(i)
		}
		out = e
		if !same {
			out = solver.Rebuild(e, args)
		}
	}
	r.memo[e] = out
	return out
}
