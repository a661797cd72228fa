// This file models shared variables: their value and last write, which a
// read synchronises with (Farzan et al. 2013's rd(x, r) and wt(x, val)).

package model

import "github.com/weft-go/weft/trace"

func init() {
	register(&primitive{class: trace.ClassVar, reset: resetVar, apply: (*Object).applyVar, ops: []opModel{
		{kind: trace.KindLoad, objOutcome: (*Object).varOutcome, observed: observeValue},
		{kind: trace.KindStore, objOutcome: (*Object).varOutcome},
		// An AddOnly returns nothing.
		{kind: trace.KindAdd, objOutcome: (*Object).varOutcome, observed: func(op trace.Op) (bool, bool) { return !trace.AddOnly(op), false }},
		{kind: trace.KindSwap, objOutcome: (*Object).varOutcome, observed: observeValue},
		{kind: trace.KindCAS, objOutcome: (*Object).varOutcome, observed: observeBoth},
	}})
}

// resetVar gives variable o its value before its first write
// (ObjectInfo.Init: weft.Value.SetInitial).
func resetVar(o *Object, info *trace.ObjectInfo) { o.Value = info.Init }

// applyVar applies event e, of index i, to variable o. The value after any
// operation is the event's Value (a load's read, a store's or swap's
// write, an add's sum, a compare-and-swap's result). Applied in the order
// of an execution, that is the variable's value; after commuting adds
// (trace.AddOnly) applied in another order it is not (each recorded the
// sum in its own execution), and a strategy that reorders them computes
// the value with trace.VarValue.
func (o *Object) applyVar(e *trace.Event, i int32) {
	o.Value = e.Value
	if e.ReadOnly() {
		return // a load, or a compare-and-swap that failed: it only read
	}
	if e.Op.Kind != trace.KindCAS || e.OK {
		o.Rel = i
		o.Summed = trace.AddOnly(e.Op)
	}
}

// awaitReady returns the enabledness of await op (trace.KindAwait) of
// thread p. A loop that yields (trace.AwaitYield) is disabled for good:
// its thread's failed turn is assumed away, and its next turn is another
// execution's. A w.Await is enabled if its condition holds: an
// evaluation of it by p's pending step (s.Evals) that read the values the
// variables hold in s says so; if none did, it is Unknown.
func (s *State) awaitReady(p trace.ThreadID, op trace.Op) Verdict {
	if op.Arg != trace.AwaitYield {
		return s.condReady(p)
	}
	return Disabled
}

// varOutcome is the outcome of op on variable o. What a store, swap or add
// writes is the program's data; a read synchronises with the last write.
func (o *Object) varOutcome(_ trace.ThreadID, op trace.Op, out Outcome) Outcome {
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
	return out
}

// condReady returns the enabledness of thread p's pending w.Await from
// the evaluations of its condition in s.Evals.
func (s *State) condReady(p trace.ThreadID) Verdict {
	if int(p) >= len(s.Threads) {
		return Unknown
	}
	step := s.Threads[p].Steps
	for i := range s.Evals {
		ev := &s.Evals[i]
		if ev.Thread == p && ev.Step == step && s.holds(ev.Reads) {
			return verdict(ev.OK)
		}
	}
	return Unknown
}

// holds reports whether every variable of reads holds its value in s.
func (s *State) holds(reads []trace.EvalRead) bool {
	for _, r := range reads {
		o := s.object(r.Obj)
		if o == nil || o.Class != trace.ClassVar || o.Summed || o.Value != r.Value {
			return false
		}
	}
	return true
}
