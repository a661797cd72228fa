// This file implements concolic values: integers and booleans that carry a
// concrete value and, when they depend on inputs, a solver expression.

package weft

import (
	"fmt"
	"unsafe"

	"github.com/weft-go/weft/internal/engine"
	"github.com/weft-go/weft/solver"
	"github.com/weft-go/weft/trace"
)

// Sym is a concolic integer of type T: its concrete value, and the solver
// expression it equals in terms of the inputs, or none when it does not
// depend on any input. Operators are methods with Go's semantics for T
// (wrap-around, truncated division, shifts); comparisons give SBool. The
// zero value is the concrete zero. Sym is comparable, so Var[Sym[T]] and
// Chan[Sym[T]] carry expressions between threads; == compares values and
// expressions (use Eq to compare values).
type Sym[T Integer] struct {
	v T
	e solver.Expr
}

// The common concolic integer types.
type (
	SInt    = Sym[int64]
	SInt32  = Sym[int32]
	SUint64 = Sym[uint64]
)

// SBool is a concolic boolean: a concrete truth value and, when it depends
// on inputs, a boolean solver expression. Branch on it with T.If.
type SBool struct {
	v bool
	e solver.Expr
}

// Const returns the concrete (input-independent) value v.
func Const[T Integer](v T) Sym[T] { return Sym[T]{v: v} }

// Concrete returns the concrete boolean b.
func Concrete(b bool) SBool { return SBool{v: b} }

// symbolic is implemented by the concolic types. In a symbolic trace
// (Farzan et al. 2013, §4) a shared variable records the expression of each value
// written (symExpr), and each read gives the program the value read with a
// fresh variable for its expression (withSym): its constraints then speak
// of the read, which the con2 strategy couples with a write of its choice.
//
// A shared variable's trace records a concolic value by its concrete value
// (concrete), as it would the plain integer or boolean.
type symbolic interface {
	symExpr() solver.Expr
	withSym(name string) any
	concrete() uint64
	// symEq compares with a value of the same type, as Eq does.
	symEq(y any) SBool
}

//go:norace
func (x Sym[T]) concrete() uint64 { return uint64(x.v) }

func (b SBool) concrete() uint64 {
	if b.v {
		return 1
	}
	return 0
}

//go:norace
func (x Sym[T]) symExpr() solver.Expr { return x.Expr() }

//go:norace
func (x Sym[T]) symEq(y any) SBool { return x.Eq(y.(Sym[T])) }

func (b SBool) symEq(y any) SBool {
	c := y.(SBool)
	return b.And(c).Or(b.Not().And(c.Not()))
}

//go:norace
func (x Sym[T]) withSym(name string) any {
	bits, _ := layout[T]()
	return Sym[T]{v: x.v, e: solver.Var(name, bits)}
}

func (b SBool) symExpr() solver.Expr { return b.Expr() }

func (b SBool) withSym(name string) any { return SBool{v: b.v, e: solver.BoolVar(name)} }

// layout returns the bit width of T and whether T is signed.
func layout[T Integer]() (bits int, signed bool) {
	var z T
	return int(unsafe.Sizeof(z)) * 8, ^z < 0
}

// Value returns the concrete value.
//
//go:norace
func (x Sym[T]) Value() T { return x.v }

// Expr returns the solver expression of x: its symbolic expression, or the
// constant of its value when it is concrete.
//
//go:norace
func (x Sym[T]) Expr() solver.Expr {
	if x.e.IsValid() {
		return x.e
	}
	bits, _ := layout[T]()
	return solver.Const(uint64(x.v), bits)
}

// Symbolic reports whether x depends on an input.
//
//go:norace
func (x Sym[T]) Symbolic() bool { return x.e.IsValid() }

// String shows the concrete value and, if any, the expression.
//
//go:norace
func (x Sym[T]) String() string {
	if !x.e.IsValid() {
		return fmt.Sprint(x.v)
	}
	return fmt.Sprintf("%v [%s]", x.v, x.e)
}

// sym builds a result from its concrete value and an expression builder,
// which runs only when an operand is symbolic.
func sym[T Integer](v T, symbolic bool, build func() solver.Expr) Sym[T] {
	if !symbolic {
		return Sym[T]{v: v}
	}
	e := build()
	if _, ok := e.Const(); ok {
		return Sym[T]{v: v} // folded: no longer depends on an input
	}
	return Sym[T]{v: v, e: e}
}

func either[T Integer](x, y Sym[T]) bool { return x.e.IsValid() || y.e.IsValid() }

// Add returns x + y.
//
//go:norace
func (x Sym[T]) Add(y Sym[T]) Sym[T] {
	return sym(x.v+y.v, either(x, y), func() solver.Expr { return solver.Add(x.Expr(), y.Expr()) })
}

// Sub returns x - y.
//
//go:norace
func (x Sym[T]) Sub(y Sym[T]) Sym[T] {
	return sym(x.v-y.v, either(x, y), func() solver.Expr { return solver.Sub(x.Expr(), y.Expr()) })
}

// Mul returns x * y.
//
//go:norace
func (x Sym[T]) Mul(y Sym[T]) Sym[T] {
	return sym(x.v*y.v, either(x, y), func() solver.Expr { return solver.Mul(x.Expr(), y.Expr()) })
}

// Neg returns -x.
//
//go:norace
func (x Sym[T]) Neg() Sym[T] {
	return sym(-x.v, x.e.IsValid(), func() solver.Expr { return solver.Neg(x.e) })
}

// And returns x & y.
//
//go:norace
func (x Sym[T]) And(y Sym[T]) Sym[T] {
	return sym(x.v&y.v, either(x, y), func() solver.Expr { return solver.And(x.Expr(), y.Expr()) })
}

// Or returns x | y.
//
//go:norace
func (x Sym[T]) Or(y Sym[T]) Sym[T] {
	return sym(x.v|y.v, either(x, y), func() solver.Expr { return solver.Or(x.Expr(), y.Expr()) })
}

// Xor returns x ^ y.
//
//go:norace
func (x Sym[T]) Xor(y Sym[T]) Sym[T] {
	return sym(x.v^y.v, either(x, y), func() solver.Expr { return solver.Xor(x.Expr(), y.Expr()) })
}

// Not returns ^x.
//
//go:norace
func (x Sym[T]) Not() Sym[T] {
	return sym(^x.v, x.e.IsValid(), func() solver.Expr { return solver.Not(x.e) })
}

// Div returns x / y, truncated towards zero. A zero divisor panics as in Go
// (a runtime error the program may recover; unrecovered, it is reported as
// a DivideByZero failure); a symbolic divisor records the check y != 0 as
// a branch, so the concolic strategies look for inputs that make it zero.
//
//go:norace
func (x Sym[T]) Div(y Sym[T]) Sym[T] {
	checkDivisor(y)
	_, signed := layout[T]()
	return sym(x.v/y.v, either(x, y), func() solver.Expr {
		if signed {
			return solver.SDiv(x.Expr(), y.Expr())
		}
		return solver.UDiv(x.Expr(), y.Expr())
	})
}

// Rem returns x % y, with the sign of x; a zero divisor panics as for Div.
//
//go:norace
func (x Sym[T]) Rem(y Sym[T]) Sym[T] {
	checkDivisor(y)
	_, signed := layout[T]()
	return sym(x.v%y.v, either(x, y), func() solver.Expr {
		if signed {
			return solver.SRem(x.Expr(), y.Expr())
		}
		return solver.URem(x.Expr(), y.Expr())
	})
}

// checkDivisor records the branch y != 0 for a symbolic divisor and panics
// as Go does when y is zero.
func checkDivisor[T Integer](y Sym[T]) {
	if y.e.IsValid() {
		bits, _ := layout[T]()
		cur().Branch(trace.BranchEvent{Cond: solver.Ne(y.e, solver.Const(0, bits)), Taken: y.v != 0, Check: true})
	}
	if y.v == 0 {
		engine.Panic(trace.DivideByZero, "runtime error: integer divide by zero")
	}
}

// Shl returns x << n. Counts of at least the width give 0, as in Go; a
// negative count panics as in Go (recorded as a branch when n is
// symbolic).
//
//go:norace
func (x Sym[T]) Shl(n Sym[T]) Sym[T] {
	checkShift(n)
	return sym(x.v<<n.v, either(x, n), func() solver.Expr { return solver.Shl(x.Expr(), n.Expr()) })
}

// Shr returns x >> n: arithmetic for signed T, logical for unsigned T.
// Counts of at least the width give the sign fill or 0, as in Go; a
// negative count panics as for Shl.
//
//go:norace
func (x Sym[T]) Shr(n Sym[T]) Sym[T] {
	checkShift(n)
	_, signed := layout[T]()
	return sym(x.v>>n.v, either(x, n), func() solver.Expr {
		if signed {
			return solver.AShr(x.Expr(), n.Expr())
		}
		return solver.LShr(x.Expr(), n.Expr())
	})
}

// checkShift rejects a negative shift count as Go does. The solver reads
// counts as unsigned, which agrees with Go for the non-negative counts that
// get past this check, so no clamping is needed for same-width counts.
func checkShift[T Integer](n Sym[T]) {
	bits, signed := layout[T]()
	if !signed {
		return
	}
	if n.e.IsValid() {
		cur().Branch(trace.BranchEvent{Cond: solver.Sge(n.e, solver.Const(0, bits)), Taken: n.v >= 0, Check: true})
	}
	if n.v < 0 {
		engine.Panic(trace.Panic, "runtime error: negative shift amount")
	}
}

// cmp builds a comparison.
func cmp[T Integer](x, y Sym[T], v bool, s, u func(a, b solver.Expr) solver.Expr) SBool {
	if !either(x, y) {
		return SBool{v: v}
	}
	_, signed := layout[T]()
	f := u
	if signed {
		f = s
	}
	e := f(x.Expr(), y.Expr())
	if _, ok := e.Const(); ok {
		return SBool{v: v}
	}
	return SBool{v: v, e: e}
}

// Eq returns x == y.
//
//go:norace
func (x Sym[T]) Eq(y Sym[T]) SBool { return cmp(x, y, x.v == y.v, solver.Eq, solver.Eq) }

// Ne returns x != y.
//
//go:norace
func (x Sym[T]) Ne(y Sym[T]) SBool { return cmp(x, y, x.v != y.v, solver.Ne, solver.Ne) }

// Lt returns x < y.
//
//go:norace
func (x Sym[T]) Lt(y Sym[T]) SBool { return cmp(x, y, x.v < y.v, solver.Slt, solver.Ult) }

// Le returns x <= y.
//
//go:norace
func (x Sym[T]) Le(y Sym[T]) SBool { return cmp(x, y, x.v <= y.v, solver.Sle, solver.Ule) }

// Gt returns x > y.
//
//go:norace
func (x Sym[T]) Gt(y Sym[T]) SBool { return cmp(x, y, x.v > y.v, solver.Sgt, solver.Ugt) }

// Ge returns x >= y.
//
//go:norace
func (x Sym[T]) Ge(y Sym[T]) SBool { return cmp(x, y, x.v >= y.v, solver.Sge, solver.Uge) }

// Convert converts x to type U as Go's conversion U(x) does: truncation to
// a narrower type, sign or zero extension (by the signedness of T) to a
// wider one.
//
//go:norace
func Convert[U, T Integer](x Sym[T]) Sym[U] {
	v := U(x.v)
	if !x.e.IsValid() {
		return Sym[U]{v: v}
	}
	from, signed := layout[T]()
	to, _ := layout[U]()
	switch {
	case to < from:
		return Sym[U]{v: v, e: solver.Trunc(x.e, to)}
	case to > from && signed:
		return Sym[U]{v: v, e: solver.SignExt(x.e, to)}
	case to > from:
		return Sym[U]{v: v, e: solver.ZeroExt(x.e, to)}
	}
	return Sym[U]{v: v, e: x.e}
}

// Value returns the concrete truth value. Branching on it directly, instead
// of with T.If, hides the branch from the concolic strategies.
func (b SBool) Value() bool { return b.v }

// Expr returns the solver expression of b, or the constant of its value.
func (b SBool) Expr() solver.Expr {
	if b.e.IsValid() {
		return b.e
	}
	return solver.Bool(b.v)
}

// Symbolic reports whether b depends on an input.
func (b SBool) Symbolic() bool { return b.e.IsValid() }

// String shows the concrete value and, if any, the expression.
func (b SBool) String() string {
	if !b.e.IsValid() {
		return fmt.Sprint(b.v)
	}
	return fmt.Sprintf("%v [%s]", b.v, b.e)
}

func boolOf(v bool, symbolic bool, build func() solver.Expr) SBool {
	if !symbolic {
		return SBool{v: v}
	}
	e := build()
	if _, ok := e.Const(); ok {
		return SBool{v: v}
	}
	return SBool{v: v, e: e}
}

// And returns b && c. Both sides are evaluated: use nested Ifs for Go's
// short-circuit control flow.
func (b SBool) And(c SBool) SBool {
	return boolOf(b.v && c.v, b.e.IsValid() || c.e.IsValid(), func() solver.Expr { return solver.And(b.Expr(), c.Expr()) })
}

// Or returns b || c (both sides evaluated).
func (b SBool) Or(c SBool) SBool {
	return boolOf(b.v || c.v, b.e.IsValid() || c.e.IsValid(), func() solver.Expr { return solver.Or(b.Expr(), c.Expr()) })
}

// Not returns !b.
func (b SBool) Not() SBool {
	return boolOf(!b.v, b.e.IsValid(), func() solver.Expr { return solver.Not(b.e) })
}
