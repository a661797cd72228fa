// This file tests weft run with the con2 strategy and its -k flag.

package main

import (
	"strings"
	"testing"
)

// TestRunCon2: addall's assertion fails only with an interference
// (Farzan et al. 2013, §3): con2 finds nothing with -k 0, and finds it with -k 1, with the
// branch sides covered per k in the summary (3 at k=0, the violation at
// k=1). On dining, whose deadlock it does not run into, the summary says
// that con2 is not a deadlock search.
func TestRunCon2(t *testing.T) {
	needZ3(t)
	for _, tc := range []struct {
		args   []string
		code   int
		stdout []string
	}{
		{[]string{"run", "-strategy", "con2", "-k", "0", "addall"}, 0,
			[]string{"failures           none", "k                  0", "sides k=0          3", "sides covered      3"}},
		{[]string{"run", "-strategy", "con2", "-k", "1", "addall"}, 1,
			[]string{"weft: assertion in T", "v.size >= u.cnt + v.cnt (line 8)", "k                  1", "sides k=0          3", "sides k=1          1", "sides covered      4"}},
		// dining deadlocks, and has no branch for con2 to cover: con2
		// finishes without running into the deadlock, and says that it
		// is no deadlock search.
		{[]string{"run", "-strategy", "con2", "dining"}, 0,
			[]string{"executions         4 (the strategy covered every branch side reachable with at most 2 interferences; it is not a deadlock search: a deadlock, or a failure that only a plain Go if leads to, is found only when an execution runs into it)\n", "failures           none"}},
	} {
		code, stdout, stderr := runCmd(t, tc.args...)
		if code != tc.code {
			t.Errorf("%v: exit status %d, want %d\nstdout:\n%s\nstderr:\n%s", tc.args, code, tc.code, stdout, stderr)
		}
		for _, s := range tc.stdout {
			if !strings.Contains(stdout, s) {
				t.Errorf("%v: stdout lacks %q:\n%s", tc.args, s, stdout)
			}
		}
	}
	code, _, stderr := runCmd(t, "run", "-strategy", "con2", "-k", "-1", "addall")
	if code != exitUsage || !strings.Contains(stderr, "interference bound -1: must not be negative") {
		t.Errorf("-k -1: exit status %d, stderr %q; want %d and the bound's error", code, stderr, exitUsage)
	}
}
