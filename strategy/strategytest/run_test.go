// This file tests the synthetic runner on small programs whose executions
// are counted by hand, and Conformance on strategies that break what it
// checks.

package strategytest_test

import (
	"maps"
	"slices"
	"testing"

	"github.com/weft-go/weft/strategy/exhaustive"
	"github.com/weft-go/weft/strategy/strategytest"
	"github.com/weft-go/weft/trace"
)

type stmt = strategytest.Stmt

func store(v, x int) stmt { return stmt{Kind: strategytest.Store, Obj: v, Val: x} }
func acquire(m int) stmt  { return stmt{Kind: strategytest.Acquire, Obj: m} }
func release(m int) stmt  { return stmt{Kind: strategytest.Release, Obj: m} }
func join(t int) stmt     { return stmt{Kind: strategytest.Join, Obj: t} }

// assertNot loads v and fails if it is x.
func assertNot(v, x int) stmt { return stmt{Kind: strategytest.Load, Obj: v, Val: x, Assert: true} }

// locked runs body with mutex m held.
func locked(m int, body ...stmt) stmt { return stmt{Kind: strategytest.Lock, Obj: m, Body: body} }

// TestRun checks the runner under exhaustive search on programs whose
// executions are counted by hand.
func TestRun(t *testing.T) {
	tests := []struct {
		name     string
		p        *strategytest.Program
		complete int
		failures map[trace.FailureKind]int
		traces   int      // maximal ones
		finals   []string // of the complete executions
		first    string   // the first schedule
	}{
		// the CS294-32 DPOR slides' xy: 4!/(2!2!) = 6 interleavings, 3 traces; v0 ends 1
		// or 4, v1 2 or 3, and v0 = 1 forces v1 = 2.
		{"xy", &strategytest.Program{Vars: 2, Threads: [][]stmt{{store(0, 1), store(1, 2)}, {store(1, 3), store(0, 4)}}},
			6, nil, 3, []string{"v0=1 v1=2", "v0=4 v1=2", "v0=4 v1=3"}, "1122"},
		// A lock-order inversion, no join: each thread's first lock
		// leaves either its second lock and the other's (2 orders of
		// the releases, below) or the other's first lock, a leak (the
		// body has returned): 2 * (2 + 1).
		{"abba", &strategytest.Program{Mutexes: 2, Threads: [][]stmt{
			{acquire(0), acquire(1), release(1), release(0)},
			{acquire(1), acquire(0), release(0), release(1)}}},
			4, map[trace.FailureKind]int{trace.Leak: 2}, 3, []string{""}, "11112222"},
		// The same with critical sections, joined: dining n=2, 13
		// executions and 2 deadlocks (programs/programs_test.go).
		{"dining", &strategytest.Program{Mutexes: 2, Threads: [][]stmt{{locked(0, locked(1))}, {locked(1, locked(0))}},
			Main: []stmt{join(0), join(1)}},
			11, map[trace.FailureKind]int{trace.Deadlock: 2}, 3, []string{""}, "1111022220"},
		// Two unlocked increments, joined, and an assertion that one was
		// not lost: parallelpi locked=0, 10 executions, 6 lose one.
		{"lost update", &strategytest.Program{Vars: 1, Threads: [][]stmt{{{Kind: strategytest.Inc}}, {{Kind: strategytest.Inc}}},
			Main: []stmt{join(0), join(1), assertNot(0, 1)}},
			4, map[trace.FailureKind]int{trace.Assertion: 6}, 2, []string{"v0=2"}, "1102200"},
		// A thread starts a thread that stores 1, loads v0 (the assertion
		// fails if it reads 1), then joins it: 2 orders.
		{"spawn", &strategytest.Program{Vars: 1, Threads: [][]stmt{{
			{Kind: strategytest.Spawn, Joined: true, Body: []stmt{store(0, 1)}}, assertNot(0, 1)}}},
			1, map[trace.FailureKind]int{trace.Assertion: 1}, 1, []string{"v0=1"}, "121"},
		// TryLock against a critical section: T2's TryLock before T1's
		// Lock succeeds, and T1 waits for T2's Unlock (1 execution);
		// between T1's Lock and its store it fails, and T2's store of 9
		// goes in one of 3 places among T1's store and Unlock; between
		// the store and the Unlock, 2 places; after the Unlock it
		// succeeds (1): 7. The failing TryLocks read the mutex between
		// T1's Lock and Unlock: one trace, and 2 others.
		{"trylock", &strategytest.Program{Vars: 2, Mutexes: 1, Threads: [][]stmt{
			{locked(0, store(0, 1))},
			{{Kind: strategytest.TryLock, Obj: 0, Val: 1, Body: []stmt{{Kind: strategytest.Load, Obj: 0}}}}}},
			7, nil, 3, []string{"v0=1 v1=0", "v0=1 v1=9"}, "111222"},
		// A WaitGroup orders the thread's store before the body's load.
		{"waitgroup", &strategytest.Program{Vars: 1, WaitGroups: 1, WGAdd: 1,
			Threads: [][]stmt{{store(0, 1), {Kind: strategytest.Done}}}, Main: []stmt{{Kind: strategytest.Wait}, assertNot(0, 0)}},
			1, nil, 1, []string{"v0=1"}, "01100"},
		// A Done without an Add.
		{"negative WaitGroup", &strategytest.Program{WaitGroups: 1, Threads: [][]stmt{{{Kind: strategytest.Done}}}},
			0, map[trace.FailureKind]int{trace.NegativeWaitGroup: 1}, 0, nil, "1/negative WaitGroup counter"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r, err := strategytest.Run(exhaustive.New(), tc.p, 0)
			if err != nil {
				t.Fatal(err)
			}
			failures := tc.failures
			if failures == nil {
				failures = map[trace.FailureKind]int{}
			}
			failed := 0
			for _, n := range failures {
				failed += n
			}
			finals := slices.Sorted(maps.Keys(r.Finals))
			if !r.Exhausted || r.Executions != tc.complete+failed || r.Complete != tc.complete || r.Cut != 0 ||
				!maps.Equal(r.Failures, failures) || len(r.Traces) != tc.traces || !slices.Equal(finals, tc.finals) || r.Schedules[0] != tc.first {
				t.Errorf("%d executions (%d complete, %d cut, exhausted %v), failures %v, %d traces, finals %q, schedules %v;\nwant %d complete, failures %v, %d traces, finals %q, first schedule %s",
					r.Executions, r.Complete, r.Cut, r.Exhausted, r.Failures, len(r.Traces), finals, r.Schedules,
					tc.complete, failures, tc.traces, tc.finals, tc.first)
			}
			if n := strategytest.Interleavings(tc.p); n != r.Executions {
				t.Errorf("Interleavings = %d, exhaustive search ran %d", n, r.Executions)
			}
		})
	}
}
