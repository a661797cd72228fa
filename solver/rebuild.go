// This file implements Rewrite, which renames the variables of a term,
// and Rebuild, which makes a term over new arguments (its step).

package solver

import "fmt"

// Rename returns e with each variable whose name vars holds replaced by
// that term, the others kept; memo is as Rewrite's.
func Rename(e Expr, memo map[Expr]Expr, vars map[string]Expr) Expr {
	return Rewrite(e, memo, func(v Expr) Expr {
		if x, ok := vars[v.Name()]; ok {
			return x
		}
		return v
	})
}

// Rewrite returns e with each variable v replaced by vars(v) (which
// returns v to keep it); an invalid e stays so. memo, if not nil, keeps the
// terms rewritten, for the next calls with the same vars.
func Rewrite(e Expr, memo map[Expr]Expr, vars func(v Expr) Expr) Expr {
	if !e.IsValid() {
		return e
	}
	if v, ok := memo[e]; ok {
		return v
	}
	out := e
	switch e.Op() {
	case OpConst:
	case OpVar:
		out = vars(e)
	default:
		args := make([]Expr, e.NumArgs())
		same := true
		for i := range args {
			args[i] = Rewrite(e.Arg(i), memo, vars)
			same = same && args[i] == e.Arg(i)
		}
		if !same {
			out = Rebuild(e, args)
		}
	}
	if memo != nil {
		memo[e] = out
	}
	return out
}

// Rebuild returns the term of e's operator over args, which have the
// sorts of e's arguments: e with its arguments replaced (a variable or a
// constant, which has none, is returned as it is). It panics if args do
// not fit.
func Rebuild(e Expr, a []Expr) Expr {
	switch e.Op() {
	case OpConst, OpVar:
		return e
	}
	return build(e.Op(), e.Width(), e.Lo(), a)
}

// build returns the term of operator op (not a constant or a variable)
// over args a; width and lo are the result's width and lowest bit for
// the operators that need them (extensions, extracts). It panics if a
// does not fit.
func build(op Op, width, lo int, a []Expr) Expr {
	switch op {
	case OpAdd:
		return Add(a[0], a[1])
	case OpSub:
		return Sub(a[0], a[1])
	case OpMul:
		return Mul(a[0], a[1])
	case OpSDiv:
		return SDiv(a[0], a[1])
	case OpUDiv:
		return UDiv(a[0], a[1])
	case OpSRem:
		return SRem(a[0], a[1])
	case OpURem:
		return URem(a[0], a[1])
	case OpNeg:
		return Neg(a[0])
	case OpAnd:
		return And(a[0], a[1])
	case OpOr:
		return Or(a[0], a[1])
	case OpXor:
		return Xor(a[0], a[1])
	case OpNot:
		return Not(a[0])
	case OpShl:
		return Shl(a[0], a[1])
	case OpLShr:
		return LShr(a[0], a[1])
	case OpAShr:
		return AShr(a[0], a[1])
	case OpZeroExt:
		return ZeroExt(a[0], width)
	case OpSignExt:
		return SignExt(a[0], width)
	case OpExtract:
		return Extract(a[0], lo+width-1, lo)
	case OpEq:
		return Eq(a[0], a[1])
	case OpNe:
		return Ne(a[0], a[1])
	case OpSlt:
		return Slt(a[0], a[1])
	case OpSle:
		return Sle(a[0], a[1])
	case OpSgt:
		return Sgt(a[0], a[1])
	case OpSge:
		return Sge(a[0], a[1])
	case OpUlt:
		return Ult(a[0], a[1])
	case OpUle:
		return Ule(a[0], a[1])
	case OpUgt:
		return Ugt(a[0], a[1])
	case OpUge:
		return Uge(a[0], a[1])
	case OpImplies:
		return Implies(a[0], a[1])
	case OpIte:
		return Ite(a[0], a[1], a[2])
	}
	panic(fmt.Sprintf("solver: rebuilding a term of operator %v", op))
}
