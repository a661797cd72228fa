// This file tests Expr construction: hash-consing, folding, printing,
// sort checks, Vars, Eval errors, Key and Components.

package solver

import (
	"slices"
	"strings"
	"testing"
)

func TestHashConsing(t *testing.T) {
	a := Add(Var("x", 32), Mul(Var("y", 32), Const(3, 32)))
	b := Add(Var("x", 32), Mul(Var("y", 32), Const(3, 32)))
	if a != b || a.Hash() != b.Hash() {
		t.Errorf("structurally equal terms differ: %s vs %s", a, b)
	}
	if Var("x", 32) == Var("x", 16) || Const(1, 8) == Const(1, 16) || Var("x", 8) == Var("y", 8) {
		t.Error("terms of different sorts or names are equal")
	}
	m := map[Expr]int{a: 1}
	if m[b] != 1 {
		t.Error("Expr is not usable as a map key")
	}
}

func TestFoldingAndPrinting(t *testing.T) {
	x, y := Var("x", 8), Var("y", 8)
	p, q := BoolVar("p"), BoolVar("q")
	tests := []struct {
		e    Expr
		want string
	}{
		{Add(Const(200, 8), Const(100, 8)), "44:8"},
		{Add(Const(3, 8), x), "x + 3:8"}, // constants move right
		{Add(x, Const(0, 8)), "x"},
		{Mul(x, Const(1, 8)), "x"},
		{Mul(x, Const(0, 8)), "0:8"},
		{Sub(x, x), "0:8"},
		{And(x, Const(255, 8)), "x"},
		{Or(x, Const(255, 8)), "255:8"},
		{Not(Not(x)), "x"},
		{Neg(Neg(x)), "x"},
		{Neg(Const(1, 8)), "255:8"},
		{Eq(x, x), "true"},
		{Ult(x, x), "false"},
		{And(p, True), "p"},
		{And(False, p), "false"},
		{Or(p, True), "true"},
		{Implies(False, p), "true"},
		{Implies(p, False), "!p"},
		{Eq(p, True), "p"},
		{Ne(p, q), "p ^ q"},
		{Ite(True, x, y), "x"},
		{Ite(p, x, x), "x"},
		{ZeroExt(x, 8), "x"},
		{Extract(x, 7, 0), "x"},
		{SignExt(Const(0x80, 8), 16), "65408:16"},
		{Trunc(Const(0x1234, 16), 8), "52:8"},
		{Slt(Add(x, Const(1, 8)), y), "(x + 1:8) <s y"},
		{And(Ule(x, y), Not(Eq(x, Const(0, 8)))), "(x <=u y) && !(x == 0:8)"},
		{Or(Xor(x, y), Not(x)), "(x ^ y) | ~x"},
		{Ite(p, SDiv(x, y), URem(x, y)), "ite(p, x /s y, x %u y)"},
		{Extract(ZeroExt(x, 32), 15, 4), "zext32(x)[15:4]"},
		{AShr(SignExt(x, 16), LShr(Var("s", 16), Shl(Var("s", 16), Const(2, 16)))), "sext16(x) >>s (s >>u (s << 2:16))"},
		{Implies(p, Or(p, q)), "p => (p || q)"},
		{Conj(), "true"},
		{Conj(p, q), "p && q"},
	}
	for _, tc := range tests {
		if got := tc.e.String(); got != tc.want {
			t.Errorf("got %q, want %q", got, tc.want)
		}
	}
	if got := (Expr{}).String(); got != "<invalid>" {
		t.Errorf("zero Expr prints %q", got)
	}
}

func TestSortErrorsPanic(t *testing.T) {
	x8, x16, p := Var("x", 8), Var("y", 16), BoolVar("p")
	tests := map[string]func(){
		"width mismatch":    func() { Add(x8, x16) },
		"bool arithmetic":   func() { Add(p, p) },
		"bool comparison":   func() { Ult(p, p) },
		"bv implies":        func() { Implies(x8, x8) },
		"bv condition":      func() { Ite(x8, x8, x8) },
		"ite branch sorts":  func() { Ite(p, x8, x16) },
		"width 0":           func() { Var("z", 0) },
		"width 65":          func() { Const(0, 65) },
		"narrowing ext":     func() { ZeroExt(x16, 8) },
		"extract too high":  func() { Extract(x8, 8, 0) },
		"extract reversed":  func() { Extract(x8, 2, 3) },
		"empty name":        func() { Var("", 8) },
		"zero Expr operand": func() { Neg(Expr{}) },
	}
	for name, f := range tests {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: no panic", name)
				}
			}()
			f()
		}()
	}
}

func TestVarsAndEval(t *testing.T) {
	x, y := Var("x", 16), Var("y", 16)
	shared := Mul(x, y)
	e := And(Eq(Add(shared, shared), Const(12, 16)), BoolVar("b"))
	if got := Vars(e, Ult(y, Var("a", 16))); !slices.Equal(got, []string{"a", "b", "x", "y"}) {
		t.Errorf("Vars = %v", got)
	}
	v, err := Eval(e, Model{"x": 2, "y": 3, "b": 5})
	if err != nil || v != 1 {
		t.Errorf("Eval = %d, %v; want 1", v, err)
	}
	// Model values are truncated to the variable width.
	if v, err := Eval(x, Model{"x": 0x12345}); err != nil || v != 0x2345 {
		t.Errorf("Eval(x) = %#x, %v; want 0x2345", v, err)
	}
	if _, err := Eval(e, Model{"x": 2}); err == nil || !strings.Contains(err.Error(), `"y"`) {
		t.Errorf("Eval with unbound y: err = %v", err)
	}
	if _, err := VarWidths(x, Var("x", 8)); err == nil {
		t.Error("VarWidths accepted x with widths 16 and 8")
	}
	w, err := VarWidths(e)
	if err != nil || w["x"] != 16 || w["b"] != 0 || len(w) != 3 {
		t.Errorf("VarWidths = %v, %v", w, err)
	}
}

func TestKey(t *testing.T) {
	x, y := Var("x", 8), Var("y", 8)
	a, b, c := Ult(x, y), Eq(x, Const(3, 8)), Eq(Var("x", 16), Const(3, 16))
	if Key([]Expr{a, b}) != Key([]Expr{b, a, b}) {
		t.Error("Key depends on order or duplicates")
	}
	keys := map[string]bool{}
	for _, set := range [][]Expr{{a}, {b}, {c}, {a, b}, {a, c}, {Eq(x, Const(4, 8))}, {Eq(Var("xx", 8), Const(3, 8))}} {
		keys[Key(set)] = true
	}
	if len(keys) != 7 {
		t.Errorf("distinct sets share keys: %d distinct keys of 7", len(keys))
	}
	// Sharing keeps the key linear: 60 doublings would be 2^60 as a tree.
	e := x
	for range 60 {
		e = Add(e, e)
	}
	if k := Key([]Expr{Eq(e, y)}); len(k) > 1000 {
		t.Errorf("key of a shared term has %d bytes", len(k))
	}
}

func TestComponents(t *testing.T) {
	v := func(n string) Expr { return Var(n, 8) }
	cs := []Expr{
		Ult(v("a"), v("b")),     // 0
		Eq(v("c"), Const(1, 8)), // 1
		True,                    // 2
		Ult(v("d"), v("c")),     // 3
		Ult(v("b"), v("e")),     // 4
		Eq(v("d"), v("f")),      // 5
	}
	want := [][]int{{0, 4}, {1, 3, 5}, {2}}
	if got := Components(cs); !slices.EqualFunc(got, want, slices.Equal) {
		t.Errorf("Components = %v, want %v", got, want)
	}
	for target, w := range map[int][]int{0: {0, 4}, 5: {1, 3, 5}, 2: {2}} {
		if got := Slice(cs, target); !slices.Equal(got, w) {
			t.Errorf("Slice(%d) = %v, want %v", target, got, w)
		}
	}
}

func TestLRU(t *testing.T) {
	l := newLRU(2)
	l.put("a", &entry{status: Sat})
	l.put("b", &entry{status: Sat})
	l.get("a") // a is now most recent
	l.put("c", &entry{status: Unsat})
	if _, ok := l.get("b"); ok {
		t.Error("b survived eviction")
	}
	if _, ok := l.get("a"); !ok || l.len() != 2 {
		t.Errorf("a evicted or wrong size %d", l.len())
	}
	off := newLRU(-1)
	off.put("a", &entry{})
	if off.len() != 0 {
		t.Error("disabled cache stored an entry")
	}
}
