// This file defines the symbolic part of a trace: the inputs an execution
// read, the branches it took on symbolic conditions (concolic testing) and,
// in a symbolic trace, the values its accesses to shared variables read and
// wrote (con2colic testing, Farzan et al. 2013, §4).

package trace

import (
	"strconv"

	"github.com/weft-go/weft/solver"
)

// InputEvent is an input value an execution read. Inputs are not events:
// reading one is local to a thread, like the code between visible
// operations, so it is no scheduling point and changes no interleaving
// count.
type InputEvent struct {
	Thread ThreadID
	// Step is the number of events executed before the input was read.
	Step int32
	// Label is the name the program gave the input; Name is the name of
	// its solver variable, unique in the execution: Label for the first
	// input so labelled, Label#2, Label#3, ... for later ones.
	Label, Name string
	Bits        int
	Signed      bool
	// Ranged reports that the program declared the inclusive range
	// [Min, Max] (as signed values when Signed, as bits otherwise).
	Ranged   bool
	Min, Max int64
	// Value is the value read, as the low Bits bits.
	Value uint64
}

// Var returns the solver variable of the input.
func (in *InputEvent) Var() solver.Expr { return solver.Var(in.Name, in.Bits) }

// Range returns the constraint the declared range puts on the input, or
// solver.True when none was declared.
func (in *InputEvent) Range() solver.Expr {
	if !in.Ranged {
		return solver.True
	}
	x := in.Var()
	lo, hi := solver.Const(uint64(in.Min), in.Bits), solver.Const(uint64(in.Max), in.Bits)
	if in.Signed {
		return solver.And(solver.Sle(lo, x), solver.Sle(x, hi))
	}
	return solver.And(solver.Ule(lo, x), solver.Ule(x, hi))
}

// BranchEvent is a branch an execution took on a symbolic condition. Like
// inputs, branches are not events.
type BranchEvent struct {
	Thread ThreadID
	// Step is the number of events executed before the branch.
	Step int32
	// Cond is the boolean condition; Taken is its concrete value.
	Cond  solver.Expr
	Taken bool
	// Check marks a branch whose false side is a failure (a symbolic
	// assertion, a division by zero, a negative shift count).
	Check bool
	// OfStep marks a branch that is the outcome of its thread's step just
	// before it, not a choice of its local code: a CompareAndSwap of a
	// concolic variable whose comparison depends on inputs (its write
	// happened or not with the outcome).
	OfStep bool
	// InAwait marks a branch of the condition of a w.Await, which the
	// runtime evaluates silently, in every state its thread waits in: no
	// choice of the thread's local code (Trace.Evals holds the
	// evaluations, the last one of an await's thread before its step the
	// one that held).
	InAwait bool
	// PC is the return address of the program's call that branched (w.If,
	// AssertSym, an operator that checks its operand): the static branch,
	// for coverage. Resolve it with runtime.CallersFrames.
	PC uintptr
}

// SymAccess is the symbolic side of step Step, an access to a shared
// variable, in a symbolic trace (Farzan et al. 2013, §4): the read rd(x, r), whose
// value became the fresh variable Read (named ReadSymbol(Step)), and the
// write wt(x, val), whose value is the expression Write (a constant when
// it depends on no input and no read). A read-modify-write has both; a
// field is the zero Expr when the access has no such side, or when the
// variable's type carries no expression (a Var[int]: its values are
// concrete, and the reads of it get no symbol).
type SymAccess struct {
	Step        int32
	Read, Write solver.Expr
}

// ReadSymbol returns the name of the fresh variable the read at step i of
// a symbolic trace becomes: "$r" and i. Input names are the program's
// labels; a label that starts with "$r" may collide with it.
func ReadSymbol(i int) string { return "$r" + strconv.Itoa(i) }

// ReadStep returns the step of a variable named by ReadSymbol, and whether
// name is one.
func ReadStep(name string) (int, bool) {
	if len(name) < 3 || name[0] != '$' || name[1] != 'r' {
		return 0, false
	}
	i, err := strconv.Atoi(name[2:])
	if err != nil || i < 0 {
		return 0, false
	}
	return i, true
}

// Constraint returns the path constraint of the branch: Cond when it was
// taken, its negation otherwise.
func (b *BranchEvent) Constraint() solver.Expr {
	if b.Taken {
		return b.Cond
	}
	return solver.Not(b.Cond)
}

// InputValues returns the values of the inputs of t in the order they were
// read, as a replay record holds them.
func (t *Trace) InputValues() []uint64 {
	if len(t.Inputs) == 0 {
		return nil
	}
	vs := make([]uint64, len(t.Inputs))
	for i := range t.Inputs {
		vs[i] = t.Inputs[i].Value
	}
	return vs
}

// InputModel returns the inputs of t as a solver model, by variable name.
func (t *Trace) InputModel() solver.Model {
	m := make(solver.Model, len(t.Inputs))
	for i := range t.Inputs {
		m[t.Inputs[i].Name] = t.Inputs[i].Value
	}
	return m
}
