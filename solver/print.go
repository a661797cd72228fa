// This file implements Expr.String, a readable infix rendering.

package solver

import (
	"strconv"
	"strings"
)

// infix holds the operator symbols for binary operators. Signed and
// unsigned variants carry an "s" or "u" suffix.
var infix = map[Op]string{
	OpAdd: "+", OpSub: "-", OpMul: "*", OpSDiv: "/s", OpUDiv: "/u",
	OpSRem: "%s", OpURem: "%u", OpAnd: "&", OpOr: "|", OpXor: "^",
	OpShl: "<<", OpLShr: ">>u", OpAShr: ">>s",
	OpEq: "==", OpNe: "!=", OpSlt: "<s", OpSle: "<=s", OpSgt: ">s",
	OpSge: ">=s", OpUlt: "<u", OpUle: "<=u", OpUgt: ">u", OpUge: ">=u",
	OpImplies: "=>",
}

// String renders e in infix form, e.g. "(x + 1:8) <s y". Bit-vector
// constants print as value:width (unsigned decimal), variables as their
// name, booleans as true/false; boolean And/Or/Not print as &&, ||, !.
// The size of the output is linear in the size of e as a tree, so heavily
// shared terms print long.
func (e Expr) String() string {
	if !e.IsValid() {
		return "<invalid>"
	}
	var b strings.Builder
	write(&b, e, true)
	return b.String()
}

func write(b *strings.Builder, e Expr, top bool) {
	n := e.n()
	switch n.op {
	case OpConst:
		if n.width == 0 {
			b.WriteString(strconv.FormatBool(n.val != 0))
			return
		}
		b.WriteString(strconv.FormatUint(n.val, 10))
		b.WriteByte(':')
		b.WriteString(strconv.Itoa(int(n.width)))
		return
	case OpVar:
		b.WriteString(n.name)
		return
	case OpNeg, OpNot:
		switch {
		case n.op == OpNeg:
			b.WriteByte('-')
		case n.width == 0:
			b.WriteByte('!')
		default:
			b.WriteByte('~')
		}
		write(b, Expr{n.args[0]}, false)
		return
	case OpZeroExt, OpSignExt:
		b.WriteString(n.op.String())
		b.WriteString(strconv.Itoa(int(n.width)))
		b.WriteByte('(')
		write(b, Expr{n.args[0]}, true)
		b.WriteByte(')')
		return
	case OpExtract:
		write(b, Expr{n.args[0]}, false)
		b.WriteByte('[')
		b.WriteString(strconv.Itoa(int(n.val) + int(n.width) - 1))
		b.WriteByte(':')
		b.WriteString(strconv.Itoa(int(n.val)))
		b.WriteByte(']')
		return
	case OpIte:
		b.WriteString("ite(")
		for i := 0; i < 3; i++ {
			if i > 0 {
				b.WriteString(", ")
			}
			write(b, Expr{n.args[i]}, true)
		}
		b.WriteByte(')')
		return
	}
	sym := infix[n.op]
	if n.width == 0 && (n.op == OpAnd || n.op == OpOr) {
		sym += sym
	}
	if !top {
		b.WriteByte('(')
	}
	write(b, Expr{n.args[0]}, false)
	b.WriteByte(' ')
	b.WriteString(sym)
	b.WriteByte(' ')
	write(b, Expr{n.args[1]}, false)
	if !top {
		b.WriteByte(')')
	}
}
