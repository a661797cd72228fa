// This file tests Conformance: it passes exhaustive search, and reports
// strategies that break what it checks.

package strategytest_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/weft-go/weft/strategy"
	"github.com/weft-go/weft/strategy/exhaustive"
	"github.com/weft-go/weft/strategy/strategytest"
	"github.com/weft-go/weft/trace"
)

// recordingTB records what Conformance reports instead of failing.
type recordingTB struct {
	testing.TB
	errs []string
}

func (r *recordingTB) Helper() {}
func (r *recordingTB) Errorf(format string, args ...any) {
	r.errs = append(r.errs, fmt.Sprintf(format, args...))
}
func (r *recordingTB) Fatalf(format string, args ...any) {
	r.errs = append(r.errs, fmt.Sprintf(format, args...))
	panic(r)
}

// conformance runs Conformance on a recordingTB and returns what it
// reported.
func conformance(newStrategy func() strategy.Strategy, o strategytest.Options) (errs []string) {
	r := &recordingTB{}
	defer func() {
		if p := recover(); p != nil && p != r {
			panic(p)
		}
		errs = r.errs
	}()
	strategytest.Conformance(r, newStrategy, o)
	return r.errs
}

// once runs the first execution of exhaustive search only.
type once struct {
	strategy.Strategy
	ran bool
}

func (o *once) Next() bool {
	if o.ran {
		return false
	}
	o.ran = true
	return o.Strategy.Next()
}

// last chooses the highest enabled thread, forever.
type last struct{}

func (last) Next() bool { return true }
func (last) Choose(s *strategy.State) strategy.Choice {
	for i := len(s.Threads) - 1; ; i-- {
		if s.Threads[i].Alts > 0 {
			return strategy.Choice{Thread: trace.ThreadID(i)}
		}
	}
}
func (last) Input(_ *strategy.State, in strategy.InputRequest) uint64 { return in.Default }
func (last) Finish(*trace.Trace, trace.End)                           {}

// blocked chooses thread 0 whether or not it is enabled.
type blocked struct{ last }

func (blocked) Choose(*strategy.State) strategy.Choice { return strategy.Choice{Thread: 0} }

func TestConformance(t *testing.T) {
	newExhaustive := func() strategy.Strategy { return exhaustive.New() }
	tests := []struct {
		name        string
		newStrategy func() strategy.Strategy
		claims      strategytest.Claims
		executions  int
		want        string // in the first report; "" for none
	}{
		{"exhaustive", newExhaustive, strategytest.Claims{Complete: true, EveryInterleaving: true}, 0, ""},
		{"exhaustive is not optimal", newExhaustive, strategytest.Claims{OnePerTrace: true}, 0, "want one per trace"},
		{"one execution is not complete", func() strategy.Strategy { return &once{Strategy: exhaustive.New()} },
			strategytest.Claims{Complete: true}, 0, "missed what exhaustive search reaches"},
		{"one execution is sound", func() strategy.Strategy { return &once{Strategy: exhaustive.New()} },
			strategytest.Claims{}, 0, ""},
		{"a strategy that never ends runs to the bound", func() strategy.Strategy { return last{} }, strategytest.Claims{}, 7, ""},
		{"a strategy that never ends is not complete", func() strategy.Strategy { return last{} },
			strategytest.Claims{Complete: true}, 0, "did not end its exploration"},
		{"a disabled thread", func() strategy.Strategy { return blocked{} }, strategytest.Claims{}, 5, "which is not enabled"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			errs := conformance(tc.newStrategy, strategytest.Options{Programs: 50, Executions: tc.executions, Claims: tc.claims})
			switch {
			case tc.want == "" && len(errs) > 0:
				t.Errorf("%d reports, the first:\n%s", len(errs), errs[0])
			case tc.want != "" && len(errs) == 0:
				t.Errorf("no report, want one saying %q", tc.want)
			case tc.want != "" && !strings.Contains(errs[0], tc.want):
				t.Errorf("the first report does not say %q:\n%s", tc.want, errs[0])
			}
		})
	}
}

// TestConformanceCounts checks that Conformance fails when it cannot find
// the programs asked for.
func TestConformanceCounts(t *testing.T) {
	errs := conformance(func() strategy.Strategy { return exhaustive.New() }, strategytest.Options{Programs: 5, MaxInterleavings: 1})
	if len(errs) != 1 || !strings.Contains(errs[0], "of the 5 programs asked for were checked") {
		t.Errorf("reports %q, want one saying too few programs were checked", errs)
	}
}
