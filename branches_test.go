// Tests of the branch coverage of an exploration (Result.Branches).

package weft_test

import (
	"path/filepath"
	"runtime"
	"slices"
	"testing"

	"github.com/weft-go/weft"
)

// TestResultBranches: exhaustive search reads the input as its range's
// minimum, so it takes one side of each branch: the if's false side, the
// assertion's passing side. The sites are the lines of the calls.
func TestResultBranches(t *testing.T) {
	var line int
	body := func(w *weft.T) {
		u := w.InputRange("u", 0, 3)
		_, _, line, _ = runtime.Caller(0)
		if w.If(u.Gt(weft.Const[int64](1))) { // line+1
			w.Fail("not with u = 0")
		}
		w.AssertSym(u.Lt(weft.Const[int64](5)), "u < 5") // line+4
	}
	r, err := weft.Explore(body, weft.WithStrategy("exhaustive"), weft.NoReplayFiles())
	if err != nil {
		t.Fatal(err)
	}
	var got []weft.BranchSite
	for _, b := range r.Branches {
		b.File = filepath.Base(b.File)
		got = append(got, b)
	}
	want := []weft.BranchSite{
		{File: "branches_test.go", Line: line + 1, True: false, False: true},
		{File: "branches_test.go", Line: line + 4, True: true, False: false},
	}
	if !slices.Equal(got, want) {
		t.Errorf("Branches = %+v, want %+v", got, want)
	}
}

// TestNoBranches: a program without inputs has no branch sites.
func TestNoBranches(t *testing.T) {
	r, err := weft.Explore(func(w *weft.T) { weft.NewVar[int]("x").Store(1) }, weft.NoReplayFiles())
	if err != nil {
		t.Fatal(err)
	}
	if r.Branches != nil {
		t.Errorf("Branches = %+v, want none", r.Branches)
	}
}
