// Package gocases generates test cases pairing solver Exprs with the result
// Go itself computes, so that constant folding, Eval and every backend can
// be checked against Go's native wrap-around semantics.
package gocases

import (
	"fmt"
	"math/rand/v2"

	"github.com/weft-go/weft/solver"
)

// Case is one operator application on concrete operands.
type Case struct {
	Name           string
	XWidth, YWidth int    // operand widths; YWidth is 0 for unary cases
	X, Y           uint64 // operand bit patterns
	// Build applies the operator; y is invalid for unary cases.
	Build func(x, y solver.Expr) solver.Expr
	// Want is the result bit pattern Go computes (booleans as 0 or 1);
	// for division by zero, which panics in Go, it is SMT-LIB's value.
	Want uint64
}

type integer interface {
	~int8 | ~int16 | ~int32 | ~int64 | ~uint8 | ~uint16 | ~uint32 | ~uint64
}

func mask(w int) uint64 { return ^uint64(0) >> (64 - w) }

func b2u(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

// binop describes a Go binary operator and its signed/unsigned Exprs.
type binop struct {
	sym              string
	signed, unsigned func(x, y solver.Expr) solver.Expr
}

var binops = []binop{
	{"+", solver.Add, solver.Add},
	{"-", solver.Sub, solver.Sub},
	{"*", solver.Mul, solver.Mul},
	{"/", solver.SDiv, solver.UDiv},
	{"%", solver.SRem, solver.URem},
	{"&", solver.And, solver.And},
	{"|", solver.Or, solver.Or},
	{"^", solver.Xor, solver.Xor},
	{"<<", solver.Shl, solver.Shl},
	{">>", solver.AShr, solver.LShr},
	{"==", solver.Eq, solver.Eq},
	{"!=", solver.Ne, solver.Ne},
	{"<", solver.Slt, solver.Ult},
	{"<=", solver.Sle, solver.Ule},
	{">", solver.Sgt, solver.Ugt},
	{">=", solver.Sge, solver.Uge},
}

// native computes Go's a sym b; the shift count is b's bit pattern read as
// unsigned, as the concolic layer converts it.
func native[T integer](sym string, a, b T, w int) uint64 {
	s := uint64(b) & mask(w)
	var r T
	switch sym {
	case "+":
		r = a + b
	case "-":
		r = a - b
	case "*":
		r = a * b
	case "/":
		r = a / b
	case "%":
		r = a % b
	case "&":
		r = a & b
	case "|":
		r = a | b
	case "^":
		r = a ^ b
	case "<<":
		r = a << s
	case ">>":
		r = a >> s
	case "==":
		return b2u(a == b)
	case "!=":
		return b2u(a != b)
	case "<":
		return b2u(a < b)
	case "<=":
		return b2u(a <= b)
	case ">":
		return b2u(a > b)
	case ">=":
		return b2u(a >= b)
	default:
		panic("gocases: unknown operator " + sym)
	}
	return uint64(r) & mask(w)
}

// operand draws a w-bit pattern, favouring edge values.
func operand(r *rand.Rand, w int, shift bool) uint64 {
	m := mask(w)
	edges := []uint64{0, 1, 2, m, m >> 1, (m >> 1) + 1, m - 1}
	switch {
	case shift && r.IntN(4) != 0:
		return uint64(r.IntN(w + 2))
	case r.IntN(3) == 0:
		return edges[r.IntN(len(edges))]
	}
	return r.Uint64() & m
}

// typeCases returns perOp random cases for every operator on type T.
func typeCases[T integer](r *rand.Rand, tname string, w int, signed bool, perOp int) []Case {
	var cs []Case
	m := mask(w)
	for _, op := range binops {
		build := op.unsigned
		if signed {
			build = op.signed
		}
		for range perOp {
			x := operand(r, w, false)
			y := operand(r, w, op.sym == "<<" || op.sym == ">>")
			if (op.sym == "/" || op.sym == "%") && y == 0 {
				y = 1 + r.Uint64()&(m>>1)
			}
			cs = append(cs, Case{
				Name:   fmt.Sprintf("%s(%#x) %s %s(%#x)", tname, x, op.sym, tname, y),
				XWidth: w, YWidth: w, X: x, Y: y, Build: build,
				Want: native(op.sym, T(x), T(y), w),
			})
		}
	}
	if signed {
		// The wrapping quotient minInt / -1 and its remainder.
		minInt := (m >> 1) + 1
		cs = append(cs,
			Case{Name: tname + " min / -1", XWidth: w, YWidth: w, X: minInt, Y: m, Build: solver.SDiv,
				Want: native("/", T(minInt), T(m), w)},
			Case{Name: tname + " min % -1", XWidth: w, YWidth: w, X: minInt, Y: m, Build: solver.SRem,
				Want: native("%", T(minInt), T(m), w)})
	}
	for range perOp {
		x := operand(r, w, false)
		cs = append(cs,
			Case{Name: fmt.Sprintf("-%s(%#x)", tname, x), XWidth: w, X: x,
				Build: func(x, _ solver.Expr) solver.Expr { return solver.Neg(x) },
				Want:  uint64(-T(x)) & m},
			Case{Name: fmt.Sprintf("^%s(%#x)", tname, x), XWidth: w, X: x,
				Build: func(x, _ solver.Expr) solver.Expr { return solver.Not(x) },
				Want:  uint64(^T(x)) & m})
	}
	return append(cs, divZero(tname, w, signed)...)
}

// divZero returns the SMT-LIB results of division by zero, which Go
// reports as a panic before the term is built.
func divZero(tname string, w int, signed bool) []Case {
	m := mask(w)
	neg := (m >> 1) + 3 // a negative value when signed
	mkc := func(name string, x uint64, b func(x, y solver.Expr) solver.Expr, want uint64) Case {
		return Case{Name: fmt.Sprintf("%s(%#x) %s 0 (SMT-LIB)", tname, x, name), XWidth: w, YWidth: w,
			X: x, Y: 0, Build: b, Want: want}
	}
	if !signed {
		return []Case{mkc("/", 7, solver.UDiv, m), mkc("%", 7, solver.URem, 7)}
	}
	return []Case{
		mkc("/", 7, solver.SDiv, m), mkc("/", neg, solver.SDiv, 1),
		mkc("%", 7, solver.SRem, 7), mkc("%", neg, solver.SRem, neg),
	}
}

// conv returns the cases of Go conversions from F to T.
func conv[F, T integer](r *rand.Rand, from, to string, fw, tw int, signed bool, n int) []Case {
	build := func(x, _ solver.Expr) solver.Expr {
		switch {
		case tw < fw:
			return solver.Trunc(x, tw)
		case signed:
			return solver.SignExt(x, tw)
		}
		return solver.ZeroExt(x, tw)
	}
	var cs []Case
	for range n {
		x := operand(r, fw, false)
		cs = append(cs, Case{Name: fmt.Sprintf("%s(%s(%#x))", to, from, x), XWidth: fw, X: x,
			Build: build, Want: uint64(T(F(x))) & mask(tw)})
	}
	return cs
}

// Cases returns the deterministic case list for seed: perOp random cases
// per operator for every fixed-size integer type, edge cases such as
// minInt / -1, SMT-LIB division by zero, and integer conversions.
func Cases(seed uint64, perOp int) []Case {
	r := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	var cs []Case
	cs = append(cs, typeCases[int8](r, "int8", 8, true, perOp)...)
	cs = append(cs, typeCases[int16](r, "int16", 16, true, perOp)...)
	cs = append(cs, typeCases[int32](r, "int32", 32, true, perOp)...)
	cs = append(cs, typeCases[int64](r, "int64", 64, true, perOp)...)
	cs = append(cs, typeCases[uint8](r, "uint8", 8, false, perOp)...)
	cs = append(cs, typeCases[uint16](r, "uint16", 16, false, perOp)...)
	cs = append(cs, typeCases[uint32](r, "uint32", 32, false, perOp)...)
	cs = append(cs, typeCases[uint64](r, "uint64", 64, false, perOp)...)
	cs = append(cs, conv[int8, int32](r, "int8", "int32", 8, 32, true, perOp)...)
	cs = append(cs, conv[int8, uint64](r, "int8", "uint64", 8, 64, true, perOp)...)
	cs = append(cs, conv[uint8, int64](r, "uint8", "int64", 8, 64, false, perOp)...)
	cs = append(cs, conv[int16, uint32](r, "int16", "uint32", 16, 32, true, perOp)...)
	cs = append(cs, conv[int32, int8](r, "int32", "int8", 32, 8, true, perOp)...)
	cs = append(cs, conv[uint64, uint16](r, "uint64", "uint16", 64, 16, false, perOp)...)
	cs = append(cs, conv[int64, int16](r, "int64", "int16", 64, 16, true, perOp)...)
	cs = append(cs, conv[uint32, int64](r, "uint32", "int64", 32, 64, false, perOp)...)
	return cs
}
