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
	o := s.object(op.Obj)
	switch op.Kind {
	case trace.KindJoin:
		if t := int(op.Arg); t >= 0 && t < len(s.Threads) {
			out.Source = s.Threads[t].Last
		}
		return out
	case trace.KindSleep, trace.KindNow:
		out.Value = uint64(s.Now)
		out.Data = !s.timed()
		return out
	case trace.KindAdvance:
		out.Value = uint64(s.nextDeadline(true))
		out.Data = !s.timed()
		return out
	case trace.KindSelect:
		return s.selectOutcome(op, out)
	case trace.KindWait, trace.KindRelock:
		if op.Class == trace.ClassCond {
			return s.condOutcome(p, op, out)
		}
	}
	if o == nil {
		return out
	}
	switch op.Class {
	case trace.ClassVar:
		o.varOutcome(op, &out)
	case trace.ClassMutex:
		o.mutexOutcome(op, &out)
	case trace.ClassRWMutex:
		o.rwOutcome(op, &out)
	case trace.ClassWaitGroup:
		o.waitGroupOutcome(op, &out)
	case trace.ClassOnce:
		o.onceOutcome(op, &out)
	case trace.ClassCond:
		o.condSignalOutcome(op, &out)
	case trace.ClassChan:
		o.chanOutcome(op.Kind, &out)
	case trace.ClassTimer, trace.ClassClock:
		o.timerOutcome(op, &out)
	case trace.ClassSemaphore, trace.ClassBinarySemaphore:
		o.semaphoreOutcome(op, &out)
	case trace.ClassMonitor:
		o.monitorOutcome(p, op, &out)
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
	e := trace.Event{Thread: p, Op: op, Case: a.Case, Partner: a.Partner, PartnerCase: a.PartnerCase,
		Value: out.Value, OK: out.OK}
	if out.Data {
		e.Value = data
	}
	if a.Partner != trace.NoThread {
		e.PartnerOp = s.Threads[a.Partner].Op
		s.Threads[a.Partner].Op = trace.Op{}
	}
	e.SetSource(int(out.Source))
	s.Apply(&e)
	s.Threads[p].Op = out.Next
	return e, out
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
	k := op.Kind
	if k == trace.KindSelect {
		if cas < 0 || int(cas) >= len(op.Cases) {
			return false, false
		}
		k = op.Cases[cas].Kind
	}
	switch k {
	case trace.KindAdd:
		// An AddOnly returns nothing.
		return !trace.AddOnly(op), false
	case trace.KindLoad, trace.KindSwap:
		return true, false
	case trace.KindCAS:
		return true, true
	case trace.KindRecv:
		return true, true
	case trace.KindLen:
		return true, false
	case trace.KindTryLock, trace.KindOnceDo, trace.KindTimerStop:
		return false, true
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
