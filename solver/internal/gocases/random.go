// This file implements random well-sorted terms for differential tests.

package gocases

import (
	"math/rand/v2"

	"github.com/weft-go/weft/solver"
)

// Widths are the bit-vector widths RandomTerm uses, besides booleans (0).
var Widths = []int{1, 8, 16, 32, 64}

// RandomTerm returns a random term of the given width (0: boolean) with at
// most depth nested operators, using every operator. leaf supplies the
// leaves of each width and must not use r, so that the same seed yields
// the same shape with different leaves.
func RandomTerm(r *rand.Rand, width, depth int, leaf func(width int) solver.Expr) solver.Expr {
	if depth == 0 || r.IntN(5) == 0 {
		if r.IntN(3) == 0 {
			if width == 0 {
				return solver.Bool(r.IntN(2) == 0)
			}
			return solver.Const(operand(r, width, false), width)
		}
		return leaf(width)
	}
	sub := func(w int) solver.Expr { return RandomTerm(r, w, depth-1, leaf) }
	anyWidth := func() int { return Widths[r.IntN(len(Widths))] }
	if width == 0 {
		switch r.IntN(6) {
		case 0:
			w := anyWidth()
			cmp := []func(a, b solver.Expr) solver.Expr{solver.Eq, solver.Ne, solver.Slt, solver.Sle,
				solver.Sgt, solver.Sge, solver.Ult, solver.Ule, solver.Ugt, solver.Uge}
			return cmp[r.IntN(len(cmp))](sub(w), sub(w))
		case 1:
			ops := []func(a, b solver.Expr) solver.Expr{solver.And, solver.Or, solver.Xor, solver.Implies, solver.Eq, solver.Ne}
			return ops[r.IntN(len(ops))](sub(0), sub(0))
		case 2:
			return solver.Not(sub(0))
		case 3:
			return solver.Ite(sub(0), sub(0), sub(0))
		}
		w := anyWidth()
		return solver.Ult(sub(w), sub(w))
	}
	switch r.IntN(8) {
	case 0:
		return solver.Ite(sub(0), sub(width), sub(width))
	case 1:
		if r.IntN(2) == 0 {
			return solver.Neg(sub(width))
		}
		return solver.Not(sub(width))
	case 2: // conversion from another width
		from := anyWidth()
		switch {
		case from > width:
			lo := r.IntN(from - width + 1)
			return solver.Extract(sub(from), lo+width-1, lo)
		case r.IntN(2) == 0:
			return solver.ZeroExt(sub(from), width)
		default:
			return solver.SignExt(sub(from), width)
		}
	}
	ops := []func(a, b solver.Expr) solver.Expr{solver.Add, solver.Sub, solver.Mul, solver.SDiv,
		solver.UDiv, solver.SRem, solver.URem, solver.And, solver.Or, solver.Xor, solver.Shl,
		solver.LShr, solver.AShr}
	return ops[r.IntN(len(ops))](sub(width), sub(width))
}

// NewRand returns the deterministic generator for seed.
func NewRand(seed uint64) *rand.Rand {
	return rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
}
