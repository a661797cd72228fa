// This file tests constant folding and Eval against Go's native arithmetic.

package solver_test

import (
	"testing"

	"github.com/weft-go/weft/solver"
	"github.com/weft-go/weft/solver/internal/gocases"
)

func TestGoSemantics(t *testing.T) {
	cases := gocases.Cases(1, 8)
	if len(cases) < 500 {
		t.Fatalf("only %d cases", len(cases))
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
