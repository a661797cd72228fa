// This file implements the renaming of read symbols: from the runtime's
// names (one per step of an execution) to the forest's positional ones.

package con2

import (
	"fmt"

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
			out = rebuild(e, args)
		}
	}
	r.memo[e] = out
	return out
}

// rebuild returns the term of e's operator over args (of e's sorts).
func rebuild(e solver.Expr, a []solver.Expr) solver.Expr {
	switch e.Op() {
	case solver.OpAdd:
		return solver.Add(a[0], a[1])
	case solver.OpSub:
		return solver.Sub(a[0], a[1])
	case solver.OpMul:
		return solver.Mul(a[0], a[1])
	case solver.OpSDiv:
		return solver.SDiv(a[0], a[1])
	case solver.OpUDiv:
		return solver.UDiv(a[0], a[1])
	case solver.OpSRem:
		return solver.SRem(a[0], a[1])
	case solver.OpURem:
		return solver.URem(a[0], a[1])
	case solver.OpNeg:
		return solver.Neg(a[0])
	case solver.OpAnd:
		return solver.And(a[0], a[1])
	case solver.OpOr:
		return solver.Or(a[0], a[1])
	case solver.OpXor:
		return solver.Xor(a[0], a[1])
	case solver.OpNot:
		return solver.Not(a[0])
	case solver.OpShl:
		return solver.Shl(a[0], a[1])
	case solver.OpLShr:
		return solver.LShr(a[0], a[1])
	case solver.OpAShr:
		return solver.AShr(a[0], a[1])
	case solver.OpZeroExt:
		return solver.ZeroExt(a[0], e.Width())
	case solver.OpSignExt:
		return solver.SignExt(a[0], e.Width())
	case solver.OpExtract:
		return solver.Extract(a[0], e.Lo()+e.Width()-1, e.Lo())
	case solver.OpEq:
		return solver.Eq(a[0], a[1])
	case solver.OpNe:
		return solver.Ne(a[0], a[1])
	case solver.OpSlt:
		return solver.Slt(a[0], a[1])
	case solver.OpSle:
		return solver.Sle(a[0], a[1])
	case solver.OpSgt:
		return solver.Sgt(a[0], a[1])
	case solver.OpSge:
		return solver.Sge(a[0], a[1])
	case solver.OpUlt:
		return solver.Ult(a[0], a[1])
	case solver.OpUle:
		return solver.Ule(a[0], a[1])
	case solver.OpUgt:
		return solver.Ugt(a[0], a[1])
	case solver.OpUge:
		return solver.Uge(a[0], a[1])
	case solver.OpImplies:
		return solver.Implies(a[0], a[1])
	case solver.OpIte:
		return solver.Ite(a[0], a[1], a[2])
	}
	panic(fmt.Sprintf("con2: renaming a term of operator %v", e.Op()))
}
