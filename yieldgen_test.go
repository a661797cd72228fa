// This file checks busy-wait loops that yield (w.Yield) on generated
// programs: every complete strategy against exhaustive search, and each
// program against its twin that waits with w.Await.

package weft_test

import (
	"fmt"
	"testing"

	"github.com/weft-go/weft/internal/gen"
	"github.com/weft-go/weft/internal/gen/genweft"
	"github.com/weft-go/weft/internal/long"
)

// TestGeneratedYield checks programs of gen.Sync with at least one loop
// that yields (for v.Load() == 0 { w.Yield() }): every complete strategy
// finds exhaustive search's final states, failure kinds and maximal
// traces (checkProgram), and exhaustive search finds, with the loops,
// what it finds on the program's twin that waits with w.Await on the same
// condition (await(v.Load() != 0)): the same final states, the same
// failure kinds, as many complete and maximal traces (seed 711 has a
// load just before its loop, which the loop's turn does not repeat). A
// failed turn of a loop, blocked for good and assumed away once its
// variable is written, leaves no trace of its own, as a false evaluation
// of an await leaves none. 20 programs, 300 with WEFT_LONG=1.
func TestGeneratedYield(t *testing.T) {
	programs := long.N(20, 300)
	checked, blocking := 0, 0
	for seed := uint64(0); checked < programs && seed < 100000; seed++ {
		p := gen.NewWith(seed, gen.Sync)
		if !yieldsIn(p.Main) && !anyYields(p.Threads) || awaitsIn(p.Main) || anyAwaits(p.Threads) {
			continue // (optimal may cut executions of a body with w.Await)
		}
		y, err := exploreRecorded(genweft.Body(p), "exhaustive", maxRefRuns)
		if err != nil {
			t.Fatal(err)
		}
		a, err := exploreRecorded(genweft.Body(awaitTwin(p)), "exhaustive", maxRefRuns)
		if err != nil {
			t.Fatal(err)
		}
		if !y.Finished() || !a.Finished() {
			continue
		}
		if !checkProgram(t, p) {
			continue
		}
		checked++
		if len(y.Maximal) > len(y.Forms) {
			blocking++
		}
		var errs []string
		if d := diffSets(a.Finals, y.Finals); d != "" {
			errs = append(errs, "final states differ: "+d)
		}
		if d := diffSets(a.Kinds, y.Kinds); d != "" {
			errs = append(errs, "failure kinds differ: "+d)
		}
		if len(y.Forms) != len(a.Forms) || len(y.Maximal) != len(a.Maximal) {
			errs = append(errs, fmt.Sprintf("%d complete and %d maximal traces, with w.Await %d and %d", len(y.Forms), len(y.Maximal), len(a.Forms), len(a.Maximal)))
		}
		if len(errs) > 0 {
			t.Errorf("seed %d, loops that yield against w.Await: %v\n%v", seed, errs, p)
		}
	}
	if checked < programs {
		t.Errorf("checked %d programs, want %d", checked, programs)
	}
	if blocking == 0 {
		t.Errorf("no program has a maximal trace that does not complete")
	}
	t.Logf("%d programs, %d with a deadlock or a leak", checked, blocking)
}

// yieldsIn reports whether ss, or a statement in their bodies, is a loop
// that yields (gen.Await with Val2 1).
func yieldsIn(ss []gen.Stmt) bool {
	for _, s := range ss {
		if s.Kind == gen.Await && s.Val2 == 1 || yieldsIn(s.Body) || yieldsIn(s.Child) {
			return true
		}
	}
	return false
}

// awaitsIn reports whether ss, or a statement in their bodies, is a
// w.Await (gen.Await with Val2 0).
func awaitsIn(ss []gen.Stmt) bool {
	for _, s := range ss {
		if s.Kind == gen.Await && s.Val2 == 0 || awaitsIn(s.Body) || awaitsIn(s.Child) {
			return true
		}
	}
	return false
}

// anyAwaits reports whether a thread of threads has a w.Await.
func anyAwaits(threads [][]gen.Stmt) bool {
	for _, ss := range threads {
		if awaitsIn(ss) {
			return true
		}
	}
	return false
}

// anyYields reports whether a thread of threads has a loop that yields.
func anyYields(threads [][]gen.Stmt) bool {
	for _, ss := range threads {
		if yieldsIn(ss) {
			return true
		}
	}
	return false
}

// awaitTwin returns a copy of p whose loops that yield are w.Awaits of the
// same condition.
func awaitTwin(p *gen.Program) *gen.Program {
	q := *p
	q.Main = awaitsFor(p.Main)
	q.Threads = make([][]gen.Stmt, len(p.Threads))
	for i, ss := range p.Threads {
		q.Threads[i] = awaitsFor(ss)
	}
	return &q
}

// awaitsFor returns a copy of ss with each loop that yields made a
// w.Await.
func awaitsFor(ss []gen.Stmt) []gen.Stmt {
	if ss == nil {
		return nil
	}
	out := make([]gen.Stmt, len(ss))
	for i, s := range ss {
		if s.Kind == gen.Await {
			s.Val2 = 0
		}
		s.Body, s.Child = awaitsFor(s.Body), awaitsFor(s.Child)
		out[i] = s
	}
	return out
}
