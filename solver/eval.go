// This file implements Eval, the concrete evaluator, and the variable
// collectors Vars and VarWidths.

package solver

import (
	"fmt"
	"slices"
)

// Eval evaluates e under model with the same semantics as constant folding
// and the solver backends. Bit-vector results are in the low Width() bits;
// booleans are 0 or 1. Model values are truncated to the variable's width;
// a boolean variable is true when its value is non-zero. It fails if a
// variable of e is missing from model.
func Eval(e Expr, model Model) (uint64, error) {
	ev := evaluator{model: model, memo: make(map[Expr]uint64)}
	return ev.eval(e)
}

type evaluator struct {
	model Model
	memo  map[Expr]uint64
}

func (ev *evaluator) eval(e Expr) (uint64, error) {
	n := e.n()
	switch n.op {
	case OpConst:
		return n.val, nil
	case OpVar:
		v, ok := ev.model[n.name]
		if !ok {
			return 0, fmt.Errorf("solver: eval: variable %q not in model", n.name)
		}
		if n.width == 0 {
			return b2u(v != 0), nil
		}
		return v & mask(int(n.width)), nil
	}
	if v, ok := ev.memo[e]; ok {
		return v, nil
	}
	v, err := ev.evalOp(n)
	if err != nil {
		return 0, err
	}
	ev.memo[e] = v
	return v, nil
}

func (ev *evaluator) evalOp(n node) (uint64, error) {
	a, err := ev.eval(Expr{n.args[0]})
	if err != nil {
		return 0, err
	}
	switch n.op {
	case OpNeg, OpNot, OpZeroExt, OpSignExt, OpExtract:
		aw := Expr{n.args[0]}.Width()
		return applyUnary(n.op, int(n.width), aw, uint(n.val), a), nil
	case OpIte:
		pick := n.args[2]
		if a != 0 {
			pick = n.args[1]
		}
		return ev.eval(Expr{pick})
	}
	b, err := ev.eval(Expr{n.args[1]})
	if err != nil {
		return 0, err
	}
	return applyBinary(n.op, Expr{n.args[0]}.Width(), a, b), nil
}

// walk calls f once for every distinct sub-term of es, children first.
func walk(es []Expr, f func(Expr)) {
	seen := make(map[Expr]struct{})
	var visit func(Expr)
	visit = func(e Expr) {
		if _, ok := seen[e]; ok {
			return
		}
		seen[e] = struct{}{}
		n := e.n()
		for i := 0; i < int(n.nargs); i++ {
			visit(Expr{n.args[i]})
		}
		f(e)
	}
	for _, e := range es {
		visit(e)
	}
}

// Vars returns the sorted, deduplicated names of the variables in es.
func Vars(es ...Expr) []string {
	var names []string
	walk(es, func(e Expr) {
		if e.Op() == OpVar {
			names = append(names, e.Name())
		}
	})
	slices.Sort(names)
	return slices.Compact(names)
}

// VarWidths maps each variable of es to its width (0 for booleans). It
// fails if a name is used with two different widths.
func VarWidths(es ...Expr) (map[string]int, error) {
	widths := make(map[string]int)
	var err error
	walk(es, func(e Expr) {
		if e.Op() != OpVar || err != nil {
			return
		}
		w, ok := widths[e.Name()]
		if ok && w != e.Width() {
			err = fmt.Errorf("solver: variable %q used with widths %d and %d", e.Name(), w, e.Width())
			return
		}
		widths[e.Name()] = e.Width()
	})
	if err != nil {
		return nil, err
	}
	return widths, nil
}
