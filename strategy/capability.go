// This file declares the optional capabilities of a strategy and As, which
// finds one through wrappers.

package strategy

import "github.com/weft-go/weft/solver"

// A Wrapper is a strategy that runs another one inside it (a determinism
// check, a panic guard). Unwrap returns the inner strategy. As looks for a
// capability through the chain of Unwrap calls, as errors.As does for
// errors, so a wrapper does not hide the capabilities of what it wraps.
type Wrapper interface {
	Strategy
	Unwrap() Strategy
}

// A Failer is a strategy that may fail to set up (a concolic strategy
// without its solver) or find that it cannot handle the program (a
// primitive it does not model). The driver calls Err before the first
// execution, and explores nothing if it is not nil, and after each
// execution: an error then ends the exploration, whose error it becomes
// (the executions before it count, the one that revealed it too).
type Failer interface {
	Err() error
}

// A BlockedTimeOnly strategy models virtual time that moves only when
// every thread is blocked (its own model of sleeps and timers): an
// exploration where time moves at any step (a clock thread's advances,
// trace.KindAdvance) refuses it.
type BlockedTimeOnly interface {
	BlockedTimeOnly()
}

// A Diverger is a strategy that follows a record (a replay token, the
// prefix of a subtree) and can fail to: Diverged returns why the last
// execution did not follow it, or nil. The driver reports the execution
// as nondeterministic and ends the exploration.
type Diverger interface {
	Diverged() error
}

// A Solving strategy solves constraints; SolverStats returns its solver's
// counters for the Result.
type Solving interface {
	SolverStats() solver.Stats
}

// A Covering strategy aims at a coverage goal, not at every behaviour of
// the program (con2: the branch sides reachable with at most k
// interferences). It finishes when the goal is met, so a deadlock, or a
// failure the goal does not lead to, is found only when an execution runs
// into it. Covers says what the goal is ("every branch side reachable
// with at most 2 interferences"), for the summary of an exploration the
// strategy finished.
type Covering interface {
	Covers() string
}

// An Incomplete strategy may have missed behaviours of the program it
// explored, for a reason it knows (optimal on a body with w.Await, where a
// waiter that reaches its await late can hide a trace). Incomplete says
// why, or "" when nothing was missed. The explorer asks it once the
// exploration ends: a non-empty reason makes the result not exhausted,
// with the reason as its note, so that an exploration the strategy
// finished is not reported as exhaustive.
type Incomplete interface {
	Incomplete() string
}

// A Closer holds resources (a solver's native memory) that Close releases;
// the driver calls it once, when the exploration ends.
type Closer interface {
	Close() error
}

// As returns the first strategy in the chain s, s.Unwrap(), ... that
// implements T (one of the capability interfaces above, or any other), and
// whether there is one.
func As[T any](s Strategy) (T, bool) {
	for s != nil {
		if t, ok := s.(T); ok {
			return t, true
		}
		w, ok := s.(Wrapper)
		if !ok {
			break
		}
		s = w.Unwrap()
	}
	var zero T
	return zero, false
}

// A Counter is a named count of a strategy's own work (the events of an
// unfolding, the races an Optimal-DPOR reversed), reported in the Result.
type Counter struct {
	Name  string
	Value int64
}

// A Counting strategy reports counters of its own work once the
// exploration ends; the driver puts them in the Result (Result.Counters),
// and weft run prints them in its summary.
type Counting interface {
	Counters() []Counter
}

// A SymbolicTracer asks the runtime for symbolic traces (Farzan et al. 2013, §4):
// when SymbolicTrace returns true, every read of a shared variable whose
// values carry an expression (weft's concolic Sym and SBool) gives the
// program a fresh variable (trace.ReadSymbol) in place of the writer's
// expression, and the trace records the symbolic side of every access
// (Trace.Accesses). The runtime asks once per execution, through wrappers
// (As). Without it, reads pass the writer's expression on and nothing more
// is recorded.
type SymbolicTracer interface {
	SymbolicTrace() bool
}

// A Stoppable strategy can abandon a long analysis (the races of a long
// execution, a backtracking computation, the extension of an unfolding, a
// solver call) when a bound of the exploration (its timeout, its context,
// an interrupt) has passed. The driver hands it a Stop with SetStop before
// the first execution; the strategy polls Stop.Poll in its long loops and,
// once it reports true, returns at once from the method it is in. Its
// state need not be usable after that: the driver ends the exploration
// there and reports the bound that stopped it, never an exhausted
// exploration or a failure of the strategy.
type Stoppable interface {
	SetStop(stop *Stop)
}
