// This file tests Rename.

package solver

import "testing"

// TestRename: a variable vars names is replaced, another is kept.
func TestRename(t *testing.T) {
	x, y, z := Var("x", 8), Var("y", 8), Var("z", 8)
	got := Rename(Add(x, y), map[Expr]Expr{}, map[string]Expr{"x": z})
	if want := Add(z, y); got != want {
		t.Errorf("Rename(x+y, x→z) = %v, want %v", got, want)
	}
}
