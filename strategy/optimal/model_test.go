// This file checks Optimal-DPOR on programs with condition variables and
// monitors, whose waiters' enabledness the strategy takes from package
// model: one execution per trace of exhaustive search, no decision left to
// chance.

package optimal_test

import (
	"testing"

	"github.com/weft-go/weft"
	"github.com/weft-go/weft/internal/checktest"
	"github.com/weft-go/weft/strategy/optimal"
)

// compareOptimal explores body with exhaustive search and with optimal
// (checking the work it keeps), and reports to t unless exhaustive search
// finds traces distinct traces (complete and failed) and optimal finds the
// same ones. It returns optimal's outcome and statistics.
func compareOptimal(t *testing.T, body func(w *weft.T), traces int) (*checktest.Outcome, optimal.Stats) {
	t.Helper()
	ex, err := checktest.ExploreRecorded(body, "exhaustive", 0)
	if err != nil {
		t.Fatal(err)
	}
	s := optimal.New()
	s.SetVerify(true)
	opt, err := checktest.ExploreWith(body, s, "optimal", 0)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(ex.Forms) + len(ex.FailForms); n != traces {
		t.Errorf("exhaustive search found %d traces, want %d", n, traces)
	}
	if d := checktest.DiffSets(checktest.KeysOf(ex.Forms), checktest.KeysOf(opt.Forms)); d != "" {
		t.Errorf("complete traces differ: %s", d)
	}
	if d := checktest.DiffSets(checktest.KeysOf(ex.FailForms), checktest.KeysOf(opt.FailForms)); d != "" {
		t.Errorf("failing traces differ: %s", d)
	}
	return opt, s.Stats()
}

// TestOptimalModel checks optimal against exhaustive search on programs
// with Conds and monitors: the same traces, each once, none cut, and every
// enabledness decision taken by the model.
func TestOptimalModel(t *testing.T) {
	for _, c := range checktest.ModelPrograms {
		t.Run(c.Name, func(t *testing.T) {
			opt, st := compareOptimal(t, c.Body, c.Traces)
			if got := len(opt.Forms) + len(opt.FailForms); opt.Executions != c.Traces || opt.Cut != 0 {
				t.Errorf("optimal: %d executions, %d distinct traces, %d cut; want %d, none cut", opt.Executions, got, opt.Cut, c.Traces)
			}
			if st.Unmodelled != 0 || st.Infeasible != 0 || st.SleepBlocked != 0 {
				t.Errorf("strategy anomalies %+v", st)
			}
		})
	}
}

// TestOptimalTimers checks that optimal finds every trace exhaustive search
// finds in programs with sleeps and timers, and pins the counts.
func TestOptimalTimers(t *testing.T) {
	for _, c := range checktest.TimerPrograms {
		t.Run(c.Name, func(t *testing.T) {
			opt, _ := compareOptimal(t, c.Body, c.Traces)
			if !opt.Exhausted || opt.Executions != c.Execs {
				t.Errorf("optimal: %d executions (exhausted %v), want %d", opt.Executions, opt.Exhausted, c.Execs)
			}
		})
	}
}
