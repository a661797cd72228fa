// This file checks the units Split hands out under the runtime, each
// explored while its splitter goes on, and pins the executions repeated.

package optimal_test

import (
	"testing"

	"github.com/weft-go/weft"
	"github.com/weft-go/weft/internal/long"
	"github.com/weft-go/weft/programs"
	"github.com/weft-go/weft/strategy/optimal"
	"github.com/weft-go/weft/strategy/strategytest"
)

// TestUnitsDelayed divides the explorations of fib n=2 (140 traces), fib
// n=3 (1698), indexer n=13 (64) and dining n=4 (15, one deadlock) with
// Split after every execution and after every third, each unit explored
// three executions of its splitter late (strategytest.Divide; fib n=3
// with WEFT_LONG=1 only, for its seconds): the final
// states are the undivided exploration's, none is cut, and the executions
// are pinned. A wakeup sequence of a unit for a state where the splitter
// has taken another branch since goes where sequential order would have
// put it when that place is still ahead of the splitter (Join); before,
// it went into a unit of its own, and fib n=3 took 6823 and 3100.
func TestUnitsDelayed(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		program       string
		params        map[string]int
		every, execs  int
		finals, kinds int
		long          bool
	}{
		{"fib", map[string]int{"n": 2}, 1, 192, 16, 0, false},
		{"fib", map[string]int{"n": 2}, 3, 142, 16, 0, false},
		{"fib", map[string]int{"n": 3}, 1, 2324, 92, 0, true},
		{"fib", map[string]int{"n": 3}, 3, 1833, 92, 0, true},
		{"indexer", map[string]int{"n": 13}, 1, 64, 1, 0, false},
		{"dining", map[string]int{"n": 4}, 1, 15, 1, 1, false},
	} {
		if c.long && !long.Enabled() {
			continue
		}
		d := strategytest.Divide(optimal.New(), strategytest.UnitOptions{Every: c.every, Delay: 3})
		r, err := weft.Explore(programs.Lookup(c.program).MustBody(c.params), weft.WithCustomStrategy(d), weft.KeepGoing(), weft.WithMaxRuns(0))
		if err == nil {
			err = d.Err()
		}
		if err != nil {
			t.Fatalf("%s %v: %v", c.program, c.params, err)
		}
		if !r.Exhausted || r.Executions != c.execs || r.Cut != 0 || r.FinalStates != c.finals || len(r.Failures) != c.kinds {
			t.Errorf("%s %v, split after every %d: %d executions (%d cut, %d failure kinds, %d final states, exhausted %v), want %d, none cut, %d final states, %d failure kinds",
				c.program, c.params, c.every, r.Executions, r.Cut, len(r.Failures), r.FinalStates, r.Exhausted, c.execs, c.finals, c.kinds)
		}
	}
}
