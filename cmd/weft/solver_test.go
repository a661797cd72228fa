// This file tests the solver statistics of a concolic run.

package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/weft-go/weft/solver"
	"github.com/weft-go/weft/solver/z3"
)

// needZ3 skips the test when Z3 cannot be used (a build without cgo).
func needZ3(t *testing.T) {
	t.Helper()
	s, err := z3.New()
	if errors.Is(err, solver.ErrUnavailable) {
		t.Skipf("no Z3: %v", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
}

// TestSolverSummary: jcute under concolic asks the solver twice, one query
// sat (it gives z = 1) and one unsat, and the summary says so in the table
// and in JSON.
func TestSolverSummary(t *testing.T) {
	needZ3(t)
	var out, errb bytes.Buffer
	if code := run([]string{"run", "-json", "-strategy", "concolic", "jcute"}, &out, &errb); code != 1 {
		t.Fatalf("exit %d, want 1 (the failure is found); stderr: %s", code, errb.String())
	}
	var s Summary
	if err := json.Unmarshal(out.Bytes(), &s); err != nil {
		t.Fatalf("decoding JSON: %v\n%s", err, out.String())
	}
	if s.Solver == nil {
		t.Fatalf("no solver statistics in %s", out.String())
	}
	if got := *s.Solver; got.Queries != 2 || got.Sat != 1 || got.Unsat != 1 || got.Timeouts != 0 {
		t.Errorf("solver %+v, want 2 queries, 1 sat, 1 unsat, 0 timeouts", got)
	}
	out.Reset()
	run([]string{"run", "-strategy", "concolic", "jcute"}, &out, &errb)
	if !strings.Contains(out.String(), "solver        2 queries (1 sat, 1 unsat, 0 unknown, 0 timeouts)") {
		t.Errorf("the table has no solver row:\n%s", out.String())
	}
	out.Reset()
	run([]string{"run", "-json", "-strategy", "exhaustive", "xy"}, &out, &errb)
	if strings.Contains(out.String(), `"solver"`) {
		t.Errorf("a run without a solver reports solver statistics:\n%s", out.String())
	}
}
