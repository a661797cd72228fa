// Tests of Rebuild: a term made again over its own arguments is the same
// term, and over renamed ones it renames.

package solver

import "testing"

// TestRewrite renames x to z in a term, through every level.
func TestRewrite(t *testing.T) {
	x, y, z := Var("x", 8), Var("y", 8), Var("z", 8)
	e := And(Eq(Add(x, y), Const(3, 8)), Ult(Neg(x), y))
	memo := map[Expr]Expr{}
	got := Rewrite(e, memo, func(v Expr) Expr {
		if v == x {
			return z
		}
		return v
	})
	if want := And(Eq(Add(z, y), Const(3, 8)), Ult(Neg(z), y)); got != want {
		t.Errorf("Rewrite = %v, want %v", got, want)
	}
	if memo[e] != got || Rewrite(Expr{}, nil, nil).IsValid() {
		t.Errorf("memo %v; an invalid term must stay invalid", memo[e])
	}
}

func TestRebuild(t *testing.T) {
	x, y, z := Var("x", 8), Var("y", 8), Var("z", 8)
	terms := []Expr{
		Add(x, y), Sub(x, y), Mul(x, y), SDiv(x, y), UDiv(x, y), SRem(x, y), URem(x, y), Neg(x),
		And(Eq(x, y), Ne(x, y)), Or(Slt(x, y), Sle(x, y)), Xor(Sgt(x, y), Sge(x, y)), Not(Ult(x, y)),
		Implies(Ule(x, y), Ugt(x, y)), Uge(x, y), And(x, y), Shl(x, y), LShr(x, y), AShr(x, y),
		ZeroExt(x, 16), SignExt(x, 16), Extract(x, 5, 2), Ite(Eq(x, y), x, y), x, Const(3, 8),
	}
	for _, e := range terms {
		args := make([]Expr, e.NumArgs())
		renamed := make([]Expr, e.NumArgs())
		for i := range args {
			args[i] = e.Arg(i)
			renamed[i] = args[i]
			if args[i] == x {
				renamed[i] = z
			}
		}
		if got := Rebuild(e, args); got != e {
			t.Errorf("Rebuild(%v) over its own arguments = %v", e, got)
		}
		want := e.String()
		got := Rebuild(e, renamed).String()
		if e.NumArgs() > 0 && e.Arg(0) == x && got == want {
			t.Errorf("Rebuild(%v) with x renamed z = %v, unchanged", e, got)
		}
	}
}
