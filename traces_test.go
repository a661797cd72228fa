// This file gives the tests of this package the explorations that record
// traces (package checktest), with the fields they read.

package weft_test

import (
	"testing"

	"github.com/weft-go/weft"
	"github.com/weft-go/weft/internal/checktest"
	"github.com/weft-go/weft/trace"
)

// traceCollector is what checktest.ExploreTraces recorded: the Foata
// normal forms of the maximal executions, the final states of the
// completed ones, the kinds of failure and the failing executions.
type traceCollector struct {
	maximal, finals map[string]bool
	kinds           map[trace.FailureKind]bool
	failing         map[string]bool
}

// exploreTraces explores body with strategy name (seed as given) to the end.
func exploreTraces(t *testing.T, body func(w *weft.T), name string, seed int64, maxRuns int) (*weft.Result, *traceCollector) {
	t.Helper()
	r, c := checktest.ExploreTraces(t, body, name, seed, maxRuns)
	return r, &traceCollector{maximal: c.Maximal, finals: c.Finals, kinds: c.Kinds, failing: c.Failing}
}

// condChain and condReady are checktest's CondChain and CondReady.
func condChain(broadcast bool) func(w *weft.T) { return checktest.CondChain(broadcast) }
func condReady(rw, loop bool) func(w *weft.T)  { return checktest.CondReady(rw, loop) }

// modelPrograms and timerPrograms are checktest's programs on Conds and
// monitors and on virtual time.
var (
	modelPrograms = checktest.ModelPrograms
	timerPrograms = checktest.TimerPrograms
)
