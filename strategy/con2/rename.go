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
	return solver.Rewrite(e, r.memo, func(v solver.Expr) solver.Expr {
		if i, ok := trace.ReadStep(v.Name()); ok {
			if s, ok := r.sym[i]; ok {
				return s
			}
		}
		return v
	})
}
