// This file tests constant folding and Eval against Go's native arithmetic.

package solver_test

import (
	"fmt"
	"testing"

	"github.com/weft-go/weft/solver"
	"github.com/weft-go/weft/solver/internal/gocases"
)

func TestGoSemantics(t *testing.T) {
	cases := gocases.Cases(1, 8)
	// By hand, with 8 cases per operator: each signed type has 16 binary
	// operators, min / -1 and min % -1, negation and complement, and 4
	// divisions by zero; each unsigned type the same but min / -1 and 2
	// divisions by zero; then 8 conversions.
	const signed, unsigned, convs = 16*8 + 2 + 2*8 + 4, 16*8 + 2*8 + 2, 8 * 8
	if want := 4*signed + 4*unsigned + convs; len(cases) != want {
		t.Fatalf("%d cases, want %d", len(cases), want)
	}
	for _, c := range cases {
		var cx, cy, vx, vy solver.Expr
		cx, vx = solver.Const(c.X, c.XWidth), solver.Var("x", c.XWidth)
		model := solver.Model{"x": c.X}
		if c.YWidth > 0 {
			cy, vy = solver.Const(c.Y, c.YWidth), solver.Var("y", c.YWidth)
			model["y"] = c.Y
		}
		folded := c.Build(cx, cy)
		if v, ok := folded.Const(); !ok || v != c.Want {
			t.Errorf("%s: folded to %s, want constant %d", c.Name, folded, c.Want)
		}
		e := c.Build(vx, vy)
		got, err := solver.Eval(e, model)
		if err != nil || got != c.Want {
			t.Errorf("%s: Eval(%s) = %d, %v; want %d", c.Name, e, got, err, c.Want)
		}
	}
}

// leafVar names one variable per width; leafConst replaces it by its
// model value.
func leafVar(w int) solver.Expr {
	if w == 0 {
		return solver.BoolVar("p")
	}
	return solver.Var(fmt.Sprintf("v%d", w), w)
}

var randomModel = solver.Model{"p": 1, "v1": 0, "v8": 0x9c, "v16": 0x8001, "v32": 0xdeadbeef, "v64": 0x8000_0000_0000_0003}

func leafConst(w int) solver.Expr {
	v := leafVar(w)
	if w == 0 {
		return solver.Bool(randomModel[v.Name()] != 0)
	}
	return solver.Const(randomModel[v.Name()], w)
}

// TestFoldingMatchesEval builds random terms twice, with variables and
// with their model values as constants: the constants must fold to Eval's
// value of the variable version.
func TestFoldingMatchesEval(t *testing.T) {
	for i := range 2000 {
		w := gocases.Widths[i%len(gocases.Widths)]
		if i%6 == 5 {
			w = 0
		}
		seed := uint64(i)
		e := gocases.RandomTerm(gocases.NewRand(seed), w, 5, leafVar)
		c := gocases.RandomTerm(gocases.NewRand(seed), w, 5, leafConst)
		want, err := solver.Eval(e, randomModel)
		if err != nil {
			t.Fatalf("Eval(%s): %v", e, err)
		}
		if got, ok := c.Const(); !ok || got != want {
			t.Errorf("seed %d: %s folds to %s, Eval gives %d", seed, e, c, want)
		}
	}
}
