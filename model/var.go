// This file models shared variables: their value and last write, which a
// read synchronises with (seed 003's rd(x, r) and wt(x, val)).

package model

import "github.com/weft-go/weft/trace"

// applyVar applies event e, of index i, to variable o. The value after any
// operation is the event's Value (a load's read, a store's or swap's
// write, an add's sum, a compare-and-swap's result).
func (o *Object) applyVar(e *trace.Event, i int32) {
	o.Value = e.Value
	if e.Op.Kind != trace.KindLoad && (e.Op.Kind != trace.KindCAS || e.OK) {
		o.Rel = i
	}
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
