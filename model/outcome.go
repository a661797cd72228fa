// This file defines the outcome of an operation in a state: what its event
// records, which event it synchronises with, whether it panics, and what
// its thread does next when the primitive decides it.

package model

import "github.com/weft-go/weft/trace"

// Alt is one alternative of a pending operation: the select case it takes
// (-1 for a select's default and for an operation that is not a select)
// and, for a receive that meets a sender on an unbuffered channel, the
// sender and its select case (-1 for a plain send). These are the event's
// Case, Partner and PartnerCase if the alternative is taken.
type Alt struct {
	Case        int32
	Partner     trace.ThreadID
	PartnerCase int32
}

// Single is the alternative of an operation that has only one.
var Single = Alt{Case: -1, Partner: trace.NoThread, PartnerCase: -1}

// Outcome is what an operation does when it runs in a state, with one of
// its alternatives.
type Outcome struct {
	Alt
	// OK and Value are the event's (trace.Event.OK, Value). If Data is
	// set, Value is the program's data, which the model does not know (the
	// value a store writes or a rendezvous receives): the event tells.
	OK    bool
	Value uint64
	Data  bool
	// Source is the index of the event this one synchronises with (the
	// partner relation of the package doc), or NoEvent.
	Source int32
	// Fail is the failure the operation raises after its step (NoFailure
	// if none). If Fatal, the execution ends there (a fatal error of Go's
	// runtime, a misuse weft reports); otherwise it is a panic of Go's,
	// which the program may recover.
	Fail  trace.FailureKind
	Fatal bool
	// Next is the thread's next pending operation where the primitive
	// decides it (a writer's second Lock step after its announce, a Cond's
	// Relock after Wait, a monitor's Reenter after Wait or an SU Signal),
	// KindNone where the thread's code does.
	Next trace.Op
}

// Outcome returns what op, the pending operation of thread p, does in s
// with alternative a (Single, or one that Alternatives gives). It does not
// check that op is enabled.
func (s *State) Outcome(p trace.ThreadID, op trace.Op, a Alt) Outcome {
	out := Outcome{Alt: a, OK: true, Source: NoEvent}
	m := opOf(&op)
	switch {
	case m.outcome != nil:
		return m.outcome(s, p, op, out)
	case m.objOutcome != nil:
		if o := s.object(op.Obj); o != nil {
			return m.objOutcome(o, p, op, out)
		}
	}
	return out
}

// Step runs alternative a of thread p's pending operation in s: it returns
// the event the runtime would record (with data the model does not know
// taken from data) and applies it. The thread's pending operation becomes
// Outcome.Next, the partner's none.
func (s *State) Step(p trace.ThreadID, a Alt, data uint64) (trace.Event, Outcome) {
	op := s.Threads[p].Op
	out := s.Outcome(p, op, a)
	// The event is built in s, not on the stack: Apply passes it to the
	// primitives' functions, through which a local would escape.
	e := &s.step
	*e = trace.Event{Thread: p, Op: op, Case: a.Case, Partner: a.Partner, PartnerCase: a.PartnerCase,
		Value: out.Value, OK: out.OK}
	if out.Data {
		e.Value = data
	}
	if a.Partner != trace.NoThread {
		e.PartnerOp = s.Threads[a.Partner].Op
		s.Threads[a.Partner].Op = trace.Op{}
	}
	e.SetSource(int(out.Source))
	s.Apply(e)
	s.Threads[p].Op = out.Next
	ev := *e
	*e = trace.Event{} // keeps nothing of the program's alive
	return ev, out
}

// Observed reports which results of an event of op (select case cas) the
// program observes: the Value of a variable's operation (but an AddOnly's,
// trace.AddOnly), of a receive (the
// value received) and of a channel's Len; the OK of a try-lock, a
// compare-and-swap, a receive, a Once's Do (whether it runs the function)
// and a timer's Stop or Reset. The other results (a reader count after
// RLock, the thread a Signal woke, a semaphore's value) are records of the
// runtime, which no operation returns. The case a select takes and the
// partner a receive meets are always observed.
func Observed(op trace.Op, cas int32) (value, ok bool) {
	if op.Kind == trace.KindSelect {
		if cas < 0 || int(cas) >= len(op.Cases) {
			return false, false
		}
		op = trace.Op{Kind: op.Cases[cas].Kind, Class: op.Class, Obj: op.Cases[cas].Obj}
	}
	if m := opOf(&op); m.observed != nil {
		return m.observed(op)
	}
	return false, false
}

// Label names an alternative of a pending operation independently of the
// state it runs in and of the interleaving that led there: the thread's
// step number (Saarikivi et al. 2012's event <p, k>, Thread.Steps) and, for an
// operation with several alternatives, which one: the select case, the
// rendezvous partner with its own step and case (PartnerStep -1 if none).
// Two alternatives of one thread's step are distinct, conflicting events.
// A strategy that keeps labels across executions names threads its own
// stable way (the trace numbers them in the order they start).
type Label struct {
	Thread      trace.ThreadID
	Step        int32
	Case        int32
	Partner     trace.ThreadID
	PartnerStep int32
	PartnerCase int32
}

// Label returns the label of alternative a of thread p's pending operation
// in s.
func (s *State) Label(p trace.ThreadID, a Alt) Label {
	l := Label{Thread: p, Step: s.Threads[p].Steps, Case: a.Case, Partner: a.Partner, PartnerStep: -1, PartnerCase: a.PartnerCase}
	if a.Partner != trace.NoThread {
		l.PartnerStep = s.Threads[a.Partner].Steps
	}
	return l
}
