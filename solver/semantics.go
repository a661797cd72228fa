// This file implements the concrete semantics of every operator, shared by
// constant folding and Eval, following Go's wrap-around arithmetic and
// SMT-LIB's total division.

package solver

// mask returns the all-ones value of width w; booleans (w == 0) use 1.
func mask(w int) uint64 {
	if w == 0 {
		return 1
	}
	return ^uint64(0) >> (64 - uint(w))
}

// sx sign-extends the w-bit value v to int64.
func sx(v uint64, w int) int64 {
	s := 64 - uint(w)
	return int64(v<<s) >> s
}

// b2u converts a boolean to 0 or 1.
func b2u(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

// applyBinary computes op on the w-bit (or boolean, w == 0) operands a and
// b, which must already be truncated to w bits. Arithmetic wraps like Go's
// fixed-size integers. Division by zero follows SMT-LIB: x/0 is all ones
// (unsigned) or, signed, -1 for x >= 0 and 1 for x < 0; x%0 is x. Shifts by
// w or more give 0 (or the sign fill for OpAShr), as in Go.
func applyBinary(op Op, w int, a, b uint64) uint64 {
	m := mask(w)
	switch op {
	case OpAdd:
		return (a + b) & m
	case OpSub:
		return (a - b) & m
	case OpMul:
		return (a * b) & m
	case OpUDiv:
		if b == 0 {
			return m
		}
		return a / b
	case OpURem:
		if b == 0 {
			return a
		}
		return a % b
	case OpSDiv:
		if b == 0 {
			if sx(a, w) < 0 {
				return 1
			}
			return m
		}
		return uint64(sx(a, w)/sx(b, w)) & m
	case OpSRem:
		if b == 0 {
			return a
		}
		return uint64(sx(a, w)%sx(b, w)) & m
	case OpAnd:
		return a & b
	case OpOr:
		return a | b
	case OpXor:
		return a ^ b
	case OpShl:
		if b >= uint64(w) {
			return 0
		}
		return (a << b) & m
	case OpLShr:
		if b >= uint64(w) {
			return 0
		}
		return a >> b
	case OpAShr:
		if b >= uint64(w) {
			b = uint64(w) - 1
		}
		return uint64(sx(a, w)>>b) & m
	case OpEq:
		return b2u(a == b)
	case OpNe:
		return b2u(a != b)
	case OpSlt:
		return b2u(sx(a, w) < sx(b, w))
	case OpSle:
		return b2u(sx(a, w) <= sx(b, w))
	case OpSgt:
		return b2u(sx(a, w) > sx(b, w))
	case OpSge:
		return b2u(sx(a, w) >= sx(b, w))
	case OpUlt:
		return b2u(a < b)
	case OpUle:
		return b2u(a <= b)
	case OpUgt:
		return b2u(a > b)
	case OpUge:
		return b2u(a >= b)
	case OpImplies:
		return b2u(a == 0 || b != 0)
	}
	panic("solver: applyBinary: unexpected operator " + op.String())
}

// applyUnary computes a unary operator producing width w from operand a of
// width aw. For OpExtract, lo is the lowest extracted bit.
func applyUnary(op Op, w, aw int, lo uint, a uint64) uint64 {
	m := mask(w)
	switch op {
	case OpNeg:
		return -a & m
	case OpNot:
		return ^a & m
	case OpZeroExt:
		return a
	case OpSignExt:
		return uint64(sx(a, aw)) & m
	case OpExtract:
		return (a >> lo) & m
	}
	panic("solver: applyUnary: unexpected operator " + op.String())
}
