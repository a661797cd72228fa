// Tests of the line Check logs for each exploration, and of strict mode:
// an exploration a bound stopped does not pass silently.

package weft_test

import (
	"regexp"
	"strings"
	"testing"

	"github.com/weft-go/weft"
)

// storeLoad never fails: T1 stores, the body loads; 2 executions, 1 final
// state.
func storeLoad(w *weft.T) {
	var x weft.Var[int]
	w.Go(func() { x.Store(1) })
	x.Load()
}

// wallTime matches the wall time in Check's summary line.
var wallTime = regexp.MustCompile(`, wall [0-9.]+[µnm]?s: `)

// withoutWall returns Check's summary line with its wall time replaced by
// "<wall>".
func withoutWall(line string) string { return wallTime.ReplaceAllString(line, "<wall>") }

// failedSummary is the summary of exhaustive search stopped by raceBody's
// failure, its second execution.
const failedSummary = "weft: strategy optimal, executions 2 (complete 1, cut 0, failing 1), final states 1<wall>NOT exhaustive: stopped at the first failure (KeepGoing explores on)"

func TestCheckSummaryAndStrict(t *testing.T) {
	const strictError = "weft: strict (WithStrict or WEFT_STRICT=1): the exploration found no failure but did not finish, so the test does not pass: "
	const advice = "; raise the bound, or choose a systematic strategy (optimal, dpor, exhaustive)"
	for _, tc := range []struct {
		name   string
		body   func(w *weft.T)
		opts   []weft.Option
		env    string // WEFT_STRICT
		log    string // the summary, its wall time replaced by "<wall>"
		errors []string
	}{
		{"complete", storeLoad, nil, "",
			"weft: strategy optimal, executions 2 (complete 2, cut 0, failing 0), final states 1<wall>exhaustive (the strategy finished)", nil},
		{"complete-strict", storeLoad, []weft.Option{weft.WithStrict()}, "",
			"weft: strategy optimal, executions 2 (complete 2, cut 0, failing 0), final states 1<wall>exhaustive (the strategy finished)", nil},
		{"bounded", storeLoad, []weft.Option{weft.WithMaxRuns(1)}, "",
			"weft: strategy optimal, executions 1 (complete 1, cut 0, failing 0), final states 1<wall>NOT exhaustive: stopped at the bound of 1 executions (WithMaxRuns)", nil},
		{"bounded-strict", storeLoad, []weft.Option{weft.WithMaxRuns(1), weft.WithStrict()}, "",
			"weft: strategy optimal, executions 1 (complete 1, cut 0, failing 0), final states 1<wall>NOT exhaustive: stopped at the bound of 1 executions (WithMaxRuns)",
			[]string{strictError + "stopped at the bound of 1 executions (WithMaxRuns)" + advice}},
		{"bounded-strict-env", storeLoad, []weft.Option{weft.WithMaxRuns(1)}, "1",
			"weft: strategy optimal, executions 1 (complete 1, cut 0, failing 0), final states 1<wall>NOT exhaustive: stopped at the bound of 1 executions (WithMaxRuns)",
			[]string{strictError + "stopped at the bound of 1 executions (WithMaxRuns)" + advice}},
		{"random-strict", storeLoad, []weft.Option{weft.WithStrategy("random"), weft.WithSeed(1), weft.WithMaxRuns(5), weft.WithStrict()}, "",
			"weft: strategy random, executions 5 (complete 5, cut 0, failing 0), final states 1<wall>NOT exhaustive: stopped at the bound of 5 executions (WithMaxRuns)",
			[]string{strictError + "stopped at the bound of 5 executions (WithMaxRuns)" + advice}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv(weft.StrictEnv, tc.env)
			ft := &fakeTB{TB: t, name: "TestX"}
			weft.Check(ft, tc.body, append(tc.opts, weft.NoReplayFiles())...)
			if len(ft.logs) != 1 {
				t.Fatalf("logs %q; want one line", ft.logs)
			}
			if got := withoutWall(ft.logs[0]); got != tc.log {
				t.Errorf("log\n%s\nwant\n%s", got, tc.log)
			}
			if strings.Join(ft.errors, "\n") != strings.Join(tc.errors, "\n") || len(ft.fatals) != 0 {
				t.Errorf("errors %q, fatals %q; want %q", ft.errors, ft.fatals, tc.errors)
			}
		})
	}
}

// TestCheckSummaryFailure: an exploration that stopped at its first
// failure says so.
func TestCheckSummaryFailure(t *testing.T) {
	ft := &fakeTB{TB: t, name: "TestX"}
	weft.Check(ft, raceBody, weft.NoReplayFiles(), weft.WithStrict())
	if len(ft.logs) != 1 || withoutWall(ft.logs[0]) != failedSummary {
		t.Errorf("logs %q; want\n%s", ft.logs, failedSummary)
	}
	if len(ft.errors) != 1 || strings.Contains(ft.errors[0], "strict") {
		t.Errorf("errors %q; want the failure's report alone", ft.errors)
	}
}

// TestCheckRefused: a strategy that cannot handle the body (unfold, with a
// CompareAndSwap whose outcome depends on an input) fails the test with
// its reason, not with a failure of the body.
func TestCheckRefused(t *testing.T) {
	ft := &fakeTB{TB: t, name: "TestX"}
	r := weft.Check(ft, func(w *weft.T) {
		x := weft.NewVar[weft.SInt]("x")
		x.Store(w.InputRange("in", -2, 2))
		if x.CompareAndSwap(weft.Const[int64](1), weft.Const[int64](5)) {
			w.Fail("x was 1")
		}
	}, weft.WithStrategy("unfold"), weft.NoReplayFiles())
	if r != nil || len(ft.fatals) != 1 || len(ft.errors) != 0 || !strings.Contains(ft.fatals[0], "weft: strategy unfold: unfold does not model a CompareAndSwap whose outcome depends on inputs") {
		t.Fatalf("Check = %v; fatals %q, errors %q; want the refusal as the one fatal error", r, ft.fatals, ft.errors)
	}
}
