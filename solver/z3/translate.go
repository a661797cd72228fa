//go:build cgo

// This file implements the translation of solver.Expr DAGs into the flat
// post-order node program that bridge.c turns into Z3 terms.

package z3

/*
#include "bridge.h"
*/
import "C"

import (
	"fmt"

	"github.com/weft-go/weft/solver"
)

// opCodes maps solver operators to bridge.h codes.
var opCodes = map[solver.Op]C.uint8_t{
	solver.OpConst: C.WEFT_CONST, solver.OpVar: C.WEFT_VAR,
	solver.OpAdd: C.WEFT_ADD, solver.OpSub: C.WEFT_SUB, solver.OpMul: C.WEFT_MUL,
	solver.OpSDiv: C.WEFT_SDIV, solver.OpUDiv: C.WEFT_UDIV,
	solver.OpSRem: C.WEFT_SREM, solver.OpURem: C.WEFT_UREM,
	solver.OpNeg: C.WEFT_NEG, solver.OpAnd: C.WEFT_AND, solver.OpOr: C.WEFT_OR,
	solver.OpXor: C.WEFT_XOR, solver.OpNot: C.WEFT_NOT,
	solver.OpShl: C.WEFT_SHL, solver.OpLShr: C.WEFT_LSHR, solver.OpAShr: C.WEFT_ASHR,
	solver.OpZeroExt: C.WEFT_ZEXT, solver.OpSignExt: C.WEFT_SEXT, solver.OpExtract: C.WEFT_EXTRACT,
	solver.OpEq: C.WEFT_EQ, solver.OpNe: C.WEFT_NE,
	solver.OpSlt: C.WEFT_SLT, solver.OpSle: C.WEFT_SLE, solver.OpSgt: C.WEFT_SGT, solver.OpSge: C.WEFT_SGE,
	solver.OpUlt: C.WEFT_ULT, solver.OpUle: C.WEFT_ULE, solver.OpUgt: C.WEFT_UGT, solver.OpUge: C.WEFT_UGE,
	solver.OpImplies: C.WEFT_IMPLIES, solver.OpIte: C.WEFT_ITE,
}

// program is a reusable translation buffer for one query.
type program struct {
	nodes    []C.weft_node
	names    []byte // NUL-terminated variable names
	index    map[solver.Expr]int32
	roots    []C.int32_t // node of each constraint
	vars     []C.int32_t // node of each variable, in varNames order
	varNames []string
	widths   map[string]int
}

func (p *program) reset() {
	p.nodes = p.nodes[:0]
	p.names = p.names[:0]
	p.roots = p.roots[:0]
	p.vars = p.vars[:0]
	p.varNames = p.varNames[:0]
	if p.index == nil {
		p.index = make(map[solver.Expr]int32)
		p.widths = make(map[string]int)
	}
	clear(p.index)
	clear(p.widths)
}

// load translates the constraints, checking that they are boolean and
// that each variable has one width.
func (p *program) load(cs []solver.Expr) error {
	p.reset()
	for i, e := range cs {
		if !e.IsValid() || !e.IsBool() {
			return fmt.Errorf("z3: constraint %d is not boolean", i)
		}
		r, err := p.add(e)
		if err != nil {
			return err
		}
		p.roots = append(p.roots, C.int32_t(r))
	}
	return nil
}

func (p *program) add(e solver.Expr) (int32, error) {
	if i, ok := p.index[e]; ok {
		return i, nil
	}
	var nd C.weft_node
	var args [3]int32
	for k := 0; k < e.NumArgs(); k++ {
		a, err := p.add(e.Arg(k))
		if err != nil {
			return 0, err
		}
		args[k] = a
	}
	nd.a, nd.b, nd.c = C.uint32_t(args[0]), C.uint32_t(args[1]), C.uint32_t(args[2])
	nd.op = opCodes[e.Op()]
	nd.width = C.uint8_t(e.Width())
	switch e.Op() {
	case solver.OpConst:
		v, _ := e.Const()
		nd.val = C.uint64_t(v)
	case solver.OpVar:
		name := e.Name()
		if w, ok := p.widths[name]; ok {
			return 0, fmt.Errorf("z3: variable %q used with widths %d and %d", name, w, e.Width())
		}
		p.widths[name] = e.Width()
		nd.val = C.uint64_t(len(p.names))
		p.names = append(append(p.names, name...), 0)
	case solver.OpZeroExt, solver.OpSignExt:
		nd.val = C.uint64_t(e.Width() - e.Arg(0).Width())
	case solver.OpExtract:
		nd.val = C.uint64_t(e.Lo())
	}
	if nd.op == 0 {
		return 0, fmt.Errorf("z3: unsupported operator %s", e.Op())
	}
	i := int32(len(p.nodes))
	p.nodes = append(p.nodes, nd)
	p.index[e] = i
	if e.Op() == solver.OpVar {
		p.vars = append(p.vars, C.int32_t(i))
		p.varNames = append(p.varNames, e.Name())
	}
	return i, nil
}
