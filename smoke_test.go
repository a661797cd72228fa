package weft_test

import (
	"testing"

	"github.com/weft-go/weft"
)

func TestSmokeXY(t *testing.T) {
	r, err := weft.Explore(func(w *weft.T) {
		var x, y weft.Var[int]
		w.Go(func() { x.Store(1); y.Store(2) })
		w.Go(func() { y.Store(3); x.Store(4) })
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%+v", r)
	if r.Executions != 6 {
		t.Fatalf("executions %d", r.Executions)
	}
}
