// This file implements the environment variables that override Check's
// options from the go test command line.

package weft

import (
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"
)

// The environment variables that override the options a test passes to
// Check (not Explore's), so that one run of go test can explore more or
// otherwise without editing the tests:
//
//	WEFT_STRATEGY=random WEFT_SEED=7 WEFT_MAX_RUNS=1000000 go test -run TestX
const (
	StrategyEnv = "WEFT_STRATEGY"  // as WithStrategy
	MaxRunsEnv  = "WEFT_MAX_RUNS"  // as WithMaxRuns
	MaxStepsEnv = "WEFT_MAX_STEPS" // as WithMaxSteps
	// KeepGoingEnv=1 is KeepGoing: explore on after a failure.
	KeepGoingEnv = "WEFT_KEEP_GOING"
	SeedEnv      = "WEFT_SEED" // as WithSeed
	// VarySeedEnv=1 is WithVaryingSeed.
	VarySeedEnv = "WEFT_VARY_SEED"
	// LeaksEnv=0 is IgnoreLeaks.
	LeaksEnv = "WEFT_LEAKS"
	// IgnoreLeakEnv, a comma-separated list of functions, is IgnoreLeak.
	IgnoreLeakEnv = "WEFT_IGNORE_LEAK"
	WorkersEnv    = "WEFT_WORKERS" // as WithWorkers
	TimeoutEnv    = "WEFT_TIMEOUT" // as WithTimeout (a time.ParseDuration string)
	RacesEnv      = "WEFT_RACES"   // 1: as WithRaces
	TimeEnv       = "WEFT_TIME"    // any or blocked: as WithTime (weft test sets any)
	// ReplayFilesEnv says what Check does with the replay files under
	// testdata/weft: on (or 1, the default) runs them first and writes
	// one for a new failure; check runs them and writes nothing (for CI);
	// update runs them, writes new ones and deletes those whose failure
	// no longer happens; off (or 0, as NoReplayFiles) neither runs nor
	// writes them.
	ReplayFilesEnv = "WEFT_REPLAY_FILES"
	// CommandEnv, when set, is the command that a report's replay command
	// starts with, in place of go test: weft test sets it to itself and
	// its packages, and the report says
	//	$WEFT_COMMAND -run '^TestX$' -replay 'TestX=TOKEN'
	CommandEnv = "WEFT_COMMAND"
)

// envOptions returns the options the environment sets, after checking
// them: a bad value is an error that names the variable.
func envOptions() ([]Option, error) {
	var opts []Option
	if v := os.Getenv(StrategyEnv); v != "" {
		o := WithStrategy(v)
		if err := o(&config{}); err != nil {
			return nil, fmt.Errorf("%s=%q: %w", StrategyEnv, v, err)
		}
		opts = append(opts, o)
	}
	if v := os.Getenv(MaxRunsEnv); v != "" {
		n, err := strconv.Atoi(v)
		if err == nil && n < 0 {
			err = fmt.Errorf("must not be negative")
		}
		if err != nil {
			return nil, fmt.Errorf("%s=%q: want a number of executions (0: no bound): %v", MaxRunsEnv, v, err)
		}
		opts = append(opts, WithMaxRuns(n))
	}
	if v := os.Getenv(MaxStepsEnv); v != "" {
		n, err := strconv.Atoi(v)
		if err == nil && n <= 0 {
			err = fmt.Errorf("must be positive")
		}
		if err != nil {
			return nil, fmt.Errorf("%s=%q: want a number of steps per execution: %v", MaxStepsEnv, v, err)
		}
		opts = append(opts, WithMaxSteps(n))
	}
	switch v := os.Getenv(KeepGoingEnv); v {
	case "", "0":
	case "1":
		opts = append(opts, KeepGoing())
	default:
		return nil, fmt.Errorf("%s=%q: want 1 (explore on after a failure) or 0", KeepGoingEnv, v)
	}
	if v := os.Getenv(SeedEnv); v != "" {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			return nil, fmt.Errorf("%s=%q: want an integer seed: %v", SeedEnv, v, err)
		}
		opts = append(opts, WithSeed(n))
	}
	switch v := os.Getenv(VarySeedEnv); v {
	case "", "0":
	case "1":
		opts = append(opts, WithVaryingSeed())
	default:
		return nil, fmt.Errorf("%s=%q: want 1 (a seed per execution) or 0", VarySeedEnv, v)
	}
	switch v := os.Getenv(LeaksEnv); v {
	case "", "1":
	case "0":
		opts = append(opts, IgnoreLeaks())
	default:
		return nil, fmt.Errorf("%s=%q: want 0 (ignore leaked goroutines) or 1", LeaksEnv, v)
	}
	if v := os.Getenv(IgnoreLeakEnv); v != "" {
		fns := strings.Split(v, ",")
		if slices.Contains(fns, "") {
			return nil, fmt.Errorf("%s=%q: want functions separated by commas, as runtime.Frame.Function names them (example.com/pool.(*Pool).worker)", IgnoreLeakEnv, v)
		}
		opts = append(opts, IgnoreLeak(fns...))
	}
	if v := os.Getenv(WorkersEnv); v != "" {
		n, err := strconv.Atoi(v)
		if err == nil && n < 0 {
			err = fmt.Errorf("must not be negative")
		}
		if err != nil {
			return nil, fmt.Errorf("%s=%q: want a number of workers (0: one per core): %v", WorkersEnv, v, err)
		}
		opts = append(opts, WithWorkers(n))
	}
	switch v := os.Getenv(RacesEnv); v {
	case "", "0":
	case "1":
		opts = append(opts, WithRaces())
	default:
		return nil, fmt.Errorf("%s=%q: want 1 (check for data races) or 0", RacesEnv, v)
	}
	if v := os.Getenv(TimeEnv); v != "" {
		m, err := ParseTimeMode(v)
		if err != nil {
			return nil, fmt.Errorf("%s=%q: %w", TimeEnv, v, err)
		}
		opts = append(opts, WithTime(m))
	}
	if v := os.Getenv(ReplayFilesEnv); v != "" {
		m, err := parseReplayMode(v)
		if err != nil {
			return nil, fmt.Errorf("%s=%q: %w", ReplayFilesEnv, v, err)
		}
		opts = append(opts, func(c *config) error { c.replayFiles = m; return nil })
	}
	if v := os.Getenv(TimeoutEnv); v != "" {
		d, err := time.ParseDuration(v)
		if err == nil && d < 0 {
			err = fmt.Errorf("must not be negative")
		}
		if err != nil {
			return nil, fmt.Errorf("%s=%q: want a duration such as 30s (0: no bound): %v", TimeoutEnv, v, err)
		}
		opts = append(opts, WithTimeout(d))
	}
	return opts, nil
}
