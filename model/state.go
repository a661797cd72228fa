// This file defines the abstract state of an execution (objects, threads,
// virtual time) and how an executed event changes it.

package model

import (
	"slices"

	"github.com/weft-go/weft/trace"
)

// Verdict is whether an operation is enabled, as far as a state tells.
type Verdict uint8

// The verdicts.
const (
	Disabled Verdict = iota
	Enabled
	// Unknown: the state does not model what the answer depends on
	// (virtual time, in a State that is not Timed).
	Unknown
)

func (v Verdict) String() string {
	switch v {
	case Disabled:
		return "disabled"
	case Enabled:
		return "enabled"
	}
	return "unknown"
}

// NoEvent is the event index of no event.
const NoEvent int32 = -1

// State is the abstract state of an execution: every object's state, every
// thread's pending operation and number of steps, and virtual time.
//
// The pending operations are the caller's to set (Thread.Op): what a thread
// does next is decided by its code, which the model does not run. Everything
// else is changed by Apply. The zero State has no objects and no threads;
// Reset sizes it for a trace.
type State struct {
	Objects []Object
	Threads []Thread
	// Now is virtual time. It is modelled if Timed: the state was
	// reached from the start of an execution by Apply of every event and
	// Advance wherever no thread was enabled, as the runtime does when
	// time moves only then. When time moves at any step, an advance of
	// the clock (trace.KindAdvance) sets it, and a state that applied an
	// event on time (trace.ClassClock) models it whether Timed or not.
	Now   int64
	Timed bool
	// clocked reports that s applied an event on virtual time that moves
	// at any step (trace.ClassClock): every move of time is then an event
	// (trace.KindAdvance), so s knows time even if not Timed, for a state
	// reached by any set of events closed under happens-before (the
	// clock's advances are ordered with every event that reads time).
	clocked bool
	// Evals are the evaluations of the conditions of awaits that decide
	// their enabledness (trace.Trace.Evals); without them, a w.Await's
	// is Unknown.
	Evals []trace.AwaitEval
	// Partners, if not nil, lists in increasing order the only threads
	// whose pending operations a receive looks at for a sender to meet:
	// a State built for the alternatives of one receive sets only the
	// threads that send on its channels, and lists them here. Reset sets
	// it to nil.
	Partners []trace.ThreadID
	// step is the event Step builds.
	step trace.Event
	// Events is the number of events applied: Apply gives the next one
	// this index, which the sources of later events refer to.
	Events int32
}

// Thread is a thread's part of a State.
type Thread struct {
	// Op is the thread's pending operation (KindNone if it has none: it
	// has finished, or does not exist yet).
	Op trace.Op
	// Steps is the number of events the thread took part in (as the
	// thread or as a rendezvous partner): the next one is its step Steps,
	// counted from 0, which names it across executions (Saarikivi et al. 2012's event
	// <p, k>).
	Steps int32
	// Last is the index of its last event, or NoEvent.
	Last int32
	// Done reports that the thread has finished.
	Done bool
}

// Reset sets s to the initial state of an execution with the given objects
// and number of threads, keeping its memory. Pending operations are none
// and no thread is done.
func (s *State) Reset(objs []trace.ObjectInfo, threads int) {
	s.Objects = s.Objects[:0]
	s.Threads = s.Threads[:0]
	s.Grow(objs, threads)
	s.Now, s.Events, s.clocked, s.Partners = 0, 0, false, nil
}

// Grow adds to s the objects of objs and the threads beyond those it has,
// in their initial states, keeping its memory.
func (s *State) Grow(objs []trace.ObjectInfo, threads int) {
	if len(s.Objects) < len(objs) || len(s.Threads) < threads {
		s.grow(objs, threads)
	}
}

// grow is Grow where s has too few objects or threads.
func (s *State) grow(objs []trace.ObjectInfo, threads int) {
	// In one growth each: a state made for a long execution at once (a
	// reversal's) would otherwise grow by a quarter at a time.
	if n := len(s.Objects); n < len(objs) {
		s.Objects = slices.Grow(s.Objects, len(objs)-n)[:len(objs)]
		for i := n; i < len(objs); i++ {
			s.Objects[i].Reset(&objs[i])
		}
	}
	if n := len(s.Threads); n < threads {
		s.Threads = slices.Grow(s.Threads, threads-n)[:threads]
		for i := n; i < threads; i++ {
			s.Threads[i] = Thread{Last: NoEvent}
		}
	}
}

// CopyFrom makes s a copy of t, reusing the memory of s.
func (s *State) CopyFrom(t *State) {
	s.Now, s.Timed, s.clocked, s.Events, s.Partners = t.Now, t.Timed, t.clocked, t.Events, t.Partners
	s.Threads = append(s.Threads[:0], t.Threads...)
	n := len(t.Objects)
	for len(s.Objects) < n {
		s.Objects = append(s.Objects, Object{})
	}
	s.Objects = s.Objects[:n]
	for i := range n {
		s.Objects[i].copyFrom(&t.Objects[i])
	}
}

// Apply applies executed event e to s: the states of the objects it
// touched, the steps of its threads. The event's recorded outcome (OK, the
// partner, the case, the value) is taken as given: Apply applies what
// happened, Outcome says what would.
func (s *State) Apply(e *trace.Event) {
	i := s.Events
	s.Events++
	m := opOf(&e.Op)
	a := e.Op.Obj
	if m.object != nil {
		a = m.object(e)
	}
	if a >= 0 && int(a) < len(s.Objects) {
		if p := classes[s.Objects[a].Class]; p != nil && p.apply != nil {
			p.apply(&s.Objects[a], e, i)
		}
	}
	if m.applyArg != nil {
		if b := trace.ArgObject(&e.Op); b >= 0 && int(b) < len(s.Objects) {
			m.applyArg(&s.Objects[b], e, i)
		}
	}
	if e.Op.Class == trace.ClassClock {
		s.clocked = true
		if e.Op.Kind == trace.KindAdvance {
			s.Now = int64(e.Value)
		}
	}
	if t := e.Thread; t >= 0 && int(t) < len(s.Threads) {
		s.Threads[t].Steps++
		s.Threads[t].Last = i
	}
	if t := e.Partner; t >= 0 && int(t) < len(s.Threads) {
		s.Threads[t].Steps++
		s.Threads[t].Last = i
	}
}

// Touched returns the objects whose state event e changes: its object (or
// the one its primitive names: for a select, the channel of the case it
// took) and a second object its operation names in Op.Arg, if it changes
// one (NoObject if none).
func Touched(e *trace.Event) (a, b trace.ObjectID) {
	a, b = e.Op.Obj, trace.NoObject
	m := opOf(&e.Op)
	if m.object != nil {
		a = m.object(e)
	}
	if m.applyArg != nil {
		b = trace.ArgObject(&e.Op)
	}
	return a, b
}

// object returns object o of s, or nil if s has no such object.
func (s *State) object(o trace.ObjectID) *Object {
	if o < 0 || int(o) >= len(s.Objects) {
		return nil
	}
	return &s.Objects[o]
}

// InOnce reports whether thread p is running the function of a Once.
func (s *State) InOnce(p trace.ThreadID) bool {
	for i := range s.Objects {
		if o := &s.Objects[i]; o.Class == trace.ClassOnce && o.Locked && o.Owner == p {
			return true
		}
	}
	return false
}

// timed reports whether s models virtual time (see State.Now).
func (s *State) timed() bool { return s.Timed || s.clocked }
