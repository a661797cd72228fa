// Package strategytest implements support for testing exploration
// strategies (implementations of strategy.Strategy), as testing/fstest
// does for file systems: a synthetic runner that executes a program model
// under a strategy without weft's runtime, and a conformance check against
// exhaustive search.
//
// # The runner
//
// Run executes a Program step by step as weft's runtime would: before each
// step it hands the strategy a strategy.State (every thread's pending
// operation and whether it is enabled), runs the chosen operation, records
// its event, runs the thread's local code up to its next operation (which
// may start threads), and at the end hands the strategy the trace. Threads
// are numbered, objects registered and events, enabled sets and final
// pending operations recorded exactly as the runtime records them (weft's
// own tests compare the two, execution by execution, on generated
// programs), but no goroutine runs: a strategy's test stays a plain
// function of data.
//
// A Program is a test body as data (the programs of weft's random program
// generator): variables (load, store, add, compare-and-swap), mutexes
// (critical sections, TryLock, or unbalanced Acquire and Release),
// WaitGroups, threads started by threads, and joins, with assertions on the
// values loaded. Run reports the executions, how each ended, their
// schedules, and the Mazurkiewicz traces and final states they reached:
//
//	// Two threads store to v0 and v1 in opposite orders (the CS294-32 DPOR slides' xy).
//	p := &strategytest.Program{Vars: 2, Threads: [][]strategytest.Stmt{
//		{{Kind: strategytest.Store, Obj: 0, Val: 1}, {Kind: strategytest.Store, Obj: 1, Val: 2}},
//		{{Kind: strategytest.Store, Obj: 1, Val: 3}, {Kind: strategytest.Store, Obj: 0, Val: 4}},
//	}}
//	r, err := strategytest.Run(mystrategy.New(), p, 1000)
//	if err != nil {
//		t.Fatal(err) // the strategy chose a thread that was not enabled
//	}
//	if !r.Exhausted || r.Complete != 3 || len(r.Traces) != 3 {
//		t.Errorf("%d executions (%v), %d traces; want one per trace", r.Complete, r.Schedules, len(r.Traces))
//	}
//
// RunEach runs a program that changes between executions, to test how a
// strategy handles a test body that is not deterministic.
//
// # The conformance check
//
// Conformance runs a strategy and exhaustive search (package exhaustive)
// on generated programs and checks what every strategy must do (choose
// enabled threads only, reach only what the program can reach, not report
// a divergence, end the exploration or run to the bound) and what the
// strategy claims (Claims): completeness (the DPOR family), one execution
// per trace (Optimal-DPOR), one per interleaving (exhaustive search).
// A strategy's package test calls it once per variant:
//
//	func TestConformance(t *testing.T) {
//		strategytest.Conformance(t, func() strategy.Strategy { return mystrategy.New() },
//			strategytest.Options{Programs: 200, Claims: strategytest.Claims{Complete: true}})
//	}
//
// The programs are those of weft's generator (internal/gen, default
// options) that Run models, from seed Options.From on; a program with more
// interleavings than Options.MaxInterleavings is replaced by the next one,
// and the check fails if it cannot find Options.Programs programs.
package strategytest
