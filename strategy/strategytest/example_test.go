// This file shows the runner at work on the CS294-32 DPOR slides' xy program.

package strategytest_test

import (
	"fmt"

	"github.com/weft-go/weft/strategy/exhaustive"
	"github.com/weft-go/weft/strategy/strategytest"
)

func ExampleRun() {
	// T1 stores v0 then v1, T2 stores v1 then v0.
	p := &strategytest.Program{Vars: 2, Threads: [][]strategytest.Stmt{
		{{Kind: strategytest.Store, Obj: 0, Val: 1}, {Kind: strategytest.Store, Obj: 1, Val: 2}},
		{{Kind: strategytest.Store, Obj: 1, Val: 3}, {Kind: strategytest.Store, Obj: 0, Val: 4}},
	}}
	r, err := strategytest.Run(exhaustive.New(), p, 1000)
	if err != nil {
		panic(err)
	}
	fmt.Println(r.Executions, "executions:", r.Schedules)
	fmt.Println(len(r.Traces), "traces,", len(r.Finals), "final states")
	fmt.Println(strategytest.Interleavings(p), "interleavings")
	// Output:
	// 6 executions: [1122 1212 1221 2112 2121 2211]
	// 3 traces, 3 final states
	// 6 interleavings
}
