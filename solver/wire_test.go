// This file tests the wire form of Exprs: round trips, sharing, gob, and
// the errors on corrupt input.

package solver

import (
	"bytes"
	"encoding/gob"
	"errors"
	"strings"
	"testing"
)

// wireTerms returns terms of every operator and sort.
func wireTerms() []Expr {
	x, y := Var("x", 8), Var("y", 8)
	w := Var("w", 64)
	p, q := BoolVar("p"), BoolVar("q")
	return []Expr{
		Const(200, 8), Const(1<<63|5, 64), True, False, x, p, w,
		Add(x, y), Sub(x, y), Mul(x, Const(3, 8)), SDiv(x, y), UDiv(x, y), SRem(x, y), URem(x, y), Neg(x),
		And(x, y), Or(x, y), Xor(x, y), Not(x), And(p, q), Or(p, q), Xor(p, q), Not(p),
		Shl(x, y), LShr(x, y), AShr(x, y),
		ZeroExt(x, 32), SignExt(x, 64), Extract(w, 40, 9), Trunc(w, 1),
		Eq(x, y), Eq(p, q), Ne(x, y), Slt(x, y), Sle(x, y), Sgt(x, y), Sge(x, y), Ult(x, y), Ule(x, y), Ugt(x, y), Uge(x, y),
		Implies(p, q), Ite(p, x, y), Ite(Slt(x, y), p, q),
		Eq(Add(SignExt(x, 64), w), Mul(w, Const(7, 64))),
	}
}

func TestWireRoundTrip(t *testing.T) {
	es := append(wireTerms(), Expr{}) // the zero Expr has a form too
	got, err := DecodeExprs(EncodeExprs(es))
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(es) {
		t.Fatalf("%d terms decoded, want %d", len(got), len(es))
	}
	for i := range es {
		if got[i] != es[i] {
			t.Errorf("term %d: %v decoded as %v", i, es[i], got[i])
		}
	}
	if got, err := DecodeExprs(EncodeExprs(nil)); err != nil || len(got) != 0 {
		t.Errorf("no terms: %v, %v", got, err)
	}
}

// TestWireSharing: a term whose sub-terms are shared is written once per
// distinct sub-term: a chain of 1,000 doublings, a tree of 2^1000 paths,
// takes 1,002 terms of a few bytes each.
func TestWireSharing(t *testing.T) {
	e := Var("x", 32)
	for range 1000 {
		e = Add(e, e)
	}
	b := EncodeExprs([]Expr{e, e})
	if len(b) > 6*1000 {
		t.Errorf("%d bytes for 1,001 distinct sub-terms", len(b))
	}
	got, err := DecodeExprs(b)
	if err != nil || len(got) != 2 || got[0] != e || got[1] != e {
		t.Errorf("decoded %d terms, %v", len(got), err)
	}
}

// TestWireGob: an Expr is a field encoding/gob encodes, the zero one
// included.
func TestWireGob(t *testing.T) {
	type labelled struct {
		Cond, None Expr
		List       []Expr
	}
	in := labelled{Cond: Slt(Var("r1.0", 16), Const(10, 16)), List: wireTerms()}
	var buf bytes.Buffer
	if err := gob.NewEncoder(&buf).Encode(in); err != nil {
		t.Fatal(err)
	}
	var out labelled
	if err := gob.NewDecoder(&buf).Decode(&out); err != nil {
		t.Fatal(err)
	}
	if out.Cond != in.Cond || out.None.IsValid() || len(out.List) != len(in.List) {
		t.Fatalf("gob gave %+v", out)
	}
	for i := range in.List {
		if out.List[i] != in.List[i] {
			t.Errorf("term %d: %v decoded as %v", i, in.List[i], out.List[i])
		}
	}
}

// TestWireCorrupt: every prefix of a form, and every form with a byte
// changed, either decodes or returns an error wrapping ErrCorruptExpr;
// none panics. The errors of a few corruptions say what is wrong.
func TestWireCorrupt(t *testing.T) {
	good := EncodeExprs(wireTerms())
	for n := range len(good) {
		if _, err := DecodeExprs(good[:n]); !errors.Is(err, ErrCorruptExpr) {
			t.Fatalf("the first %d of %d bytes: %v, want ErrCorruptExpr", n, len(good), err)
		}
	}
	for i := range good {
		for _, v := range []byte{0, 1, 0x7f, 0x80, 0xff, good[i] + 1} {
			b := bytes.Clone(good)
			b[i] = v
			if _, err := DecodeExprs(b); err != nil && !errors.Is(err, ErrCorruptExpr) {
				t.Fatalf("byte %d set to %d: %v, want nil or ErrCorruptExpr", i, v, err)
			}
		}
	}
	x := Var("x", 8)
	for _, c := range []struct {
		name string
		b    []byte
		want string
	}{
		{"version", append([]byte{9}, good[1:]...), "wire version 9, this weft reads version 1"},
		{"operator", []byte{1, 1, 200, 8, 1, 1}, "term 0: unknown operator 200"},
		{"forward reference", []byte{1, 1, byte(OpNeg), 8, 0, 1, 1}, "term 0: neg: operand 0 refers to term 0, not written before"},
		{"width", []byte{1, 1, byte(OpConst), 65, 0, 1, 1}, "term 0: const of width 65"},
		{"left over", append(EncodeExprs([]Expr{x}), 0), "1 bytes left over"},
		{"count", []byte{1, 100}, "100 terms in 0 bytes"},
	} {
		_, err := DecodeExprs(c.b)
		if !errors.Is(err, ErrCorruptExpr) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want ErrCorruptExpr saying %q", c.name, err, c.want)
		}
	}
	// Ill-sorted operands: x + p.
	b := []byte{1, 3,
		byte(OpVar), 8, 1, 'x',
		byte(OpVar), 0, 1, 'p',
		byte(OpAdd), 8, 0, 1,
		1, 3}
	if _, err := DecodeExprs(b); !errors.Is(err, ErrCorruptExpr) || !strings.Contains(err.Error(), "term 2: solver: add: operand p is boolean") {
		t.Errorf("x + p: %v, want ErrCorruptExpr on term 2's sorts", err)
	}
	var e Expr
	if err := e.UnmarshalBinary(EncodeExprs([]Expr{x, x})); !errors.Is(err, ErrCorruptExpr) {
		t.Errorf("two terms into one Expr: %v", err)
	}
}
