// This file tests weft test's time on ordinary tests of timeouts and of
// loops that poll the clock (testdata/timing): by default time moves only
// when every goroutine is blocked, so a timeout longer than the work never
// fires first, and with -time any the failures that need a goroutine to be
// slower than a timer say so in their reports.

package main

import (
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// checkLine is the line Check logs at the end of an exploration.
var checkLine = regexp.MustCompile(`weft: strategy (\S+), executions (\d+) \(complete (\d+), cut (\d+), failing (\d+)\)`)

// TestTestTime runs weft test on testdata/timing with its default time and
// with -time any: each test's outcome and exploration, and the line of the
// reports of the failures found with time at any step.
func TestTestTime(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a module with weft test")
	}
	t.Parallel()
	type outcome struct {
		action string
		// executions, complete, cut, failing: Check's counts.
		counts [4]int
		// slow is the end of the report's line after slowLine, "" for a
		// test that passes.
		slow string
	}
	for _, c := range []struct {
		mode string
		args []string
		code int
		want map[string]outcome
	}{
		{
			// Time moves when every goroutine is blocked: the work ends
			// before its timeout, the quick operation before its
			// watchdog, the timer fires while the clock is polled, and
			// the loops that poll the clock end (a millisecond every
			// third read), one that yields at each turn too.
			"default", nil, exitOK, map[string]outcome{
				"TestFetchTimeout":    {"pass", [4]int{3, 1, 2, 0}, ""},
				"TestWatchdog":        {"pass", [4]int{2, 1, 1, 0}, ""},
				"TestSpin":            {"pass", [4]int{1, 1, 0, 0}, ""},
				"TestSpinGosched":     {"pass", [4]int{1, 1, 0, 0}, ""},
				"TestPollUntil":       {"pass", [4]int{3, 2, 1, 0}, ""},
				"TestTimerDuringSpin": {"pass", [4]int{2, 1, 1, 0}, ""},
			},
		},
		{
			// Time at any step: a timeout may fire, and a timer's
			// goroutine wait, while another goroutine could still move.
			// The loops that poll the clock still end; the goroutine
			// that sets the polled flag runs before a second has passed
			// (fairness: an advance of the clock is a yield).
			"-time any", []string{"-time", "any"}, exitFailure, map[string]outcome{
				"TestFetchTimeout":    {"fail", [4]int{3, 2, 0, 1}, " (at step 4 the clock advanced while T1 could still move)"},
				"TestWatchdog":        {"fail", [4]int{3, 2, 0, 1}, " (at step 2 the clock advanced while T0 could still move)"},
				"TestSpin":            {"pass", [4]int{1, 1, 0, 0}, ""},
				"TestSpinGosched":     {"pass", [4]int{1, 1, 0, 0}, ""},
				"TestPollUntil":       {"pass", [4]int{15, 14, 1, 0}, ""},
				"TestTimerDuringSpin": {"fail", [4]int{1, 0, 0, 1}, " (at step 6 the clock advanced while T0 could still move)"},
			},
		},
	} {
		t.Run(c.mode, func(t *testing.T) {
			t.Parallel()
			runs, code := runModule(t, filepath.Join("testdata", "timing"), c.args...)
			if code != c.code {
				t.Errorf("%s: exit status %d, want %d", c.mode, code, c.code)
			}
			if len(runs) != len(c.want) {
				t.Errorf("%s: %d tests ran, want %d", c.mode, len(runs), len(c.want))
			}
			for name, w := range c.want {
				r := runs[name]
				if r == nil {
					t.Errorf("%s: %s did not run", c.mode, name)
					continue
				}
				out := r.output.String()
				got := outcome{action: r.action}
				if m := checkLine.FindStringSubmatch(out); m != nil {
					for i := range got.counts {
						got.counts[i], _ = strconv.Atoi(m[i+2])
					}
				}
				if i := strings.Index(out, slowLine); i >= 0 {
					got.slow, _, _ = strings.Cut(out[i+len(slowLine):], "\n")
				}
				if got != w {
					t.Errorf("%s: %s: %s, %v (executions, complete, cut, failing), slow %q; want %s, %v, %q:\n%s", c.mode, name, got.action, got.counts, got.slow, w.action, w.counts, w.slow, out)
				}
			}
		})
	}
}
