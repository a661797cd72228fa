// This file tests the strategies that claim completeness (optimal and the
// DPOR family) against exhaustive search on random programs (internal/gen):
// the same maximal traces, final states and failure kinds, no more
// executions than exhaustive search; and Optimal-DPOR's claim, one execution
// per Mazurkiewicz trace (Foata normal form) and none cut.

package weft_test

import (
	"fmt"
	"maps"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/weft-go/weft"
	"github.com/weft-go/weft/internal/checktest"
	"github.com/weft-go/weft/internal/gen"
	"github.com/weft-go/weft/internal/gen/genweft"
	"github.com/weft-go/weft/internal/long"
	"github.com/weft-go/weft/strategy"
	"github.com/weft-go/weft/strategy/optimal"
)

// diffOutcomes describes how got, a recorded exploration, differs from
// want, one of the same program that must reach the same: the maximal
// traces, the failures as events (a failing execution ends at its failure,
// with whichever independent steps of other threads the order of
// exploration ran before it: the failing traces need not be the same), the
// failure kinds and the final states ("" if none differs).
func diffOutcomes(want, got *checktest.Outcome) string {
	var b strings.Builder
	for _, c := range []struct {
		what      string
		want, got map[string]bool
	}{
		{"maximal traces", want.Maximal, got.Maximal},
		{"failures", want.FailPasts, got.FailPasts},
		{"final states", want.Finals, got.Finals},
	} {
		if d := diffSets(c.want, c.got); d != "" {
			fmt.Fprintf(&b, "%s differ: %s\n", c.what, d)
		}
	}
	if !maps.Equal(want.Kinds, got.Kinds) {
		fmt.Fprintf(&b, "failure kinds %v, want %v\n", got.Kinds, want.Kinds)
	}
	return b.String()
}

// diffDivided describes how an exploration divided into units (got, its
// Result rGot) differs from the exploration in one piece (want, rWant):
// what diffOutcomes compares, the final states as the Result counts them
// and, for optimal, the number of distinct complete traces, which must be
// the complete executions in one piece.
func diffDivided(want, got *checktest.Outcome, rWant, rGot *weft.Result) string {
	var b strings.Builder
	b.WriteString(diffOutcomes(want, got))
	if rGot.FinalStates != rWant.FinalStates {
		fmt.Fprintf(&b, "%d final states counted, want %d\n", rGot.FinalStates, rWant.FinalStates)
	}
	if got.Name == "optimal" && len(got.Forms) != rWant.Complete {
		fmt.Fprintf(&b, "%d distinct complete traces, want the %d complete executions in one piece\n", len(got.Forms), rWant.Complete)
	}
	return b.String()
}

// exploreRecorded runs body under the strategy called name, recorded, with
// at most maxRuns executions, and opts.
func exploreRecorded(body func(*weft.T), name string, maxRuns int, opts ...weft.Option) (*checktest.Outcome, error) {
	return checktest.ExploreRecorded(body, name, maxRuns, opts...)
}

// exploreWith runs body under strategy s, recorded, with at most maxRuns
// executions, and opts.
func exploreWith(body func(*weft.T), s strategy.Strategy, name string, maxRuns int, opts ...weft.Option) (*checktest.Outcome, error) {
	return checktest.ExploreWith(body, s, name, maxRuns, opts...)
}

// completeStrategies returns the strategies that claim to find every final
// state and failure: optimal and the DPOR family (dpor*, flip*) registered
// now.
func completeStrategies() []string {
	var out []string
	for _, n := range weft.Strategies() {
		if n == "optimal" || strings.HasPrefix(n, "flip") || strings.HasPrefix(n, "dpor") {
			out = append(out, n)
		}
	}
	return out
}

// maxRefRuns bounds exhaustive search on one program; larger programs are
// skipped.
const maxRefRuns = 20000

// checkProgram compares every complete strategy with exhaustive search on
// p and reports the differences as errors of t. It reports false if p was
// too large to check.
func checkProgram(t *testing.T, p *gen.Program, opts ...weft.Option) bool {
	t.Helper()
	msg, ok := compareProgram(p, opts...)
	if msg != "" {
		t.Errorf("%s", msg)
	}
	return ok
}

// compareProgram compares every complete strategy with exhaustive search on
// p, explored with opts, and describes the differences ("" if none). ok is
// false if p was too large to check.
func compareProgram(p *gen.Program, opts ...weft.Option) (msg string, ok bool) {
	return compareBody(func() func(*weft.T) { return genweft.Body(p) }, fmt.Sprintf("seed %d", p.Seed), p, false, opts...)
}

// compareBody compares every complete strategy with exhaustive search on
// the body that body returns (a new one for each exploration), explored
// with opts, and describes the differences ("" if none), with the program
// as desc prints it and named name (its seed). Optimal must explore each
// trace once, and, unless mayCut, cut none: with time that moves when
// every thread is blocked it does not model the moves of time, and may cut
// executions (docs/time.md).
// ok is false if the program was too large to check.
func compareBody(body func() func(*weft.T), name string, desc fmt.Stringer, mayCut bool, opts ...weft.Option) (msg string, ok bool) {
	ref, err := exploreRecorded(body(), "exhaustive", maxRefRuns, opts...)
	if err != nil {
		return err.Error(), true
	}
	if !ref.Finished() {
		return "", false
	}
	var out []string
	for _, strat := range completeStrategies() {
		s := weft.StrategyByName(strat, 0)
		if o, ok := s.(*optimal.Strategy); ok {
			o.SetVerify(true)
		}
		got, err := exploreWith(body(), s, strat, 10*maxRefRuns, opts...)
		if err != nil {
			return err.Error(), true
		}
		var errs []string
		fail := func(format string, args ...any) { errs = append(errs, fmt.Sprintf(format, args...)) }
		if !got.Finished() {
			fail("did not finish in %d executions", got.Executions)
		}
		if d := diffSets(ref.Finals, got.Finals); d != "" {
			fail("final states differ from exhaustive's: %s", d)
		}
		if d := diffSets(ref.Kinds, got.Kinds); d != "" {
			fail("failure kinds differ from exhaustive's: %s", d)
		}
		if d := diffSets(ref.Maximal, got.Maximal); d != "" {
			fail("maximal traces differ from exhaustive's: %s", d)
		}
		if d := diffSets(ref.FailPasts, got.FailPasts); d != "" {
			fail("failures (their causal pasts) differ from exhaustive's: %s", d)
		}
		if got.Executions > ref.Executions && !(mayCut && strat == "optimal") {
			fail("%d executions, more than exhaustive's %d", got.Executions, ref.Executions)
		}
		if strat == "optimal" {
			if got.Cut != 0 && !mayCut {
				fail("%d executions cut", got.Cut)
			}
			if got.Complete != len(ref.Forms) {
				fail("%d complete executions, want %d (distinct traces among exhaustive's %d)", got.Complete, len(ref.Forms), ref.Complete)
			}
			if d := diffSets(keysOf(ref.Forms), keysOf(got.Forms)); d != "" {
				fail("traces differ from exhaustive's: %s", d)
			}
			if d := diffSets(keysOf(ref.FailForms), keysOf(got.FailForms)); d != "" && !mayCut {
				fail("failing traces differ from exhaustive's: %s", d)
			}
			for _, forms := range []map[string]int{got.Forms, got.FailForms} {
				for f, n := range forms {
					if n > 1 {
						fail("explored one trace %d times: %s", n, f)
					}
				}
			}
		}
		if len(errs) > 0 {
			out = append(out, fmt.Sprintf("strategy %s on program (%s), %d executions (exhaustive: %d):\n\t%s\n%s",
				strat, name, got.Executions, ref.Executions, strings.Join(errs, "\n\t"), desc))
		}
	}
	return strings.Join(out, "\n"), true
}

// keysOf returns the set of keys of m.
func keysOf(m map[string]int) map[string]bool { return checktest.KeysOf(m) }

// diffSets describes the differences between sets want and got, or "".
func diffSets[K comparable](want, got map[K]bool) string { return checktest.DiffSets(want, got) }

// differentialPrograms is the number of random programs WEFT_LONG=1's test
// run checks.
const differentialPrograms = 200

// TestDifferential checks the complete strategies against exhaustive search
// on differentialPrograms random programs (50 unless WEFT_LONG=1), from seed
// 0; a program too large for exhaustive search is replaced by the next seed,
// and the test fails if more than a tenth of the programs had to be
// replaced. WEFT_DIFF_PROGRAMS=n checks n programs, from seed WEFT_DIFF_FROM
// (0 by default).
func TestDifferential(t *testing.T) {
	t.Parallel()
	n := differentialPrograms
	if !long.Enabled() {
		n = 50
	}
	if v, err := strconv.Atoi(os.Getenv("WEFT_DIFF_PROGRAMS")); err == nil && v > 0 {
		n = v
	}
	from, _ := strconv.ParseUint(os.Getenv("WEFT_DIFF_FROM"), 10, 64)
	last, skipped := checkPrograms(t, n, from, n/10, func(seed uint64) bool { return checkProgram(t, gen.New(seed)) })
	t.Logf("%d random programs (seeds %d-%d, %d too large, skipped) checked against exhaustive search; strategies: %v",
		n, from, last, skipped, completeStrategies())
}

// checkPrograms checks n programs, those of the seeds from from on for
// which check reports true (it reports false for a program too large to
// check): each program skipped is replaced by the next seed, up to
// maxSkipped of them. It fails t unless n programs were checked, and
// returns the last seed tried and the number of seeds skipped.
func checkPrograms(t *testing.T, n int, from uint64, maxSkipped int, check func(seed uint64) bool) (last uint64, skipped int) {
	t.Helper()
	return checktest.CheckPrograms(t, n, from, maxSkipped, check)
}

// FuzzDifferential checks the complete strategies against exhaustive search
// on the random program of each seed (go test -fuzz FuzzDifferential).
func FuzzDifferential(f *testing.F) {
	for _, s := range []uint64{0, 1, 7, 42, 1000} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, seed uint64) {
		if !checkProgram(t, gen.New(seed)) {
			t.Skip("too large for exhaustive search")
		}
	})
}

// TestDifferentialLocalObjects checks programs whose objects are allocated by
// each execution and first touched by threads racing to them, which once
// made optimal miss traces (objects had no name stable across executions;
// in 2398, two names of one object met only in a later execution).
func TestDifferentialLocalObjects(t *testing.T) {
	for _, seed := range []uint64{758, 1262, 1797, 1985, 2398} {
		p := gen.NewWith(seed, gen.V1)
		if !p.Local {
			t.Fatalf("program %d no longer allocates its objects in the body: pick other seeds", seed)
		}
		if !checkProgram(t, p) {
			t.Errorf("gen program %d (v1): too large for exhaustive search", seed)
		}
	}
}

// finished reports whether the strategy of r finished its exploration:
// exhausted, or finished but incomplete (Result.Incomplete: optimal on a
// body with w.Await), which the caller then checks against exhaustive
// search.
func finished(r *weft.Result) bool { return r.Exhausted || r.Incomplete != "" }
