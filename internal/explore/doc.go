// Package explore runs explorations for package weft: the session (one
// runtime, engine.Exec, running a test body), the loop that runs its
// executions under a strategy (Session.Run), the determinism check and
// panic guard that wrap every strategy (Checked), and the count of
// distinct final states (FinalStates).
//
// Package weft holds what a test writes: the primitives, T, Check,
// Explore, Replay, the options and the Result. It builds a Session for an
// exploration, hands Run the strategy and a Loop whose Record tallies each
// execution into its Result, and turns the Outcome into the Result's
// bounds and errors:
//
//	x := explore.NewSession(explore.SessionConfig{MaxSteps: 10000}, func() { body(w) })
//	defer x.Close()
//	out := x.Run(s, explore.Loop{
//		Name:   "optimal",
//		Record: func(tr *trace.Trace, end trace.End) { tally(tr, end) },
//	})
//	if out.Err != nil {
//		// the strategy panicked: a bug in weft (ErrInternal)
//	}
//
// The Result, its Failures and their Steps and Blocked threads stay in
// package weft, with the code that fills them (explore.go, report.go
// there): they are what a test reads, and a type alias of an internal type
// would hide their fields and methods from go doc.
//
// Several runs may share one session (the parts of an exploration divided
// into units of work, strategy.Splitter): objects keep their names
// (trace.ObjectInfo.Key) from one run to the next. Sessions are
// independent: explorations in different goroutines run at the same time.
package explore
