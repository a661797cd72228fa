// This file implements Expr, the immutable, hash-consed term representation.

package solver

import (
	"fmt"
	"unique"
)

// Op identifies the operator at the root of an Expr.
type Op uint8

// The operators. Binary bit-vector operators require operands of equal
// width; And, Or, Xor and Not are bitwise on bit-vectors and logical on
// booleans.
const (
	OpInvalid Op = iota
	OpConst      // constant: Value() and Width()
	OpVar        // variable: Name() and Width()
	OpAdd
	OpSub
	OpMul
	OpSDiv
	OpUDiv
	OpSRem
	OpURem
	OpNeg
	OpAnd // bitwise (bit-vectors) or logical (booleans)
	OpOr  // bitwise (bit-vectors) or logical (booleans)
	OpXor // bitwise (bit-vectors) or logical (booleans)
	OpNot // bitwise (bit-vectors) or logical (booleans)
	OpShl
	OpLShr
	OpAShr
	OpZeroExt // Width() is the result width
	OpSignExt // Width() is the result width
	OpExtract // bits [Lo()+Width()-1 : Lo()] of the operand
	OpEq
	OpNe
	OpSlt
	OpSle
	OpSgt
	OpSge
	OpUlt
	OpUle
	OpUgt
	OpUge
	OpImplies
	OpIte
	numOps
)

var opNames = [numOps]string{
	OpInvalid: "invalid", OpConst: "const", OpVar: "var",
	OpAdd: "add", OpSub: "sub", OpMul: "mul", OpSDiv: "sdiv", OpUDiv: "udiv",
	OpSRem: "srem", OpURem: "urem", OpNeg: "neg", OpAnd: "and", OpOr: "or",
	OpXor: "xor", OpNot: "not", OpShl: "shl", OpLShr: "lshr", OpAShr: "ashr",
	OpZeroExt: "zext", OpSignExt: "sext", OpExtract: "extract",
	OpEq: "eq", OpNe: "ne", OpSlt: "slt", OpSle: "sle", OpSgt: "sgt",
	OpSge: "sge", OpUlt: "ult", OpUle: "ule", OpUgt: "ugt", OpUge: "uge",
	OpImplies: "implies", OpIte: "ite",
}

// String returns the lower-case name of the operator.
func (o Op) String() string {
	if o < numOps {
		return opNames[o]
	}
	return fmt.Sprintf("Op(%d)", uint8(o))
}

// MaxWidth is the largest supported bit-vector width.
const MaxWidth = 64

// node is the interned payload of an Expr. All fields are comparable so
// that unique.Make hash-conses structurally equal terms to one handle.
type node struct {
	op    Op
	width uint8 // 0 for booleans, 1..64 for bit-vectors
	nargs uint8
	args  [3]unique.Handle[node]
	val   uint64 // constant value; low bit of an extract; unused otherwise
	name  string // variable name
	hash  uint64 // structural hash, a function of the fields above
}

// Expr is an immutable boolean or bit-vector term. Exprs are hash-consed:
// two Exprs are structurally equal exactly when they are ==, so Expr can be
// used as a map key. The zero Expr is invalid; build Exprs with the
// constructors in this package.
type Expr struct {
	h unique.Handle[node]
}

// n returns (a shallow copy of) the node of e.
func (e Expr) n() node {
	if e == (Expr{}) {
		panic("solver: use of zero Expr")
	}
	return e.h.Value()
}

// IsValid reports whether e was built by a constructor (is not the zero Expr).
func (e Expr) IsValid() bool { return e != (Expr{}) }

// Op returns the root operator.
func (e Expr) Op() Op { return e.n().op }

// Width returns the bit-vector width (1..64), or 0 for a boolean.
func (e Expr) Width() int { return int(e.n().width) }

// IsBool reports whether e is a boolean term.
func (e Expr) IsBool() bool { return e.n().width == 0 }

// NumArgs returns the number of operands (0 for constants and variables).
func (e Expr) NumArgs() int { return int(e.n().nargs) }

// Arg returns operand i.
func (e Expr) Arg(i int) Expr {
	n := e.n()
	if i < 0 || i >= int(n.nargs) {
		panic(fmt.Sprintf("solver: Arg(%d) of %s with %d operands", i, n.op, n.nargs))
	}
	return Expr{n.args[i]}
}

// Const returns the value of a constant (booleans are 0 or 1) and true, or
// 0 and false if e is not a constant.
func (e Expr) Const() (uint64, bool) {
	n := e.n()
	return n.val, n.op == OpConst
}

// Name returns the name of a variable, or "" if e is not a variable.
func (e Expr) Name() string { return e.n().name }

// Lo returns the lowest extracted bit of an OpExtract term (0 otherwise).
func (e Expr) Lo() int {
	n := e.n()
	if n.op != OpExtract {
		return 0
	}
	return int(n.val)
}

// Hash returns a structural hash of e, stable within a process run.
func (e Expr) Hash() uint64 { return e.n().hash }

// mix folds v into the running hash h.
func mix(h, v uint64) uint64 {
	h ^= v
	h *= 0x100000001b3
	h ^= h >> 29
	return h
}

// intern hash-conses a node after computing its structural hash.
func intern(n node) Expr {
	h := mix(mix(mix(0xcbf29ce484222325, uint64(n.op)), uint64(n.width)), n.val)
	for _, c := range n.name {
		h = mix(h, uint64(c))
	}
	for i := 0; i < int(n.nargs); i++ {
		h = mix(h, n.args[i].Value().hash)
	}
	n.hash = h
	return Expr{unique.Make(n)}
}

// mk interns an operator node over args.
func mk(op Op, width int, val uint64, args ...Expr) Expr {
	n := node{op: op, width: uint8(width), val: val, nargs: uint8(len(args))}
	for i, a := range args {
		n.args[i] = a.h
	}
	return intern(n)
}
