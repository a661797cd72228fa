// Package random explores a program with seeded random schedules.
//
// At every scheduling point the strategy picks uniformly among all enabled
// (thread, alternative) pairs: a thread whose pending operation has three
// alternatives (say, a receive that can meet one of three senders) is three
// times as likely to be chosen as a thread with one. Input values are drawn
// uniformly from the range the program declared.
//
// Runs are reproducible: execution i of a run seeded with s draws from a PCG
// generator (math/rand/v2) derived from (s, i) alone, so the same seed gives
// the same sequence of executions, and any single execution can be repeated
// without the ones before it. Next always reports true: the driver bounds the
// number of executions (weft.WithMaxRuns).
//
// Walkthrough:
//
//	s := random.New(42)
//	for s.Next() {             // the driver's loop, bounded by the driver
//		c := s.Choose(state)   // at each scheduling point
//		...
//		s.Finish(tr, end)
//	}
//
// From a test, by name: weft.Check(t, body, weft.WithStrategy("random"),
// weft.WithSeed(42), weft.WithMaxRuns(10_000)).
package random
