// This file tests explorations that run at the same time in one process:
// each gets the result it gets alone (run it with -race too).

package weft_test

import (
	"fmt"
	"maps"
	"slices"
	"sync"
	"testing"

	"github.com/weft-go/weft"
	"github.com/weft-go/weft/programs"
)

// TestParallelExplorations runs several explorations of built-in programs
// from goroutines of their own, twice each at the same time, and checks
// that each gives the numbers it gives when it runs alone. The goroutines
// build their programs' objects while the others explore, which is no
// misuse (it was one, when a global held the running exploration).
func TestParallelExplorations(t *testing.T) {
	type run struct {
		program  string
		params   map[string]int
		strategy string
	}
	runs := []run{
		{"fib", map[string]int{"n": 3}, "optimal"},
		{"indexer", map[string]int{"n": 12}, "dpor-cr+sleep"},
		{"dining", map[string]int{"n": 3}, "exhaustive"},
		{"dporproblem", nil, "flip+sleep"},
		{"bbmonitor", map[string]int{"producers": 2, "consumers": 2}, "optimal"},
	}
	summary := func(r *weft.Result) string {
		return fmt.Sprintf("executions %d complete %d cut %d failures %v finals %d events %d exhausted %v",
			r.Executions, r.Complete, r.Cut, r.FailureCounts, r.FinalStates, r.Events, r.Exhausted)
	}
	explore := func(rn run) (string, error) {
		r, err := weft.Explore(programs.Lookup(rn.program).MustBody(rn.params), weft.WithStrategy(rn.strategy), weft.KeepGoing())
		if err != nil {
			return "", err
		}
		return summary(r), nil
	}
	alone := map[int]string{}
	for i, rn := range runs {
		s, err := explore(rn)
		if err != nil {
			t.Fatalf("%s alone: %v", rn.program, err)
		}
		alone[i] = s
	}
	var (
		mu       sync.Mutex
		together = map[int][]string{}
		wg       sync.WaitGroup
	)
	for i, rn := range runs {
		for range 2 {
			wg.Go(func() {
				s, err := explore(rn)
				if err != nil {
					s = "error: " + err.Error()
				}
				mu.Lock()
				together[i] = append(together[i], s)
				mu.Unlock()
			})
		}
	}
	wg.Wait()
	for _, i := range slices.Sorted(maps.Keys(together)) {
		for _, s := range together[i] {
			if s != alone[i] {
				t.Errorf("%s under %s at the same time as the others: %s; alone: %s", runs[i].program, runs[i].strategy, s, alone[i])
			}
		}
	}
}
