// This file checks the units SplitLarge hands out under the runtime, each
// explored while its splitter goes on, and pins the executions repeated.

package optimal_test

import (
	"testing"

	"github.com/weft-go/weft"
	"github.com/weft-go/weft/programs"
	"github.com/weft-go/weft/strategy/optimal"
	"github.com/weft-go/weft/strategy/strategytest"
)

// TestLargeUnitsDelayed divides the explorations of fib n=3 (1698 traces)
// and indexer n=13 (64) with SplitLarge after every eighth execution, two
// levels deep (fib one level deep too), each unit explored three
// executions of its splitter late (strategytest.Divide), as parallel
// workers explore them: the final states are the undivided exploration's,
// none is cut, and the executions are pinned: indexer's are exact, fib
// repeats 386 two levels deep (its units split SplitLarge's units again;
// 201 when they split Split's, which repeated more in parallel runs) and
// 192 one level deep. Before Join dropped
// the wakeup sequences that a branch handed out in another unit covers,
// fib took 10,974 and indexer 96. When units handed the new branches of
// the states their wakeup trees go through back to their splitter, fib
// took 2003 and 1698, but other schedules lost traces or repeated a
// unit's subtree many times over (doc.go); TestDividedLarge, in package
// weft's tests, checks the traces on generated programs.
func TestLargeUnitsDelayed(t *testing.T) {
	for _, c := range []struct {
		program       string
		params        map[string]int
		depth         int
		execs, finals int
	}{
		{"fib", map[string]int{"n": 3}, 2, 2084, 92},
		{"indexer", map[string]int{"n": 13}, 2, 64, 1},
		// Units that split no further.
		{"fib", map[string]int{"n": 3}, 1, 1890, 92},
	} {
		d := strategytest.Divide(optimal.New(), strategytest.UnitOptions{Every: 8, Depth: c.depth, Delay: 3, Large: true})
		r, err := weft.Explore(programs.Lookup(c.program).MustBody(c.params), weft.WithCustomStrategy(d), weft.KeepGoing(), weft.WithMaxRuns(0))
		if err == nil {
			err = d.Err()
		}
		if err != nil {
			t.Fatalf("%s %v: %v", c.program, c.params, err)
		}
		if !r.Exhausted || r.Executions != c.execs || r.Cut != 0 || len(r.Failures) != 0 || r.FinalStates != c.finals {
			t.Errorf("%s %v: %d executions (%d cut, %d failure kinds, %d final states, exhausted %v), want %d, none cut, %d final states",
				c.program, c.params, r.Executions, r.Cut, len(r.Failures), r.FinalStates, r.Exhausted, c.execs, c.finals)
		}
	}
}
