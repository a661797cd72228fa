// Package strategy defines the interface between weft's runtime and its
// exploration strategies.
//
// A strategy decides every choice of an execution and learns from each
// finished one. The runtime calls Next before each execution, Choose at each
// scheduling point (before each visible operation, when at least one thread is
// enabled), Input when the program reads an input value, and Finish when the
// execution ends. A strategy never touches a goroutine: it sees States and
// Traces, plain data from package trace, so it can be tested on synthetic
// traces: package strategytest runs programs under a strategy without the
// runtime, and checks a strategy against exhaustive search. The runtime
// never imports a strategy.
//
// A Choice names an enabled thread and one of its alternatives. Most pending
// operations have a single alternative (0). A receive on an unbuffered channel
// has one per sender ready to meet it, a select one per ready case and
// partner, a select with default and no ready case just the default. Choosing
// Cut ends the execution without failure (a sleep set blocked it).
//
// The algorithms live in subpackages: exhaustive, random, pct and replay,
// the DPOR family (dpor, flip, optimal) and concolic. Wrappers (the
// driver's determinism check and panic guard) take a Strategy and return
// one; they implement Wrapper, whose Unwrap gives the inner strategy.
//
// # Optional capabilities
//
// Besides the four methods, a strategy may have optional capabilities, each
// an interface of this package (capability.go, unit.go). For each: what a
// strategy promises by implementing it, and when the driver (the
// exploration loop behind weft.Explore) calls it.
//
//   - Wrapper: the strategy runs another one inside it, which Unwrap
//     returns. As, and so the driver, look through it for every capability
//     below but Splitter and LargeSplitter.
//   - Failer: Err returns why the strategy could not be set up or cannot
//     handle the program. The driver calls it before the first execution
//     (an error: nothing is explored) and after every execution (an error
//     ends the exploration, whose error it becomes).
//   - BlockedTimeOnly: the strategy models virtual time that moves only
//     when every thread is blocked. The driver looks for it when it builds
//     the exploration, and refuses the strategy if time moves at any step.
//   - Diverger: the strategy follows a record (a replay token, the prefix
//     of a unit), and Diverged returns why the last execution did not, or
//     nil. The driver calls it after every Finish; an error makes the
//     execution a nondeterminism failure and ends the exploration.
//   - Solving: SolverStats returns the counters of the strategy's solver.
//     The driver calls it when the exploration ends, for Result.Solver.
//   - Counting: Counters returns counts of the strategy's own work. The
//     driver calls it when the exploration (or a unit's) ends, for
//     Result.Counters.
//   - Covering: the strategy aims at a coverage goal, not at every
//     behaviour, and Covers says which. The driver calls it when the
//     exploration ends, for the summary of one the strategy finished.
//   - Incomplete: the strategy may have missed behaviours, and
//     Incomplete says why ("" when it did not). The driver calls it when
//     the exploration ends; a reason makes the result not exhausted, with
//     the reason as its note.
//   - SymbolicTracer: SymbolicTrace reports whether the strategy needs
//     symbolic traces (a fresh symbol for every read of a symbolic value,
//     the accesses with their expressions). The runtime calls it before
//     every execution.
//   - Closer: Close releases the strategy's resources (a solver's native
//     memory). The driver calls it once, when the exploration ends, and
//     calls the strategy no more.
//   - Stoppable: the strategy polls the Stop that SetStop hands it in its
//     long analyses and returns at once when it reports true; its state
//     need not be usable after that. The driver calls SetStop once, before
//     the first execution, and ends the exploration once the Stop fired.
//   - Splitter: the exploration divides into units of work that a strategy
//     with the same options explores (Resume) and hands back (Handback)
//     for the splitter to Join; a unit explored and joined before the
//     splitter's next Next gives exactly the executions the splitter alone
//     would have made. The parallel and distributed modes call Split
//     between two executions (after Finish, before Next), and Join as
//     units come back. The driver asserts it on the strategy itself, not
//     through wrappers.
//   - LargeSplitter: a Splitter whose SplitLarge hands out the branches
//     left at the shallowest state of its path that has any, a larger unit
//     whose exploration may repeat some executions. Parallel workers and
//     distributed parts call it in place of Split where it exists.
//   - Mailer: a LargeSplitter whose large units take letters from their
//     splitter while they are explored (its reversals that belong in
//     their trees, then the word that no more come), which makes the
//     division exact. Parallel workers enable it (EnableMail), route each
//     letter to the unit it is for and park a unit that waits for one
//     (AwaitsMail); they find it through wrappers (As).
//
// The driver finds the capabilities with As, which looks through wrappers
// as errors.As does, so a wrapper never hides them:
//
//	if c, ok := strategy.As[strategy.Closer](s); ok {
//		c.Close()
//	}
//
// A wrapper of one's own must therefore implement Unwrap: weft.Explore
// refuses a custom strategy that holds another in a field of interface
// type (embedding strategy.Strategy, say) and hides a capability the
// driver needs of it (SymbolicTracer, Failer, BlockedTimeOnly, Closer).
//
// A strategy's panic is a bug in weft: the driver catches it where it
// calls the strategy, ends the exploration with an internal error, and the
// program under test never sees it.
//
// A minimal strategy that always runs the lowest enabled thread, once:
//
//	type first struct{ done bool }
//
//	func (f *first) Next() bool { ok := !f.done; f.done = true; return ok }
//	func (f *first) Choose(s *strategy.State) strategy.Choice {
//		for i := range s.Threads {
//			if s.Threads[i].Alts > 0 {
//				return strategy.Choice{Thread: trace.ThreadID(i)}
//			}
//		}
//		panic("unreachable: Choose is called only with an enabled thread")
//	}
//	func (f *first) Input(s *strategy.State, in strategy.InputRequest) uint64 { return in.Default }
//	func (f *first) Finish(*trace.Trace, trace.End) {}
package strategy
