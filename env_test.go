// Tests of the environment variables that override Check's options.

package weft_test

import (
	"strings"
	"testing"

	"github.com/weft-go/weft"
)

func TestCheckEnvOverrides(t *testing.T) {
	for _, tc := range []struct {
		name                 string
		strategy, runs, seed string
		workers              string
		log, fatal           string
	}{
		{name: "none",
			log: "weft: strategy exhaustive, executions 2 (complete 2, cut 0, failing 0), final states 1<wall>exhaustive (the strategy finished)"},
		{name: "random", strategy: "random", runs: "7", seed: "3",
			log: "weft: strategy random, executions 7 (complete 7, cut 0, failing 0), final states 1<wall>NOT exhaustive: stopped at the bound of 7 executions (WithMaxRuns)"},
		{name: "max-runs", runs: "1",
			log: "weft: strategy exhaustive, executions 1 (complete 1, cut 0, failing 0), final states 1<wall>NOT exhaustive: stopped at the bound of 1 executions (WithMaxRuns)"},
		{name: "bad-strategy", strategy: "nope",
			fatal: `weft: WEFT_STRATEGY="nope": unknown strategy "nope" (known: `},
		{name: "bad-runs", runs: "-2",
			fatal: `weft: WEFT_MAX_RUNS="-2": want a number of executions (0: no bound): must not be negative`},
		{name: "workers", strategy: "optimal", workers: "2",
			log: "weft: strategy optimal, executions 2 (complete 2, cut 0, failing 0), final states 1, 2 workers<wall>exhaustive (the strategy finished)"},
		{name: "workers-random", strategy: "random", runs: "3", workers: "2",
			log: "weft: strategy random, executions 3 (complete 3, cut 0, failing 0), final states 1, one worker (strategy random does not divide its work into units (strategy.Splitter))<wall>NOT exhaustive: stopped at the bound of 3 executions (WithMaxRuns)"},
		{name: "bad-workers", workers: "-1",
			fatal: `weft: WEFT_WORKERS="-1": want a number of workers (0: one per core): must not be negative`},
		{name: "bad-seed", seed: "x",
			fatal: `weft: WEFT_SEED="x": want an integer seed: strconv.ParseInt: parsing "x": invalid syntax`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv(weft.StrategyEnv, tc.strategy)
			t.Setenv(weft.MaxRunsEnv, tc.runs)
			t.Setenv(weft.SeedEnv, tc.seed)
			t.Setenv(weft.WorkersEnv, tc.workers)
			ft := &fakeTB{TB: t, name: "TestX"}
			// The options given are overridden: exhaustive, 100 runs.
			weft.Check(ft, storeLoad, weft.WithStrategy("exhaustive"), weft.WithMaxRuns(100), weft.NoReplayFiles())
			if tc.fatal != "" {
				if len(ft.fatals) != 1 || len(ft.fatals[0]) < len(tc.fatal) || ft.fatals[0][:len(tc.fatal)] != tc.fatal {
					t.Errorf("fatals %q; want one starting with %q", ft.fatals, tc.fatal)
				}
				return
			}
			if len(ft.fatals) != 0 || len(ft.errors) != 0 || len(ft.logs) != 1 || withoutWall(ft.logs[0]) != tc.log {
				t.Errorf("fatals %q, errors %q, logs %q; want the log\n%s", ft.fatals, ft.errors, ft.logs, tc.log)
			}
		})
	}
}

// TestCheckEnvStepsKeepGoing checks WEFT_MAX_STEPS (a bound of 1 step
// makes both executions, each cut after its first step, reach the step
// bound: the test is inconclusive) and WEFT_KEEP_GOING (the first
// execution fails, and the exploration goes on to the third), and their
// bad values.
func TestCheckEnvStepsKeepGoing(t *testing.T) {
	for _, tc := range []struct {
		name, steps, keep string
		// executions, failing: the exploration's; fatal the start of the
		// one fatal error.
		executions, failing int
		fatal               string
	}{
		{name: "none", executions: 1, failing: 1},
		{name: "keep-going", keep: "1", executions: 3, failing: 1},
		{name: "max-steps", steps: "1", executions: 2, failing: 1},
		{name: "bad-steps", steps: "0", fatal: `weft: WEFT_MAX_STEPS="0": want a number of steps per execution: must be positive`},
		{name: "bad-keep-going", keep: "yes", fatal: `weft: WEFT_KEEP_GOING="yes": want 1 (explore on after a failure) or 0`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv(weft.MaxStepsEnv, tc.steps)
			t.Setenv(weft.KeepGoingEnv, tc.keep)
			ft := &fakeTB{TB: t, name: "TestX"}
			r := weft.Check(ft, func(w *weft.T) {
				var x weft.Var[int]
				w.Go(func() { x.Store(1) })
				x.Load()
				if x.Load() == 0 {
					w.Fail("read before the store")
				}
			}, weft.WithStrategy("exhaustive"), weft.NoReplayFiles())
			if tc.fatal != "" {
				if len(ft.fatals) != 1 || !strings.HasPrefix(ft.fatals[0], tc.fatal) {
					t.Errorf("fatals %q; want one starting with %q", ft.fatals, tc.fatal)
				}
				return
			}
			if r == nil || r.Executions != tc.executions || len(r.Failures) != tc.failing {
				t.Fatalf("result %+v, want %d executions, %d failing", r, tc.executions, tc.failing)
			}
			if tc.steps != "" && (r.Failures[0].Kind.String() != "livelock" || !r.StepBounded() || len(ft.errors) != 0 ||
				len(ft.skips) != 1 || !strings.HasPrefix(ft.skips[0], weft.Inconclusive+": 2 executions reached the step bound (1 steps)")) {
				t.Errorf("failure of kind %v, step bounded %v, errors %q, skips %q; want livelock, the test inconclusive", r.Failures[0].Kind, r.StepBounded(), ft.errors, ft.skips)
			}
		})
	}
}
