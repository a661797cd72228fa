// This file declares the Strategy interface and the plain data the
// runtime hands it: States, Choices and InputRequests.

package strategy

import (
	"math/bits"

	"github.com/weft-go/weft/trace"
)

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
	// Changed, if not nil, lists the threads whose entry in Threads may
	// differ from the State of the previous Choose of the same execution
	// (every thread, at the first): a strategy can keep what it derives
	// from Threads at a cost per step that does not grow with the number
	// of threads. A thread may be listed that did not change, or more than
	// once. The runtime sets it for Choose; nil means unknown (synthetic
	// states, Input).
	Changed []trace.ThreadID
	// EnabledSet, if not nil, is the set of enabled threads as words of
	// bits: thread p is enabled iff bit p%64 of EnabledSet[p/64] is set
	// (the runtime sets it; synthetic states may leave it nil).
	EnabledSet []uint64
}

// NextEnabled returns the first enabled thread p >= from, or
// trace.NoThread if there is none.
func (s *State) NextEnabled(from trace.ThreadID) trace.ThreadID {
	if from < 0 {
		from = 0
	}
	if s.EnabledSet == nil {
		for p := int(from); p < len(s.Threads); p++ {
			if s.Threads[p].Alts > 0 {
				return trace.ThreadID(p)
			}
		}
		return trace.NoThread
	}
	for w := int(from) / 64; w < len(s.EnabledSet); w++ {
		x := s.EnabledSet[w]
		if w == int(from)/64 {
			x &^= 1<<(uint(from)%64) - 1
		}
		if x != 0 {
			p := w*64 + bits.TrailingZeros64(x)
			if p < len(s.Threads) {
				return trace.ThreadID(p)
			}
			return trace.NoThread
		}
	}
	return trace.NoThread
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
