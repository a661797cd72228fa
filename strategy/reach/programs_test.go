// Tests on weft's programs of Lei and Carver 2006: reach against exhaustive search on
// small instances, and the numbers of Table 4 and Fig. 13 for ours.

package reach_test

import (
	"fmt"
	"os"
	"testing"

	"github.com/weft-go/weft"
	"github.com/weft-go/weft/internal/long"
	"github.com/weft-go/weft/programs"
	"github.com/weft-go/weft/strategy/exhaustive"
	"github.com/weft-go/weft/strategy/reach"
	"github.com/weft-go/weft/trace"
)

// body returns the body of program name with parameters ps.
func body(name string, ps map[string]int) func(*weft.T) {
	return programs.Lookup(name).MustBody(ps)
}

// TestProgramsExactlyOnce runs small instances of the programs of Table 4
// under reach and exhaustive search: every SYN-sequence exactly once.
func TestProgramsExactlyOnce(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name string
		ps   map[string]int
	}{
		{"reach-fig1", nil},
		{"bbselect", map[string]int{"producers": 2, "consumers": 2, "slots": 1}},
		{"bbsem", bbsemSize()},
		{"bbmonitor", map[string]int{"producers": 2, "consumers": 2, "slots": 1, "su": 1}},
		{"bbmonitor", map[string]int{"producers": 2, "consumers": 1, "slots": 1, "su": 0}},
		{"bbchan", map[string]int{"producers": 2, "consumers": 2, "capacity": 1}},
		{"rwselect", map[string]int{"readers": 2, "writers": 1}},
		{"rwsem", map[string]int{"readers": 2, "writers": 1}},
		{"rwmonitor", map[string]int{"readers": 2, "writers": 1, "su": 1}},
		{"rwmonitor", map[string]int{"readers": 1, "writers": 2, "su": 0}},
		{"dpmonitor", map[string]int{"n": 3}},
		{"dining", map[string]int{"n": 3}},
	} {
		t.Run(fmt.Sprintf("%s%v", c.name, c.ps), func(t *testing.T) {
			t.Parallel()
			b := body(c.name, c.ps)
			ex, r := run(t, b, exhaustive.New(), 200000)
			if !r.Exhausted {
				t.Fatalf("%s %v: exhaustive search did not finish", c.name, c.ps)
			}
			for _, o := range []reach.Options{{}, {Seed: 7}} {
				cmp := compareRuns(t, ex, b, o)
				if !cmp.ok() {
					t.Errorf("%s %v %+v: %v", c.name, c.ps, o, cmp)
				}
				t.Logf("%s %v %+v: %d sequences, %d runs not analysed", c.name, c.ps, o, cmp.got, cmp.skipped)
			}
		})
	}
}

// bbsemSize is the size of the semaphore bounded buffer that
// TestProgramsExactlyOnce checks: one consumer and two slots (6
// SYN-sequences; with WEFT_LONG=1 two consumers and one slot, whose
// exhaustive search takes seconds).
func bbsemSize() map[string]int {
	if long.Enabled() {
		return map[string]int{"producers": 2, "consumers": 2, "slots": 1}
	}
	return map[string]int{"producers": 2, "consumers": 1, "slots": 2}
}

// explore runs reach on body and returns the Result and the strategy.
func explore(t *testing.T, body func(*weft.T), o reach.Options) (*weft.Result, *reach.Strategy) {
	t.Helper()
	s := reach.New(o)
	r, err := weft.Explore(body, weft.WithCustomStrategy(s), weft.KeepGoing(), weft.NoReplayFiles(), weft.WithMaxRuns(0))
	if err != nil {
		t.Fatal(err)
	}
	if !r.Exhausted || s.Err() != nil {
		t.Fatalf("exhausted %v, error %v", r.Exhausted, s.Err())
	}
	return r, s
}

// TestTable4 pins the number of SYN-sequences reach exercises on weft's
// ports of the programs of Lei and Carver 2006's Table 4 and Fig. 13, each one run
// (no partial run, no failure run again). The paper's numbers are those
// of the authors' programs, which are in a book (Carver and Tai, Modern
// Multithreading): ours are the textbook solutions, each thread doing its
// operation once. Where ours differs, doc.go says why.
func TestTable4(t *testing.T) {
	type row struct {
		name      string
		ps        map[string]int
		seqs      int // ours
		paper     int
		deadlocks int
		long      bool
	}
	rows := []row{
		{"reach-fig1", nil, 4, 4, 0, false},
		{"bbselect", nil, 144, 144, 0, false},
		{"bbsem", nil, 324, 324, 0, false},
		// Andrews' order of the semaphores (programs/reach004.go).
		{"bbsem", map[string]int{"nested": 0}, 9252, 324, 0, true},
		{"bbmonitor", map[string]int{"su": 1}, 720, 720, 0, false},
		{"bbmonitor", map[string]int{"su": 0}, 5076, 12096, 0, true},
		{"rwselect", nil, 768, 768, 0, false},
		{"rwsem", nil, 768, 21744, 0, false},
		{"rwmonitor", map[string]int{"su": 1}, 11040, 13320, 0, true},
		{"dpmonitor", map[string]int{"n": 3}, 30, 30, 0, false},
		{"dpmonitor", map[string]int{"n": 4}, 720, 624, 0, false},
		{"dpmonitor", map[string]int{"n": 5}, 22300, 19330, 0, true},
		{"dme", nil, 1760, 4032, 0, false},
		// Fig. 13: Godefroid's deadlocking philosophers, 9 of them: 511
		// runs for RichTest (VeriSoft: 19,023).
		{"dining", map[string]int{"n": 9}, 511, 511, 1, false},
	}
	if os.Getenv("REACH_LONG") != "" {
		// RW-monitorSC: 343,680 sequences, 25 s (the paper: 61,716).
		rows = append(rows, row{"rwmonitor", map[string]int{"su": 0}, 343680, 61716, 0, true})
	}
	for _, c := range rows {
		if c.long && !long.Enabled() {
			continue
		}
		r, s := explore(t, body(c.name, c.ps), reach.Options{})
		st := s.Stats()
		if r.Executions != c.seqs || st.Partial != 0 || st.Retries != 0 || st.Infeasible != 0 || r.FailureCounts[trace.Deadlock] != c.deadlocks {
			t.Errorf("%s %v: %d runs (%+v), failures %v; want %d sequences (the paper: %d), %d deadlocks", c.name, c.ps, r.Executions, st, r.FailureCounts, c.seqs, c.paper, c.deadlocks)
		}
	}
}

// TestDMEBroken checks that the critical section's check of program dme
// can fail: with helpers that never defer a reply (broken=1), reach finds
// two processes inside, in its second run for 3 processes (the first
// run's free order happens to keep them apart), and so does optimal DPOR.
func TestDMEBroken(t *testing.T) {
	for _, strategyName := range []string{"reach", "optimal"} {
		r, err := weft.Explore(body("dme", map[string]int{"n": 3, "broken": 1}), weft.WithStrategy(strategyName), weft.NoReplayFiles())
		if err != nil {
			t.Fatal(err)
		}
		if len(r.Failures) != 1 || r.Failures[0].Kind != trace.Assertion {
			t.Fatalf("%s: failures %v, want one assertion", strategyName, r.FailureCounts)
		}
		if r.Executions != 2 {
			t.Errorf("%s: found in execution %d, want 2", strategyName, r.Executions)
		}
	}
}
