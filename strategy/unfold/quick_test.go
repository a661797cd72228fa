package unfold

import (
	"testing"

	"github.com/weft-go/weft/strategy/strategytest"
)

func TestQuick(t *testing.T) {
	p := &strategytest.Program{Vars: 2, Threads: [][]strategytest.Stmt{
		{{Kind: strategytest.Load, Obj: 0}, {Kind: strategytest.Store, Obj: 1, Val: 1}},
		{{Kind: strategytest.Load, Obj: 0}, {Kind: strategytest.Store, Obj: 1, Val: 2}},
	}}
	for _, naive := range []bool{false, true} {
		s := New(Options{Naive: naive})
		r, err := strategytest.Run(s, p, 100)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("naive=%v %+v err=%v sched=%v", naive, s.Stats(), s.Err(), r.Schedules)
	}
}
