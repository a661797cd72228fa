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
// Besides the four methods, a strategy may have optional capabilities, each
// an interface of this package: Failer (it could not be set up), Diverger
// (it follows a record and can fail to), Solving (solver counters),
// Counting (its own counters), SymbolicTracer (it needs symbolic traces),
// Closer (resources to release) and Stoppable (it polls a Stop in its long
// analyses and abandons them once the exploration's timeout or context
// has passed). The driver finds them with As, which looks
// through wrappers as errors.As does, so a wrapper never hides them:
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

import "github.com/weft-go/weft/trace"

// Strategy explores the executions of a program.
type Strategy interface {
	// Next prepares the next execution; it returns false when the
	// exploration is complete.
	Next() bool
	// Choose picks the next step in state s, which has at least one enabled
	// thread.
	Choose(s *State) Choice
	// Input picks the value of an input the program reads in state s.
	Input(s *State, in InputRequest) uint64
	// Finish receives the finished execution. tr is valid only during the
	// call.
	Finish(tr *trace.Trace, end trace.End)
}

// State is the state before a step, as a strategy sees it. The runtime reuses
// it; it is valid only during the call.
type State struct {
	// Step is the number of steps taken so far.
	Step int
	// Threads holds every thread started so far, indexed by ThreadID.
	Threads []Thread
	// Trace is the execution so far: its events and enabled sets.
	Trace *trace.Trace
	// Alternatives, if not nil, tells what each alternative of a pending
	// operation is (the runtime sets it; synthetic states may leave it
	// nil).
	Alternatives Describer
}

// A Describer tells what alternative a of thread p's pending operation is,
// in the state it belongs to.
type Describer interface {
	Alternative(p trace.ThreadID, a int32) Alternative
}

// Alternative is one alternative of a pending operation: the select case
// it takes (-1 for a select's default and for an operation that is not a
// select) and, for a receive that meets a sender on an unbuffered channel,
// the sender and its select case (-1 for a plain send). These are the
// event's Case, Partner and PartnerCase if the alternative is chosen.
type Alternative struct {
	Case        int32
	Partner     trace.ThreadID
	PartnerCase int32
}

// Thread is a thread's pending operation in a State.
type Thread struct {
	Op trace.Op
	// Alts is the number of alternatives the pending operation has in this
	// state; 0 means the thread is blocked (or finished).
	Alts int32
	// Done reports that the thread has finished.
	Done bool
}

// Enabled reports whether thread p can take a step.
func (s *State) Enabled(p trace.ThreadID) bool {
	return int(p) < len(s.Threads) && s.Threads[p].Alts > 0
}

// Choice is a strategy's decision: run alternative Alt of thread Thread's
// pending operation. A Choice whose Thread is trace.NoThread cuts the
// execution.
type Choice struct {
	Thread trace.ThreadID
	Alt    int32
}

// Cut is the Choice that ends an execution without failure.
var Cut = Choice{Thread: trace.NoThread}

// InputRequest describes an input value the program reads: its name and
// bit width, the inclusive range it was declared with (as signed values when
// Signed), and the value to use when the strategy has no reason to pick
// another.
type InputRequest struct {
	Name     string
	Bits     int
	Signed   bool
	Min, Max int64
	Default  uint64
	// Thread is the thread that reads the input (the runtime sets it;
	// synthetic requests may leave it 0).
	Thread trace.ThreadID
}
