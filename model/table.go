// This file defines the table through which the model dispatches: each
// primitive's file registers, for its class of objects, how an event
// changes an object and, for each of its operation kinds, when the
// operation is enabled and what it does.

package model

import (
	"fmt"

	"github.com/weft-go/weft/trace"
)

// primitive is what the model knows of one class of objects: its initial
// state, how an executed event changes an object of the class, and its
// operations.
type primitive struct {
	class trace.Class
	// reset sets the class's fields of the initial state of o, described
	// by info, over Object.Reset's zero state; nil if there are none.
	reset func(o *Object, info *trace.ObjectInfo)
	// apply applies executed event e, of index i, to object o of the
	// class; nil if no event changes one.
	apply func(o *Object, e *trace.Event, i int32)
	// ops are the operations whose Op.Class is the class.
	ops []opModel
}

// opModel is what the model knows of the operations of one kind whose
// Op.Class is one class. A nil function is the common case: an operation
// that never blocks, whose outcome is the default (OK, no source), that
// changes only its object, whose results the program does not observe.
type opModel struct {
	kind trace.Kind
	// ready is the enabledness of op from the state of its object alone
	// (ObjectOnly); enabled, that of op as thread p's pending operation in
	// s. At most one is set; neither if the operation never blocks.
	ready   func(o *Object, op trace.Op) Verdict
	enabled func(s *State, p trace.ThreadID, op trace.Op) Verdict
	// chanAlts says that op's alternatives are a channel operation's, in
	// the runtime's order (State.chanAlternatives), rather than Single if
	// enabled; multi, that it may have several. (A flag, not a function:
	// the yield a caller passes through a function value would escape to
	// the heap at every call.)
	chanAlts bool
	multi    bool
	// objOutcome returns out with what op does on its object o set over
	// the default (the operation does nothing the model knows if it has
	// no object); outcome, with what op does in s. (Outcomes go by value:
	// one passed by pointer through a function value would escape.)
	objOutcome func(o *Object, p trace.ThreadID, op trace.Op, out Outcome) Outcome
	outcome    func(s *State, p trace.ThreadID, op trace.Op, out Outcome) Outcome
	// observed reports which results of the operation the program
	// observes (Observed).
	observed func(op trace.Op) (value, ok bool)
	// object returns the object executed event e changes, where it is
	// not Op.Obj (a select's: the channel of the case it took).
	object func(e *trace.Event) trace.ObjectID
	// applyArg applies e, of index i, to the object Op.Arg names, which e
	// changes too (a Cond's mutex); nil if it changes no second object.
	applyArg func(o *Object, e *trace.Event, i int32)
}

// blocks reports whether an operation of m may be disabled.
func (m *opModel) blocks() bool { return m.ready != nil || m.enabled != nil || m.chanAlts }

// The table: the primitives by class, their operations by class and kind.
var (
	classes [trace.NumClasses]*primitive
	ops     [trace.NumClasses][trace.NumKinds]*opModel
)

// noOp is the model of an operation the table has no entry for.
var noOp opModel

// register adds primitive p to the table. Each primitive's file
// registers its own as the package is initialised.
func register(p *primitive) {
	if classes[p.class] != nil {
		panic(fmt.Sprintf("model: class %v registered twice", p.class))
	}
	classes[p.class] = p
	for i := range p.ops {
		m := &p.ops[i]
		if ops[p.class][m.kind] != nil {
			panic(fmt.Sprintf("model: %v %v registered twice", p.class, m.kind))
		}
		if m.ready != nil && m.enabled != nil {
			panic(fmt.Sprintf("model: %v %v has both ready and enabled", p.class, m.kind))
		}
		ops[p.class][m.kind] = m
	}
}

// primitiveOf returns the primitive of class c, nil if none.
func primitiveOf(c trace.Class) *primitive {
	if int(c) < len(classes) {
		return classes[c]
	}
	return nil
}

// opOf returns the model of op's class and kind (noOp if the table has
// none).
func opOf(op *trace.Op) *opModel {
	if int(op.Class) < trace.NumClasses && int(op.Kind) < trace.NumKinds {
		if m := ops[op.Class][op.Kind]; m != nil {
			return m
		}
	}
	return &noOp
}

// The observed results of the operations that return some (opModel.observed).
func observeValue(trace.Op) (value, ok bool) { return true, false }
func observeOK(trace.Op) (value, ok bool)    { return false, true }
func observeBoth(trace.Op) (value, ok bool)  { return true, true }
