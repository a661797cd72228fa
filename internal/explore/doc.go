// Package explore runs explorations for package weft, in every mode: one
// strategy in one session (Run), on several workers that hand each other
// units of work (parallel.go), and distributed over processes, as a
// Coordinator that explores the root and Parts that a PartExplorer
// explores in any process (package distrib carries them over NATS).
// Explore chooses among them from a Config, and chooses the strategy
// when the caller names none (choose.go).
//
// Every mode runs the same loop (Session.Run): the session is one
// runtime, engine.Exec, running a test body; the loop runs its executions
// under a strategy wrapped in the determinism check and panic guard
// (Checked). Each execution goes to the tally (tally.go): the counts, the
// distinct final states (FinalStates), the branch sides, and the first
// failure of each kind, shortened (shorten.go) and described step by step
// (describe.go). Results of parts merge (Result.Merge) and travel between
// processes in a wire form (distributed.go). A strategy's optional
// capabilities are looked up, and it is closed, in one place
// (lifecycle.go).
//
// Package weft holds what a test writes: the primitives, T, Check,
// Explore, Replay, the options and the Result. It turns its options into
// a Config, hands Explore the test body as a func() that runs one
// execution, and turns the Result into its own (a type alias of a type of
// this package would hide its fields from go doc):
//
//	r, err := explore.Explore(func() { body(&weft.T{}) }, &explore.Config{Strategy: "optimal", Chosen: true})
//
// A bare session runs a strategy of the caller's:
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
// Several runs may share one session (the units of a divided exploration,
// strategy.Splitter, which package dividetest runs for tests with
// ExplorePart): objects keep their names (trace.ObjectInfo.Key) from
// one run to the next. Sessions are independent: explorations in
// different goroutines run at the same time.
package explore
