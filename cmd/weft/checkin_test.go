// This file tests weft test on a package whose tests are of both kinds:
// ordinary tests, which weft test explores, and tests that call weft.Check
// themselves (testdata/checkin), which run plainly, their explorations
// their own.

package main

import (
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestTestOwnCheck runs weft test on testdata/checkin: each test passes or
// fails on its own merits, the weft.Check calls (direct, through a helper,
// in a subtest given as a function value) explore as go test runs them,
// and only TestOwnCheckBug, whose counter loses an update, fails.
func TestTestOwnCheck(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a module with weft test")
	}
	t.Parallel()
	runs, code := runModule(t, filepath.Join("testdata", "checkin"))
	if code != exitFailure {
		t.Errorf("exit status %d, want %d", code, exitFailure)
	}
	// Each exploration: executions, complete, failing.
	want := map[string]struct {
		action string
		counts [3]int
	}{
		"TestExplored":         {"pass", [3]int{5, 5, 0}},
		"TestOwnCheck":         {"pass", [3]int{5, 5, 0}},
		"TestOwnCheckBug":      {"fail", [3]int{3, 2, 1}},
		"TestHelpers":          {"pass", [3]int{}},
		"TestHelpers/literal":  {"pass", [3]int{5, 5, 0}},
		"TestHelpers/value":    {"pass", [3]int{5, 5, 0}},
		"TestHelpers/explored": {"pass", [3]int{5, 5, 0}},
	}
	if len(runs) != len(want) {
		t.Errorf("%d tests ran, want %d", len(runs), len(want))
	}
	for name, w := range want {
		r := runs[name]
		if r == nil {
			t.Errorf("%s did not run", name)
			continue
		}
		out := r.output.String()
		var counts [3]int
		if m := checkLine.FindStringSubmatch(out); m != nil {
			for i, j := range []int{2, 3, 5} {
				counts[i], _ = strconv.Atoi(m[j])
			}
		}
		if r.action != w.action || counts != w.counts || strings.Contains(out, "do not nest") {
			t.Errorf("%s: %s, %v (executions, complete, failing); want %s, %v, and no nested exploration:\n%s", name, r.action, counts, w.action, w.counts, out)
		}
	}
	if out := runs["TestOwnCheckBug"].output.String(); !strings.Contains(out, "count 1, want 2") || !strings.Contains(out, "-replay 'TestOwnCheckBug=w1.") {
		t.Errorf("TestOwnCheckBug: no report of the lost update with its replay command:\n%s", out)
	}
}
