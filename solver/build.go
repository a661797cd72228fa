// This file implements the Expr constructors, with sort checking and cheap
// constant folding.

package solver

import "fmt"

// Constructors panic on ill-sorted arguments (mismatched widths, a boolean
// where a bit-vector is required, widths outside 1..64): those are
// programming errors in the caller, like an out-of-range slice index.

// True and False are the boolean constants.
var (
	True  = Bool(true)
	False = Bool(false)
)

func checkWidth(w int) {
	if w < 1 || w > MaxWidth {
		panic(fmt.Sprintf("solver: bit-vector width %d outside 1..%d", w, MaxWidth))
	}
}

func needBV(op Op, a Expr) {
	if a.IsBool() {
		panic(fmt.Sprintf("solver: %s: operand %s is boolean, want a bit-vector", op, a))
	}
}

func needBool(op Op, a Expr) {
	if !a.IsBool() {
		panic(fmt.Sprintf("solver: %s: operand %s is a %d-bit vector, want boolean", op, a, a.Width()))
	}
}

func sameSort(op Op, a, b Expr) {
	if a.Width() != b.Width() {
		panic(fmt.Sprintf("solver: %s: operand widths differ: %s has %d, %s has %d", op, a, a.Width(), b, b.Width()))
	}
}

// Const returns the width-bit constant v (truncated to width bits).
func Const(v uint64, width int) Expr {
	checkWidth(width)
	return intern(node{op: OpConst, width: uint8(width), val: v & mask(width)})
}

// Bool returns the boolean constant b.
func Bool(b bool) Expr {
	return intern(node{op: OpConst, val: b2u(b)})
}

// Var returns the width-bit variable called name. A name must be used with
// one width only within a query.
func Var(name string, width int) Expr {
	checkWidth(width)
	if name == "" {
		panic("solver: Var: empty name")
	}
	return intern(node{op: OpVar, width: uint8(width), name: name})
}

// BoolVar returns the boolean variable called name (its model value is 0 or 1).
func BoolVar(name string) Expr {
	if name == "" {
		panic("solver: BoolVar: empty name")
	}
	return intern(node{op: OpVar, name: name})
}

func isConst(e Expr, v uint64) bool {
	c, ok := e.Const()
	return ok && c == v
}

func commutative(op Op) bool {
	switch op {
	case OpAdd, OpMul, OpAnd, OpOr, OpXor, OpEq, OpNe:
		return true
	}
	return false
}

// binop builds a same-sort binary operator with folding. boolOK allows
// boolean operands; the result is boolean when cmp is set.
func binop(op Op, a, b Expr, boolOK, cmp bool) Expr {
	if !boolOK {
		needBV(op, a)
		needBV(op, b)
	}
	sameSort(op, a, b)
	w := a.Width()
	rw := w
	if cmp {
		rw = 0
	}
	ca, aok := a.Const()
	cb, bok := b.Const()
	if aok && bok {
		return intern(node{op: OpConst, width: uint8(rw), val: applyBinary(op, w, ca, cb)})
	}
	if aok && commutative(op) {
		a, b, ca, cb, aok, bok = b, a, cb, ca, bok, aok
	}
	if r, ok := simplify(op, w, a, b, cb, bok); ok {
		return r
	}
	return mk(op, rw, 0, a, b)
}

// simplify applies identities that need no new nodes; b is constant cb when
// bok is set.
func simplify(op Op, w int, a, b Expr, cb uint64, bok bool) (Expr, bool) {
	if a == b {
		switch op {
		case OpAnd, OpOr:
			return a, true
		case OpEq, OpUle, OpUge, OpSle, OpSge:
			return True, true
		case OpNe, OpUlt, OpUgt, OpSlt, OpSgt:
			return False, true
		case OpSub, OpXor:
			return intern(node{op: OpConst, width: uint8(w)}), true
		}
	}
	if !bok {
		return Expr{}, false
	}
	m := mask(w)
	switch {
	case cb == 0 && (op == OpAdd || op == OpSub || op == OpOr || op == OpXor ||
		op == OpShl || op == OpLShr || op == OpAShr):
		return a, true
	case cb == 0 && (op == OpMul || op == OpAnd):
		return b, true
	case cb == 1 && (op == OpMul || op == OpUDiv || op == OpSDiv) && w > 0:
		return a, true
	case cb == m && op == OpAnd:
		return a, true
	case cb == m && op == OpOr:
		return b, true
	case w == 0 && op == OpImplies:
		if cb == 1 {
			return True, true
		}
		return Not(a), true
	case w == 0 && op == OpEq:
		if cb == 1 {
			return a, true
		}
		return Not(a), true
	}
	return Expr{}, false
}

// Add returns a + b (wrapping).
func Add(a, b Expr) Expr { return binop(OpAdd, a, b, false, false) }

// Sub returns a - b (wrapping).
func Sub(a, b Expr) Expr { return binop(OpSub, a, b, false, false) }

// Mul returns a * b (wrapping).
func Mul(a, b Expr) Expr { return binop(OpMul, a, b, false, false) }

// SDiv returns the signed quotient a / b, truncated towards zero as in Go;
// minInt / -1 wraps to minInt. b == 0 gives -1 for a >= 0 and 1 for a < 0
// (SMT-LIB bvsdiv); callers must test Go's division-by-zero panic
// separately.
func SDiv(a, b Expr) Expr { return binop(OpSDiv, a, b, false, false) }

// UDiv returns the unsigned quotient a / b; b == 0 gives all ones (SMT-LIB
// bvudiv).
func UDiv(a, b Expr) Expr { return binop(OpUDiv, a, b, false, false) }

// SRem returns the signed remainder a % b (sign of a, as Go's % on signed
// integers); b == 0 gives a (SMT-LIB bvsrem).
func SRem(a, b Expr) Expr { return binop(OpSRem, a, b, false, false) }

// URem returns the unsigned remainder a % b; b == 0 gives a (SMT-LIB bvurem).
func URem(a, b Expr) Expr { return binop(OpURem, a, b, false, false) }

// And returns a & b for bit-vectors and a && b for booleans.
func And(a, b Expr) Expr { return binop(OpAnd, a, b, true, false) }

// Or returns a | b for bit-vectors and a || b for booleans.
func Or(a, b Expr) Expr { return binop(OpOr, a, b, true, false) }

// Xor returns a ^ b for bit-vectors and a != b for booleans.
func Xor(a, b Expr) Expr { return binop(OpXor, a, b, true, false) }

// Shl returns a << b; b is read as unsigned and b >= width gives 0, as in
// Go. Both operands have the same width: convert Go's shift count first.
func Shl(a, b Expr) Expr { return binop(OpShl, a, b, false, false) }

// LShr returns the logical (unsigned) shift a >> b; b >= width gives 0.
func LShr(a, b Expr) Expr { return binop(OpLShr, a, b, false, false) }

// AShr returns the arithmetic (signed) shift a >> b; b >= width gives the
// sign fill (0 or -1), as in Go.
func AShr(a, b Expr) Expr { return binop(OpAShr, a, b, false, false) }

// Eq returns a == b (bit-vectors or booleans).
func Eq(a, b Expr) Expr { return binop(OpEq, a, b, true, true) }

// Ne returns a != b (bit-vectors or booleans).
func Ne(a, b Expr) Expr {
	if a.IsBool() {
		return Xor(a, b)
	}
	return binop(OpNe, a, b, false, true)
}

// Slt returns the signed comparison a < b.
func Slt(a, b Expr) Expr { return binop(OpSlt, a, b, false, true) }

// Sle returns the signed comparison a <= b.
func Sle(a, b Expr) Expr { return binop(OpSle, a, b, false, true) }

// Sgt returns the signed comparison a > b.
func Sgt(a, b Expr) Expr { return binop(OpSgt, a, b, false, true) }

// Sge returns the signed comparison a >= b.
func Sge(a, b Expr) Expr { return binop(OpSge, a, b, false, true) }

// Ult returns the unsigned comparison a < b.
func Ult(a, b Expr) Expr { return binop(OpUlt, a, b, false, true) }

// Ule returns the unsigned comparison a <= b.
func Ule(a, b Expr) Expr { return binop(OpUle, a, b, false, true) }

// Ugt returns the unsigned comparison a > b.
func Ugt(a, b Expr) Expr { return binop(OpUgt, a, b, false, true) }

// Uge returns the unsigned comparison a >= b.
func Uge(a, b Expr) Expr { return binop(OpUge, a, b, false, true) }

// Implies returns the boolean a => b.
func Implies(a, b Expr) Expr {
	needBool(OpImplies, a)
	needBool(OpImplies, b)
	if isConst(a, 0) {
		return True
	}
	if isConst(a, 1) {
		return b
	}
	return binop(OpImplies, a, b, true, false)
}

// Neg returns -a (wrapping).
func Neg(a Expr) Expr {
	needBV(OpNeg, a)
	if c, ok := a.Const(); ok {
		return Const(applyUnary(OpNeg, a.Width(), a.Width(), 0, c), a.Width())
	}
	if a.Op() == OpNeg {
		return a.Arg(0)
	}
	return mk(OpNeg, a.Width(), 0, a)
}

// Not returns ^a for bit-vectors and !a for booleans.
func Not(a Expr) Expr {
	w := a.Width()
	if c, ok := a.Const(); ok {
		return intern(node{op: OpConst, width: uint8(w), val: applyUnary(OpNot, w, w, 0, c)})
	}
	if a.Op() == OpNot {
		return a.Arg(0)
	}
	return mk(OpNot, w, 0, a)
}

// ZeroExt zero-extends a to width bits (width >= a.Width()).
func ZeroExt(a Expr, width int) Expr { return extend(OpZeroExt, a, width) }

// SignExt sign-extends a to width bits (width >= a.Width()).
func SignExt(a Expr, width int) Expr { return extend(OpSignExt, a, width) }

func extend(op Op, a Expr, width int) Expr {
	needBV(op, a)
	checkWidth(width)
	aw := a.Width()
	if width < aw {
		panic(fmt.Sprintf("solver: %s to %d bits of %d-bit %s", op, width, aw, a))
	}
	if width == aw {
		return a
	}
	if c, ok := a.Const(); ok {
		return Const(applyUnary(op, width, aw, 0, c), width)
	}
	return mk(op, width, 0, a)
}

// Extract returns bits hi..lo (inclusive) of a, a (hi-lo+1)-bit vector.
func Extract(a Expr, hi, lo int) Expr {
	needBV(OpExtract, a)
	aw := a.Width()
	if lo < 0 || hi < lo || hi >= aw {
		panic(fmt.Sprintf("solver: extract [%d:%d] of %d-bit %s", hi, lo, aw, a))
	}
	w := hi - lo + 1
	if w == aw {
		return a
	}
	if c, ok := a.Const(); ok {
		return Const(applyUnary(OpExtract, w, aw, uint(lo), c), w)
	}
	return mk(OpExtract, w, uint64(lo), a)
}

// Trunc returns the low width bits of a, Go's conversion to a narrower
// integer type.
func Trunc(a Expr, width int) Expr { return Extract(a, width-1, 0) }

// Ite returns "if c then t else e"; t and e have the same sort.
func Ite(c, t, e Expr) Expr {
	needBool(OpIte, c)
	sameSort(OpIte, t, e)
	if v, ok := c.Const(); ok {
		if v != 0 {
			return t
		}
		return e
	}
	if t == e {
		return t
	}
	return mk(OpIte, t.Width(), 0, c, t, e)
}

// Conj returns the conjunction of es (True if es is empty).
func Conj(es ...Expr) Expr {
	r := True
	for _, e := range es {
		r = And(r, e)
	}
	return r
}
