// This file implements the wire form of Exprs: a compact, versioned
// encoding of a list of terms that another process decodes to the same
// terms.

package solver

import (
	"encoding/binary"
	"errors"
	"fmt"
)

// WireVersion is the version of the wire form EncodeExprs writes, its
// first byte. DecodeExprs reads this version only.
const WireVersion = 1

// ErrCorruptExpr is wrapped by the errors of DecodeExprs and
// Expr.UnmarshalBinary for bytes that are not the wire form of terms:
// corrupt, truncated, or written by another version.
var ErrCorruptExpr = errors.New("not the wire form of weft's solver terms")

// EncodeExprs returns the wire form of es, which may hold zero Exprs.
//
// The form is a version byte, the distinct sub-terms of es in an order
// where each comes after its operands, then es as references to them:
//
//	version  byte (WireVersion)
//	n        uvarint: the number of sub-terms
//	n terms  op byte, width byte, then by op:
//	           const:   uvarint value
//	           var:     uvarint length, the name's bytes
//	           extract: uvarint lowest bit
//	         then one uvarint per operand: the index of an earlier term
//	m        uvarint: the number of roots
//	m roots  uvarint: 0 for the zero Expr, i+1 for term i
//
// A sub-term shared by several terms, or several times by one, is written
// once, so the size is linear in the number of distinct sub-terms.
func EncodeExprs(es []Expr) []byte {
	w := wireWriter{ids: map[Expr]uint64{}}
	for _, e := range es {
		if e.IsValid() {
			w.term(e)
		}
	}
	out := make([]byte, 0, len(w.buf)+len(es)+8)
	out = append(out, WireVersion)
	out = binary.AppendUvarint(out, uint64(len(w.ids)))
	out = append(out, w.buf...)
	out = binary.AppendUvarint(out, uint64(len(es)))
	for _, e := range es {
		if !e.IsValid() {
			out = binary.AppendUvarint(out, 0)
			continue
		}
		out = binary.AppendUvarint(out, w.ids[e]+1)
	}
	return out
}

// wireWriter writes the sub-terms of terms, each once, operands first.
type wireWriter struct {
	buf []byte
	ids map[Expr]uint64
}

func (w *wireWriter) term(e Expr) {
	if _, ok := w.ids[e]; ok {
		return
	}
	n := e.n()
	for i := 0; i < int(n.nargs); i++ {
		w.term(Expr{n.args[i]})
	}
	w.buf = append(w.buf, byte(n.op), n.width)
	switch n.op {
	case OpConst, OpExtract:
		w.buf = binary.AppendUvarint(w.buf, n.val)
	case OpVar:
		w.buf = binary.AppendUvarint(w.buf, uint64(len(n.name)))
		w.buf = append(w.buf, n.name...)
	}
	for i := 0; i < int(n.nargs); i++ {
		w.buf = binary.AppendUvarint(w.buf, w.ids[Expr{n.args[i]}])
	}
	w.ids[e] = uint64(len(w.ids))
}

// DecodeExprs returns the terms whose wire form EncodeExprs wrote in b,
// equal (==) to those encoded. It returns an error wrapping
// ErrCorruptExpr, saying what is wrong, if b is no such form: another
// version, an unknown operator, ill-sorted operands, a reference to a
// term not written before, bytes missing or left over.
func DecodeExprs(b []byte) ([]Expr, error) {
	r := wireReader{b: b}
	es, err := r.exprs()
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrCorruptExpr, err)
	}
	return es, nil
}

// wireReader reads a wire form.
type wireReader struct {
	b   []byte
	off int
}

func (r *wireReader) exprs() ([]Expr, error) {
	if len(r.b) == 0 {
		return nil, errors.New("no bytes")
	}
	if v := r.b[0]; v != WireVersion {
		return nil, fmt.Errorf("wire version %d, this weft reads version %d", v, WireVersion)
	}
	r.off = 1
	// Each term takes two bytes at least, each root one: a count larger
	// than the bytes left is corrupt, and allocates nothing.
	n, err := r.count(2, "terms")
	if err != nil {
		return nil, err
	}
	terms := make([]Expr, 0, n)
	for i := range n {
		e, err := r.term(terms)
		if err != nil {
			return nil, fmt.Errorf("term %d: %v", i, err)
		}
		terms = append(terms, e)
	}
	m, err := r.count(1, "roots")
	if err != nil {
		return nil, err
	}
	out := make([]Expr, m)
	for i := range out {
		ref, err := r.uvarint()
		if err != nil {
			return nil, fmt.Errorf("root %d: %v", i, err)
		}
		if ref > uint64(len(terms)) {
			return nil, fmt.Errorf("root %d refers to term %d of %d", i, ref-1, len(terms))
		}
		if ref > 0 {
			out[i] = terms[ref-1]
		}
	}
	if r.off != len(r.b) {
		return nil, fmt.Errorf("%d bytes left over", len(r.b)-r.off)
	}
	return out, nil
}

// count reads a count of items of at least size bytes each.
func (r *wireReader) count(size int, what string) (int, error) {
	n, err := r.uvarint()
	if err != nil {
		return 0, fmt.Errorf("the number of %s: %v", what, err)
	}
	if n > uint64((len(r.b)-r.off)/size) {
		return 0, fmt.Errorf("%d %s in %d bytes", n, what, len(r.b)-r.off)
	}
	return int(n), nil
}

func (r *wireReader) uvarint() (uint64, error) {
	v, k := binary.Uvarint(r.b[r.off:])
	if k <= 0 {
		return 0, errors.New("a truncated or overlong number")
	}
	r.off += k
	return v, nil
}

// arity returns the number of operands of op, or -1 for no operator.
func arity(op Op) int {
	switch op {
	case OpConst, OpVar:
		return 0
	case OpNeg, OpNot, OpZeroExt, OpSignExt, OpExtract:
		return 1
	case OpIte:
		return 3
	case OpInvalid:
		return -1
	}
	if op < numOps {
		return 2
	}
	return -1
}

// term reads a term whose operands are among terms.
func (r *wireReader) term(terms []Expr) (Expr, error) {
	if len(r.b)-r.off < 2 {
		return Expr{}, errors.New("truncated")
	}
	op, width := Op(r.b[r.off]), int(r.b[r.off+1])
	r.off += 2
	nargs := arity(op)
	switch {
	case nargs < 0:
		return Expr{}, fmt.Errorf("unknown operator %d", uint8(op))
	case width > MaxWidth:
		return Expr{}, fmt.Errorf("%v of width %d", op, width)
	}
	var val uint64
	var name string
	switch op {
	case OpConst, OpExtract:
		v, err := r.uvarint()
		if err != nil {
			return Expr{}, fmt.Errorf("%v: %v", op, err)
		}
		val = v
	case OpVar:
		l, err := r.uvarint()
		if err != nil || l == 0 || l > uint64(len(r.b)-r.off) {
			return Expr{}, errors.New("a variable's name is empty or truncated")
		}
		name = string(r.b[r.off : r.off+int(l)])
		r.off += int(l)
	}
	args := make([]Expr, nargs)
	for i := range args {
		ref, err := r.uvarint()
		if err != nil {
			return Expr{}, fmt.Errorf("%v: operand %d: %v", op, i, err)
		}
		if ref >= uint64(len(terms)) {
			return Expr{}, fmt.Errorf("%v: operand %d refers to term %d, not written before", op, i, ref)
		}
		args[i] = terms[ref]
	}
	return make1(op, width, val, name, args)
}

// make1 builds the term read, turning the constructors' panics on
// ill-sorted operands into errors.
func make1(op Op, width int, val uint64, name string, args []Expr) (e Expr, err error) {
	defer func() {
		if p := recover(); p != nil {
			e, err = Expr{}, fmt.Errorf("%v", p)
		}
	}()
	switch op {
	case OpConst:
		if width == 0 {
			if val > 1 {
				return Expr{}, fmt.Errorf("a boolean constant %d", val)
			}
			return Bool(val == 1), nil
		}
		if val&^mask(width) != 0 {
			return Expr{}, fmt.Errorf("constant %d wider than %d bits", val, width)
		}
		return Const(val, width), nil
	case OpVar:
		if width == 0 {
			return BoolVar(name), nil
		}
		return Var(name, width), nil
	case OpExtract:
		if val >= MaxWidth || width == 0 {
			return Expr{}, fmt.Errorf("extract of %d bits from bit %d", width, val)
		}
	}
	e = build(op, width, int(val), args)
	if e.Width() != width {
		return Expr{}, fmt.Errorf("%v of width %d, its operands give %d", op, width, e.Width())
	}
	return e, nil
}

// MarshalBinary implements encoding.BinaryMarshaler (and so encoding/gob)
// with the wire form of e alone (EncodeExprs); the zero Expr has one too.
func (e Expr) MarshalBinary() ([]byte, error) {
	return EncodeExprs([]Expr{e}), nil
}

// UnmarshalBinary implements encoding.BinaryUnmarshaler: it sets e to the
// term of a wire form MarshalBinary wrote, or returns an error wrapping
// ErrCorruptExpr.
func (e *Expr) UnmarshalBinary(b []byte) error {
	es, err := DecodeExprs(b)
	if err != nil {
		return err
	}
	if len(es) != 1 {
		return fmt.Errorf("%w: %d terms where one was expected", ErrCorruptExpr, len(es))
	}
	*e = es[0]
	return nil
}
