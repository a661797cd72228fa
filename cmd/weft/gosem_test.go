// This file tests what weft test keeps of Go's semantics on ordinary
// tests (testdata/gosem): ranges over maps in an order fixed by the
// execution's seed, math/rand's numbers drawn from that seed, a seed per
// execution that a failure's replay token records, the race detector on
// an atomic and a plain access, and the leak rule turned off.

package main

import (
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/weft-go/weft/internal/long"
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
// executions under optimal, none of them nondeterministic, in a file of
// the module's Go version and in one of go1.21, which lacks range over
// functions; a branch on
// math/rand's number is not taken with the default seed; a test whose
// goroutine stays blocked fails as a leak, and passes with -leaks=false.
func TestTestGoSemantics(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a module with weft test")
	}
	t.Parallel()
	want := map[string]gosemOutcome{
		"TestMapRange":        {"pass", [4]int{15, 15, 0, 0}, ""},
		"TestMapRangeOld":     {"pass", [4]int{15, 15, 0, 0}, ""},
		"TestRandBranch":      {"pass", [4]int{1, 1, 0, 0}, ""},
		"TestAtomicPlainRace": {"pass", [4]int{1, 1, 0, 0}, ""},
		"TestRaceThenLeak":    {"fail", [4]int{1, 0, 0, 1}, "leak"},
	}
	got, outs, code := gosemRun(t)
	if code != exitFailure {
		t.Errorf("exit status %d, want %d", code, exitFailure)
	}
	checkOutcomes(t, "default", got, outs, want)

	got, outs, code = gosemRun(t, "-run", "TestRaceThenLeak", "-leaks=false")
	if code != exitOK {
		t.Errorf("-leaks=false: exit status %d, want %d", code, exitOK)
	}
	checkOutcomes(t, "-leaks=false", got, outs, map[string]gosemOutcome{"TestRaceThenLeak": {"pass", [4]int{1, 1, 0, 0}, ""}})
}

// TestTestVarySeed runs weft test -vary-seed on testdata/gosem: a branch
// on math/rand's number is taken, at the 28th execution, with a seed per
// execution under the random strategy, whose replay command reproduces
// it.
func TestTestVarySeed(t *testing.T) {
	long.Skip(t, "builds a module with weft test")
	t.Parallel()
	got, outs, code := gosemRun(t, "-run", "TestRandBranch", "-strategy", "random", "-vary-seed", "-max-runs", "100")
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

// TestTestGoSemanticsRace runs weft test -race on the tests of
// testdata/gosem whose atomic add races with a plain store: each fails as
// a data race whose message names both accesses, the atomic one's thread
// T1, the plain one's T0; the race takes precedence over the leak that
// ends one of them.
func TestTestGoSemanticsRace(t *testing.T) {
	long.Skip(t, "builds a module with weft test -race")
	if out, err := exec.Command("go", "env", "CGO_ENABLED").Output(); err != nil || strings.TrimSpace(string(out)) != "1" {
		t.Skip("-race needs cgo")
	}
	t.Parallel()
	got, outs, code := gosemRun(t, "-race", "-run", "Race")
	if code != exitFailure {
		t.Errorf("exit status %d, want %d", code, exitFailure)
	}
	checkOutcomes(t, "-race", got, outs, map[string]gosemOutcome{
		"TestAtomicPlainRace": {"fail", [4]int{1, 0, 0, 1}, "data race"},
		"TestRaceThenLeak":    {"fail", [4]int{1, 0, 0, 1}, "data race"},
	})
	for name, want := range map[string][]string{
		"TestAtomicPlainRace": {"write by T1 at atomicrace_test.go:19 (atomic), previous write by T0 at atomicrace_test.go:21"},
		"TestRaceThenLeak":    {"write by T1 at atomicrace_test.go:31 (atomic), previous write by T0 at atomicrace_test.go:34", "The execution then ended with: leak: "},
	} {
		for _, w := range want {
			if !strings.Contains(outs[name], w) {
				t.Errorf("%s: the report does not say %q:\n%s", name, w, outs[name])
			}
		}
	}
}
