// This file states, in one place per primitive, when a pending operation
// is enabled and what its alternatives are (internal/engine/enabled.go is
// checked against it).

package model

import "github.com/weft-go/weft/trace"

// Enabled returns the enabledness of op as thread p's pending operation in
// s.
func (s *State) Enabled(p trace.ThreadID, op trace.Op) Verdict {
	switch op.Kind {
	case trace.KindNone:
		return Disabled
	case trace.KindJoin:
		t := int(op.Arg)
		return verdict(t >= 0 && t < len(s.Threads) && s.Threads[t].Done)
	case trace.KindSleep:
		return s.sleepReady(op.Arg)
	case trace.KindAdvance:
		if !s.timed() {
			return Unknown
		}
		return verdict(s.nextDeadline(true) >= 0)
	case trace.KindRelock:
		return s.relockReady(p, op)
	case trace.KindAwait:
		return s.awaitReady(p, op)
	case trace.KindSend, trace.KindRecv, trace.KindSelect:
		return s.chanAlternatives(p, op, func(Alt) bool { return false })
	case trace.KindMEnter, trace.KindMReenter:
		o := s.object(op.Obj)
		if o == nil {
			return Unknown
		}
		return verdict(o.monitorReady(p, op))
	}
	if !ObjectOnly(op) {
		return Enabled // it never blocks
	}
	o := s.object(op.Obj)
	if o == nil {
		return Unknown
	}
	return o.Ready(op)
}

// ObjectOnly reports whether the enabledness of op depends on the state of
// its object alone (see Object.Ready).
func ObjectOnly(op trace.Op) bool {
	switch op.Kind {
	case trace.KindLock, trace.KindRLock, trace.KindWGWait, trace.KindOnceDo, trace.KindP, trace.KindV:
		return true
	}
	return false
}

// Ready returns the enabledness of op, an operation of ObjectOnly, in a
// state where its object is o.
func (o *Object) Ready(op trace.Op) Verdict {
	switch op.Kind {
	case trace.KindLock:
		if op.Class == trace.ClassRWMutex {
			return verdict(o.rwReady(op))
		}
		return verdict(!o.Locked)
	case trace.KindRLock:
		return verdict(o.rwReady(op))
	case trace.KindWGWait:
		return verdict(o.N == 0)
	case trace.KindOnceDo:
		// Do waits while another thread runs the function.
		return verdict(!o.Locked)
	case trace.KindP:
		return verdict(o.N > 0)
	case trace.KindV:
		return verdict(op.Class != trace.ClassBinarySemaphore || o.N < 1)
	}
	return Enabled
}

// Alternatives calls yield with each alternative of op, thread p's pending
// operation in s, in the runtime's order (the alternatives a strategy
// chooses among, strategy.Thread.Alts), until yield returns false. Most
// operations have one alternative, Single, if enabled; receives and
// selects are described in chan.go. The verdict is Unknown if the
// alternatives depend on what s does not model (some may be missing, or
// not really there), else Enabled if op has an alternative, Disabled if
// not.
func (s *State) Alternatives(p trace.ThreadID, op trace.Op, yield func(Alt) bool) Verdict {
	switch op.Kind {
	case trace.KindSend, trace.KindRecv, trace.KindSelect:
		return s.chanAlternatives(p, op, yield)
	}
	v := s.Enabled(p, op)
	if v != Disabled {
		yield(Single)
	}
	return v
}

// Alts returns the number of alternatives of op, thread p's pending
// operation in s (0: it is blocked), as Alternatives counts them.
func (s *State) Alts(p trace.ThreadID, op trace.Op) (int32, Verdict) {
	var n int32
	v := s.Alternatives(p, op, func(Alt) bool { n++; return true })
	return n, v
}

// MayBlock reports whether an operation like op can be disabled.
func MayBlock(op trace.Op) bool {
	switch op.Kind {
	case trace.KindLock, trace.KindRLock, trace.KindRelock, trace.KindWGWait, trace.KindOnceDo,
		trace.KindP, trace.KindV, trace.KindMEnter, trace.KindMReenter, trace.KindJoin,
		trace.KindSleep, trace.KindSend, trace.KindRecv, trace.KindSelect, trace.KindAwait,
		trace.KindAdvance:
		return true
	}
	return false
}

// Multi reports whether op may have several alternatives: a receive (its
// partners) or a select (its cases).
func Multi(op trace.Op) bool { return op.Kind == trace.KindRecv || op.Kind == trace.KindSelect }

func verdict(b bool) Verdict {
	if b {
		return Enabled
	}
	return Disabled
}
