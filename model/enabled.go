// This file answers, through the table each primitive's file fills in
// (table.go), when a pending operation is enabled and what its
// alternatives are (the runtime's enabledness is checked against it).

package model

import "github.com/weft-go/weft/trace"

// Enabled returns the enabledness of op as thread p's pending operation in
// s, as its primitive states it (table.go).
func (s *State) Enabled(p trace.ThreadID, op trace.Op) Verdict {
	if op.Kind == trace.KindNone {
		return Disabled
	}
	m := opOf(&op)
	switch {
	case m.enabled != nil:
		return m.enabled(s, p, op)
	case m.ready != nil:
		o := s.object(op.Obj)
		if o == nil {
			return Unknown
		}
		return m.ready(o, op)
	}
	return Enabled // it never blocks
}

// ObjectOnly reports whether the enabledness of op depends on the state of
// its object alone (see Object.Ready).
func ObjectOnly(op trace.Op) bool { return opOf(&op).ready != nil }

// Ready returns the enabledness of op, an operation of ObjectOnly, in a
// state where its object is o.
func (o *Object) Ready(op trace.Op) Verdict {
	if m := opOf(&op); m.ready != nil {
		return m.ready(o, op)
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
	if opOf(&op).chanAlts {
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
func MayBlock(op trace.Op) bool { return opOf(&op).blocks() }

// Multi reports whether op may have several alternatives: a receive (its
// partners) or a select (its cases).
func Multi(op trace.Op) bool { return opOf(&op).multi }

func verdict(b bool) Verdict {
	if b {
		return Enabled
	}
	return Disabled
}
