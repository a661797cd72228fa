// Tests of Result.Merge.

package explore

import (
	"slices"
	"testing"

	"github.com/weft-go/weft/trace"
)

// TestMergeBranches: the result of another part that took an if's other
// side and a site of its own merges into the sites sorted by path (an
// absolute path before "a.go").
func TestMergeBranches(t *testing.T) {
	r := &Result{Branches: []BranchSite{{File: "/x/b.go", Line: 3, False: true}, {File: "/x/b.go", Line: 6, True: true}}}
	r.Merge(&Result{Branches: []BranchSite{{File: "/x/b.go", Line: 3, True: true}, {File: "a.go", Line: 3, True: true}}})
	want := []BranchSite{{File: "/x/b.go", Line: 3, True: true, False: true}, {File: "/x/b.go", Line: 6, True: true}, {File: "a.go", Line: 3, True: true}}
	if !slices.Equal(r.Branches, want) {
		t.Errorf("merged Branches = %+v, want %+v", r.Branches, want)
	}
}

// TestMergeCounts: counts add up, a failure of a kind not seen joins, one
// of a kind seen does not, and the result is exhausted only if both were.
func TestMergeCounts(t *testing.T) {
	r := newResult("optimal")
	r.Exhausted = true
	r.Executions, r.Complete, r.Failures = 3, 2, []*Failure{{Kind: trace.Deadlock, Execution: 3}}
	r.FailureCounts[trace.Deadlock] = 1
	o := newResult("optimal")
	o.Executions, o.Cut, o.Assumed = 4, 1, 1
	o.Failures = []*Failure{{Kind: trace.Deadlock, Execution: 1}, {Kind: trace.Panic, Execution: 2}}
	o.FailureCounts[trace.Deadlock], o.FailureCounts[trace.Panic] = 1, 1
	r.Merge(o)
	if r.Executions != 7 || r.Complete != 2 || r.Cut != 1 || r.Assumed != 1 || r.Exhausted {
		t.Errorf("merged: executions %d complete %d cut %d assumed %d exhausted %v; want 7 2 1 1 false", r.Executions, r.Complete, r.Cut, r.Assumed, r.Exhausted)
	}
	if len(r.Failures) != 2 || r.Failures[0].Execution != 3 || r.Failures[1].Kind != trace.Panic || r.FailureCounts[trace.Deadlock] != 2 || r.FailureCounts[trace.Panic] != 1 {
		t.Errorf("merged failures %+v, counts %v", r.Failures, r.FailureCounts)
	}
}
