package rt_test

import (
	"strings"
	"testing"

	"github.com/weft-go/weft"
	"github.com/weft-go/weft/std/rt"
)

// TestSub checks that Sub runs a subtest's function as an exploration: its
// body runs once per execution, with channels that are weft's.
func TestSub(t *testing.T) {
	calls := 0
	t.Run("sends", rt.Sub(func(t *testing.T) {
		calls++
		ch := rt.MakeChan(make(chan int))
		for i := range 2 {
			rt.Go(func() { rt.Of("", ch).Send(i) })
		}
		rt.Of("", ch).Recv()
		rt.Of("", ch).Recv()
	}))
	if calls != 2 {
		t.Errorf("the body ran %d times, want 2 (the first receive gets one sender's value or the other's)", calls)
	}
}

// TestRefusedInsideExecution checks that t.Run and t.Parallel called
// inside an execution (through a helper the rewriting could not follow)
// fail it with a message naming the call.
func TestRefusedInsideExecution(t *testing.T) {
	for _, c := range []struct {
		name string
		call func()
		want string
	}{
		{"Run", func() { rt.Run(t, "inner", func(*testing.T) {}) }, "t.Run: called inside an exploration"},
		{"Parallel", func() { rt.Parallel(t) }, "t.Parallel: called inside an exploration (from a helper)"},
	} {
		r, err := weft.Explore(func(w *weft.T) { c.call() })
		if err != nil {
			t.Fatal(err)
		}
		if !r.Failed() || r.Failures[0].Kind.String() != "assertion" || !strings.Contains(r.Failures[0].Message, c.want) {
			t.Errorf("%s: failures %+v, want an assertion %q", c.name, r.Failures, c.want)
		}
	}
}
