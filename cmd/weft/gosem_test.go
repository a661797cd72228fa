// This file tests what weft test keeps of Go's semantics on ordinary
// tests (testdata/gosem): ranges over maps in an order fixed by the
// execution's seed, math/rand's numbers drawn from that seed, and a seed
// per execution that a failure's replay token records.

package main

import (
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// gosemDir is the module of TestTestGoSemantics.
var gosemDir = filepath.Join("testdata", "gosem")

// gosemOutcome is what a test of testdata/gosem did: go test's action,
// Check's counts (executions, complete, cut, failing) and the kind of the
// failure reported ("" if none).
type gosemOutcome struct {
	action string
	counts [4]int
	kind   string
}

// gosemRun runs weft test on testdata/gosem with args and returns each
// test's outcome and the output of each.
func gosemRun(t *testing.T, args ...string) (map[string]gosemOutcome, map[string]string, int) {
	t.Helper()
	runs, code := runModule(t, gosemDir, args...)
	got, outs := map[string]gosemOutcome{}, map[string]string{}
	for name, r := range runs {
		out := r.output.String()
		o := gosemOutcome{action: r.action}
		if m := checkLine.FindStringSubmatch(out); m != nil {
			for i := range o.counts {
				o.counts[i], _ = strconv.Atoi(m[i+2])
			}
		}
		o.kind, _ = failureAt(out)
		got[name], outs[name] = o, out
	}
	return got, outs, code
}

// TestTestGoSemantics runs weft test on testdata/gosem: a range over a
// map whose keys' goroutines send on their channels explores 15
// executions under optimal, none of them nondeterministic; a branch on
// math/rand's number is not taken with the default seed, and is, at the
// 28th execution, with a seed per execution under the random strategy,
// whose replay command reproduces it.
func TestTestGoSemantics(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a module with weft test")
	}
	want := map[string]gosemOutcome{
		"TestMapRange":   {"pass", [4]int{15, 15, 0, 0}, ""},
		"TestRandBranch": {"pass", [4]int{1, 1, 0, 0}, ""},
	}
	got, outs, code := gosemRun(t)
	if code != exitOK {
		t.Errorf("exit status %d, want %d", code, exitOK)
	}
	checkOutcomes(t, "default", got, outs, want)

	got, outs, code = gosemRun(t, "-run", "TestRandBranch", "-strategy", "random", "-vary-seed", "-max-runs", "100")
	checkOutcomes(t, "-vary-seed", got, outs, map[string]gosemOutcome{"TestRandBranch": {"fail", [4]int{28, 27, 0, 1}, "assertion"}})
	m := replayLine.FindStringSubmatch(outs["TestRandBranch"])
	if code != exitFailure || m == nil {
		t.Fatalf("-vary-seed: exit status %d, want %d and a replay command:\n%s", code, exitFailure, outs["TestRandBranch"])
	}
	runs, code := runModule(t, gosemDir, "-run", m[3], "-replay", m[4])
	if r := runs["TestRandBranch"]; code != exitFailure || r == nil || !strings.Contains(r.output.String(), "t.Fatalf: drew 5") {
		t.Errorf("replay %s: exit status %d, want %d and the failure drew 5: %v", m[4], code, exitFailure, runs)
	}
}

// checkOutcomes compares the outcomes of a run of weft test (mode) with
// want, test by test.
func checkOutcomes(t *testing.T, mode string, got map[string]gosemOutcome, outs map[string]string, want map[string]gosemOutcome) {
	t.Helper()
	if len(got) != len(want) {
		t.Errorf("%s: %d tests ran, want %d", mode, len(got), len(want))
	}
	for name, w := range want {
		if g, ok := got[name]; !ok || g != w {
			t.Errorf("%s: %s: %+v, want %+v:\n%s", mode, name, g, w, outs[name])
		}
	}
}
