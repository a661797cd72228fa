// This file models shared variables: their value and last write, which a
// read synchronises with (Farzan et al. 2013's rd(x, r) and wt(x, val)), and the
// awaits that wait for a write of them.

package model

import (
	"slices"

	"github.com/weft-go/weft/trace"
)

// applyVar applies event e, of index i, to variable o. The value after any
// operation is the event's Value (a load's read, a store's or swap's
// write, an add's sum, a compare-and-swap's result). Applied in the order
// of an execution, that is the variable's value; after commuting adds
// (trace.AddOnly) applied in another order it is not (each recorded the
// sum in its own execution), and a strategy that reorders them computes
// the value with trace.VarValue.
//
// A load (or a failed compare-and-swap, which only read) also records, in
// o's queue, the last write its thread read (By), for the thread's awaits
// (awaitReady).
func (o *Object) applyVar(e *trace.Event, i int32) {
	o.Value = e.Value
	if e.ReadOnly() {
		// The readers are kept in thread order: two loads commute.
		k := 0
		for k < len(o.Queue) && o.Queue[k].Thread < e.Thread {
			k++
		}
		if k == len(o.Queue) {
			o.Queue = append(o.Queue, Waiter{Thread: e.Thread, By: o.Rel})
			return
		}
		if o.Queue[k].Thread != e.Thread {
			o.Queue = slices.Insert(o.Queue, k, Waiter{Thread: e.Thread})
		}
		o.Queue[k].By = o.Rel
		return
	}
	if e.Op.Kind != trace.KindCAS || e.OK {
		o.Rel = i
	}
}

// awaitReady returns the enabledness of await op (trace.KindAwait) of
// thread p: enabled once another write has followed, in one of the
// variables it waits on, the write p's last load of it read.
func (s *State) awaitReady(p trace.ThreadID, op trace.Op) Verdict {
	for _, c := range op.Cases {
		o := s.object(c.Obj)
		if o == nil || o.Class != trace.ClassVar {
			return Unknown
		}
		k := o.entry(p)
		if k < 0 {
			return Unknown // p never loaded it: no await waits so
		}
		if o.Queue[k].By != o.Rel {
			return Enabled
		}
	}
	return Disabled
}

// varOutcome is the outcome of op on variable o. What a store, swap or add
// writes is the program's data; a read synchronises with the last write.
func (o *Object) varOutcome(op trace.Op, out *Outcome) {
	switch op.Kind {
	case trace.KindLoad:
		out.Value, out.Source = o.Value, o.Rel
	case trace.KindStore:
		out.Data = true
	case trace.KindAdd, trace.KindSwap:
		out.Data, out.Source = true, o.Rel
	case trace.KindCAS:
		// The expected value is the operation's argument.
		out.OK, out.Source = o.Value == uint64(op.Arg), o.Rel
		out.Value, out.Data = o.Value, out.OK
	}
}
