// Tests of symbolic traces (Farzan et al. 2013, §4): under a strategy that asks for
// them, reads of concolic variables give fresh symbols and the trace
// records what each access read and wrote; without one, nothing changes.

package weft_test

import (
	"fmt"
	"path/filepath"
	"runtime"
	"slices"
	"testing"

	"github.com/weft-go/weft"
	"github.com/weft-go/weft/solver"
	"github.com/weft-go/weft/strategy"
	"github.com/weft-go/weft/trace"
)

// oneRun runs the lowest enabled thread in a single execution and keeps a
// copy of its trace's symbolic parts; symbolic says whether it asks for a
// symbolic trace.
type oneRun struct {
	lowest
	symbolic bool
	accesses []trace.SymAccess
	branches []trace.BranchEvent
	threads  []trace.ThreadInfo
}

func (s *oneRun) SymbolicTrace() bool { return s.symbolic }

func (s *oneRun) Finish(tr *trace.Trace, _ trace.End) {
	s.accesses = slices.Clone(tr.Accesses)
	s.branches = slices.Clone(tr.Branches)
	s.threads = slices.Clone(tr.Threads)
}

var _ strategy.SymbolicTracer = (*oneRun)(nil)

// symTraceBody: the body stores 10 in x and reads input u; its thread reads
// x (a), stores a+u, branches on a > u and, on its true side, swaps x for
// 7. It sets *ifLine to the line before the branch.
func symTraceBody(ifLine *int) func(w *weft.T) {
	x := weft.NewVar[weft.SInt]("x")
	return func(w *weft.T) {
		x.Store(weft.Const[int64](10))
		u := w.InputRange("u", 0, 100)
		w.Go(func() {
			a := x.Load()
			x.Store(a.Add(u))
			_, _, *ifLine, _ = runtime.Caller(0)
			if w.If(a.Gt(u)) { // the line after the Caller
				x.Swap(weft.Const[int64](7))
			}
		})
	}
}

func TestSymbolicTrace(t *testing.T) {
	var line int
	s := &oneRun{lowest: lowest{runs: 1}, symbolic: true}
	if _, err := weft.Explore(symTraceBody(&line), weft.WithCustomStrategy(s), weft.NoReplayFiles()); err != nil {
		t.Fatal(err)
	}
	r1, r3 := solver.Var(trace.ReadSymbol(1), 64), solver.Var(trace.ReadSymbol(3), 64)
	u := solver.Var("u", 64)
	want := []trace.SymAccess{
		{Step: 0, Write: solver.Const(10, 64)},
		{Step: 1, Read: r1},
		{Step: 2, Write: solver.Add(r1, u)},
		{Step: 3, Read: r3, Write: solver.Const(7, 64)},
	}
	if !slices.Equal(s.accesses, want) {
		t.Errorf("accesses %v, want %v", s.accesses, want)
	}
	if len(s.branches) != 1 {
		t.Fatalf("%d branches, want 1", len(s.branches))
	}
	b := s.branches[0]
	if b.Cond != solver.Sgt(r1, u) || !b.Taken || b.Thread != 1 || b.Step != 3 {
		t.Errorf("branch %+v, want %v taken by T1 at step 3", b, solver.Sgt(r1, u))
	}
	f, _ := runtime.CallersFrames([]uintptr{b.PC}).Next()
	if filepath.Base(f.File) != "symtrace_test.go" || f.Line != line+1 {
		t.Errorf("branch at %s:%d, want symtrace_test.go:%d", f.File, f.Line, line+1)
	}
	if want := []trace.ThreadInfo{{Parent: trace.NoThread, Step: -1}, {Parent: 0, Step: 0, Branch: 0}}; !slices.Equal(s.threads, want) {
		t.Errorf("threads %v, want %v", s.threads, want)
	}
}

// TestNoSymbolicTrace: without SymbolicTrace, a read passes the writer's
// expression on and no access is recorded.
func TestNoSymbolicTrace(t *testing.T) {
	var line int
	s := &oneRun{lowest: lowest{runs: 1}}
	if _, err := weft.Explore(symTraceBody(&line), weft.WithCustomStrategy(s), weft.NoReplayFiles()); err != nil {
		t.Fatal(err)
	}
	if len(s.accesses) != 0 {
		t.Errorf("accesses %v, want none", s.accesses)
	}
	u := solver.Var("u", 64)
	if len(s.branches) != 1 || s.branches[0].Cond != solver.Sgt(solver.Const(10, 64), u) {
		t.Errorf("branches %v, want one on %v", s.branches, solver.Sgt(solver.Const(10, 64), u))
	}
}

// TestBranchOrderWithSpawns: ThreadInfo.Branch orders a spawn among the
// branches of its parent's local code, which share its step.
func TestBranchOrderWithSpawns(t *testing.T) {
	x := weft.NewVar[int]("x")
	s := &oneRun{lowest: lowest{runs: 1}}
	body := func(w *weft.T) {
		u := w.Input("u")
		x.Store(1)
		w.If(u.Gt(weft.Const[int64](0)))
		w.Go(func() { w.If(u.Lt(weft.Const[int64](5))); x.Load() })
		w.If(u.Eq(weft.Const[int64](3)))
		w.Go(func() { x.Load() })
	}
	if _, err := weft.Explore(body, weft.WithCustomStrategy(s), weft.NoReplayFiles()); err != nil {
		t.Fatal(err)
	}
	got := fmt.Sprint(s.threads)
	want := fmt.Sprint([]trace.ThreadInfo{{Parent: trace.NoThread, Step: -1}, {Parent: 0, Step: 0, Branch: 1}, {Parent: 0, Step: 0, Branch: 3}})
	if got != want {
		t.Errorf("threads %s, want %s", got, want)
	}
}
