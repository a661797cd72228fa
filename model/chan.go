// This file models channels and select (internal/engine/chan.go): the
// buffer of a buffered channel with the send each value
// came from, the closed flag and its close, and the pending sends of other
// threads that a receive on an unbuffered channel can meet.

package model

import "github.com/weft-go/weft/trace"

func init() {
	register(&primitive{class: trace.ClassChan, apply: (*Object).applyChan, ops: []opModel{
		{kind: trace.KindSend, enabled: (*State).chanEnabled, chanAlts: true, objOutcome: (*Object).chanOpOutcome},
		{kind: trace.KindRecv, enabled: (*State).chanEnabled, chanAlts: true, multi: true, observed: observeBoth, objOutcome: (*Object).chanOpOutcome},
		{kind: trace.KindClose, objOutcome: (*Object).chanOpOutcome},
		{kind: trace.KindLen, objOutcome: (*Object).chanOpOutcome, observed: observeValue},
		{kind: trace.KindSelect, enabled: (*State).chanEnabled, chanAlts: true, multi: true,
			outcome: (*State).selectOutcome, object: selectObject},
	}})
}

// selectObject returns the object select e changes: the channel of the
// case it took (NoObject for the default).
func selectObject(e *trace.Event) trace.ObjectID {
	if e.Case >= 0 && int(e.Case) < len(e.Op.Cases) {
		return e.Op.Cases[e.Case].Obj
	}
	return trace.NoObject
}

// chanEnabled is the enabledness of thread p's send, receive or select, op.
func (s *State) chanEnabled(p trace.ThreadID, op trace.Op) Verdict {
	return s.chanAlternatives(p, op, noAlt)
}

// noAlt takes no alternative.
func noAlt(Alt) bool { return false }

// chanOpOutcome is the outcome of op on channel o.
func (o *Object) chanOpOutcome(_ trace.ThreadID, op trace.Op, out Outcome) Outcome {
	o.chanOutcome(op.Kind, &out)
	return out
}

// applyChan applies event e, of index i, to channel o (for a select, the
// channel of the case it took).
func (o *Object) applyChan(e *trace.Event, i int32) {
	k := e.Op.Kind
	if k == trace.KindSelect {
		if e.Case < 0 {
			return
		}
		k = e.Op.Cases[e.Case].Kind
	}
	switch k {
	case trace.KindSend:
		if e.OK && o.Cap > 0 {
			o.N++
			o.Buf = append(o.Buf, Msg{Event: i, Value: e.Value})
		}
	case trace.KindRecv:
		if e.Partner == trace.NoThread && e.OK && o.Cap > 0 {
			o.N--
			if len(o.Buf) > 0 {
				o.Buf = o.Buf[:copy(o.Buf, o.Buf[1:])]
			}
		}
	case trace.KindClose:
		if e.OK {
			o.Closed, o.Rel = true, i
		}
	}
}

// chanOutcome is the outcome of an operation of kind k (a plain one or a
// select's case) on channel o, whose alternative out.Alt is set.
func (o *Object) chanOutcome(k trace.Kind, out *Outcome) {
	switch k {
	case trace.KindSend:
		out.Data = true
		if o.Closed {
			out.OK, out.Source, out.Fail = false, o.Rel, trace.SendOnClosed
		}
	case trace.KindRecv:
		switch {
		case out.Partner != trace.NoThread:
			out.Data = true // the sender's value (a timer's: its deadline)
		case o.Cap > 0 && len(o.Buf) > 0:
			out.Value, out.Source = o.Buf[0].Value, o.Buf[0].Event
		case o.Cap > 0 && o.N > 0:
			out.Data = true // a value the model did not see sent
		default: // closed (and drained): the zero value
			out.OK, out.Source = false, o.Rel
		}
	case trace.KindClose:
		if o.Closed {
			out.OK, out.Source, out.Fail = false, o.Rel, trace.CloseOfClosed
		}
	case trace.KindLen:
		out.Value = uint64(o.N)
	}
}

// selectOutcome is the outcome of select op with the alternative in out.
func (s *State) selectOutcome(_ trace.ThreadID, op trace.Op, out Outcome) Outcome {
	if out.Case < 0 || int(out.Case) >= len(op.Cases) {
		return out // default
	}
	c := op.Cases[out.Case]
	if o := s.object(c.Obj); o != nil {
		o.chanOutcome(c.Kind, &out)
	}
	return out
}

// sendReady reports whether a send on channel o (nil for a nil channel)
// can complete by itself: the channel is closed (it panics) or has room. A
// send on an unbuffered channel is completed by a receiver.
func sendReady(o *Object) bool {
	if o == nil || o.Class == trace.ClassTimer {
		return false
	}
	return o.Closed || (o.Cap > 0 && o.N < o.Cap)
}

// chanAlternatives yields the alternatives of thread p's pending operation
// op, a send, receive or select, in the runtime's order: a select's cases
// in order, each with its alternatives; for a receive, one if the channel
// is buffered and not empty or closed, else one per pending sender it can
// meet, in thread and case order; a select's default if no case is ready.
// It returns the verdict of Alternatives.
func (s *State) chanAlternatives(p trace.ThreadID, op trace.Op, yield func(Alt) bool) Verdict {
	some := false
	v := s.chanAlts(p, op, func(a Alt) bool { some = true; return yield(a) })
	switch {
	case v == Unknown:
		return Unknown
	case some:
		return Enabled
	}
	return Disabled
}

// chanAlts is chanAlternatives, with the verdict Unknown or Enabled (known).
func (s *State) chanAlts(p trace.ThreadID, op trace.Op, yield func(Alt) bool) Verdict {
	switch op.Kind {
	case trace.KindSend:
		if sendReady(s.object(op.Obj)) {
			yield(Single)
		}
		return Enabled
	case trace.KindRecv:
		v, _ := s.recvAlternatives(p, op, op.Obj, -1, yield)
		return v
	}
	v, some := Enabled, false
	counted := func(a Alt) bool { some = true; return yield(a) }
	for j, c := range op.Cases {
		o := s.object(c.Obj)
		if o == nil {
			continue // a nil channel is never ready
		}
		if c.Kind == trace.KindSend {
			if sendReady(o) && !counted(Alt{Case: int32(j), Partner: trace.NoThread, PartnerCase: -1}) {
				return v
			}
			continue
		}
		w, more := s.recvAlternatives(p, op, c.Obj, int32(j), counted)
		if w == Unknown {
			v = Unknown
		}
		if !more {
			return v
		}
	}
	// The default, which a timer's case that may not be due leaves open.
	if op.Arg == 1 && (!some || v == Unknown) {
		yield(Alt{Case: -1, Partner: trace.NoThread, PartnerCase: -1})
	}
	return v
}

// recvAlternatives yields the alternatives of a receive by thread p, whose
// pending operation is op, on channel o (select case cas, or -1). It
// reports whether yield asked for more. A timer's channel whose due time
// the state does not know (not Timed) gives its timer's send as a partner,
// and Unknown.
func (s *State) recvAlternatives(p trace.ThreadID, op trace.Op, id trace.ObjectID, cas int32, yield func(Alt) bool) (Verdict, bool) {
	o := s.object(id)
	if o == nil {
		return Enabled, true // a nil channel blocks forever
	}
	if o.Cap > 0 || o.Closed {
		if o.Closed || o.N > 0 {
			return Enabled, yield(Alt{Case: cas, Partner: trace.NoThread, PartnerCase: -1})
		}
		return Enabled, true
	}
	v := Enabled
	n := len(s.Threads)
	if s.Partners != nil {
		n = len(s.Partners)
	}
	for k := range n {
		q := k
		if s.Partners != nil {
			q = int(s.Partners[k])
		}
		u := &s.Threads[q]
		if trace.ThreadID(q) == p || u.Done {
			continue
		}
		switch u.Op.Kind {
		case trace.KindSend:
			if u.Op.Obj != id {
				continue
			}
			if o.Class == trace.ClassTimer {
				// The timer's thread offers its send while the timer is
				// armed, from its deadline on.
				if !s.timed() {
					v = Unknown
				} else if !o.Locked || s.Now < o.When {
					continue
				}
			}
			if !yield(Alt{Case: cas, Partner: trace.ThreadID(q), PartnerCase: -1}) {
				return v, false
			}
		case trace.KindSelect:
			if u.Op.Arg == 1 && NonBlocking(op) {
				continue // two selects with default never meet
			}
			for j, c := range u.Op.Cases {
				if c.Kind == trace.KindSend && c.Obj == id &&
					!yield(Alt{Case: cas, Partner: trace.ThreadID(q), PartnerCase: int32(j)}) {
					return v, false
				}
			}
		}
	}
	if o.Class == trace.ClassTimer && !s.timed() {
		v = Unknown
	}
	return v, true
}

// NonBlocking reports whether op is a select with a default case: it never
// waits, so it meets only a partner that does.
func NonBlocking(op trace.Op) bool { return op.Kind == trace.KindSelect && op.Arg == 1 }
