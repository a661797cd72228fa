// This file implements shared variables.

package weft

import (
	"unsafe"

	"github.com/weft-go/weft/internal/engine"
	"github.com/weft-go/weft/solver"
	"github.com/weft-go/weft/trace"
)

// Value is a shared variable of any type: slices, maps and structs that
// hold them included. Every access is a visible operation: a scheduling
// point before it, and a step in the trace. The zero value is a variable
// holding T's zero value, usable as with sync's types; a Value used in
// several executions starts each one at the zero value.
//
// A Value has no CompareAndSwap, as T need not be comparable: for one, use
// a Var (of a comparable T), or a Var[*T] of pointers to values never
// changed once stored, as with sync/atomic's Pointer.
//
// A value that is not a boolean or an integer of at most 8 bytes is
// recorded in the trace by a 64-bit hash of its contents: strings, the
// elements of slices and arrays, the fields of structs, the pairs of maps
// (in any order) and the dynamic types and values of interfaces; a pointer,
// channel, function or unsafe pointer only by whether it is nil, as its
// address changes from one execution to the next. So two final states
// (Result.FinalStates) differ when a variable's contents differ, but not
// when it points at different objects. A report shows each value as fmt's
// %v printed it at the step.
type Value[T any] struct {
	o      engine.Obj
	val    T
	enc    encoding // varEncoding's, once registered
	atomic bool     // SetAtomic, or an Int's Load or Store
}

// NewValue returns a variable of any type with a name for reports. Its
// initial value is set by its first Store.
//
//go:norace
func NewValue[T any](name string) *Value[T] {
	v := &Value[T]{}
	v.o.SetName(name)
	engine.Create(&v.o)
	return v
}

// SetName names v in reports, as NewValue does; a Var and an Int, which
// embed a Value, have it too.
//
//go:norace
func (v *Value[T]) SetName(name string) { v.o.SetName(name) }

// SetInitial gives v the value x before its first write in the current
// execution, without a step, as if it had been written before the body
// began: the stand-in for sync/atomic of weft test starts the variable of
// a word that holds a value when the execution first uses it so. It must
// come before any other use of v in the execution, or it fails the
// execution.
//
//go:norace
func (v *Value[T]) SetInitial(x T) {
	t := cur()
	if !t.Register(&v.o, trace.ClassVar) {
		t.Fail(trace.Panic, "weft: SetInitial of a variable the execution used already")
	}
	if v.enc == encUnset {
		v.enc = varEncoding[T]()
	}
	v.val = x
	t.SetInit(&v.o, encode(v.enc, x))
}

// SetAtomic declares every access of v atomic, as those of sync/atomic's
// types are: with race checking (WithRaces), its Loads and Stores
// synchronise like its other operations and are never reported. Without
// it, Load and Store are plain reads and writes, as of a Go variable. An
// Int is atomic without it.
//
//go:norace
func (v *Value[T]) SetAtomic() { v.atomic = true }

// begin registers v on first use and announces operation k.
//
//go:norace
func (v *Value[T]) begin(k trace.Kind) *engine.Thread {
	t := v.register()
	t.Begin(&v.o, trace.ClassVar, k)
	return t
}

// beginArg is begin for an operation whose argument is x, in the
// variable's encoding.
//
//go:norace
func (v *Value[T]) beginArg(k trace.Kind, x T) *engine.Thread {
	t := v.register()
	t.BeginArg(&v.o, trace.ClassVar, k, int64(encode(v.enc, x)))
	return t
}

// register registers v on first use in the execution and returns the
// running thread.
//
//go:norace
func (v *Value[T]) register() *engine.Thread {
	t := cur()
	if t.Register(&v.o, trace.ClassVar) {
		var zero T
		v.val = zero
		if v.enc == encUnset {
			v.enc = varEncoding[T]()
		}
	}
	if v.atomic {
		t.MarkAtomic(&v.o)
	}
	return t
}

// note notes x, the value the step t just ended read or wrote, for the
// report's steps.
//
//go:norace
func (v *Value[T]) note(t *engine.Thread, x T) {
	if t.Capturing() {
		v.noteNow(t, x)
	}
}

// noteNow is note when the execution captures values.
//
//go:norace
func (v *Value[T]) noteNow(t *engine.Thread, x T) {
	if v.enc.hashed() {
		t.NoteValue(printed(x))
		return
	}
	t.NoteValue(x)
}

// Load reads the variable.
//
//go:norace
func (v *Value[T]) Load() T {
	t := v.begin(trace.KindLoad)
	x := v.val
	t.EndLoad(&v.o, encode(v.enc, x))
	if t.Silent() {
		return x // in the condition of an Await: no step
	}
	if t.Symbolic() {
		x = symRead(t, x, solver.Expr{})
	}
	v.note(t, x)
	return x
}

// Store writes x to the variable.
//
//go:norace
func (v *Value[T]) Store(x T) {
	t := v.begin(trace.KindStore)
	v.val = x
	t.EndStore(&v.o, encode(v.enc, x))
	noteSymbolic(t, x)
	if t.Symbolic() {
		symWrite(t, x)
	}
	v.note(t, x)
}

// Swap stores x and returns the old value, atomically.
//
//go:norace
func (v *Value[T]) Swap(x T) (old T) {
	t := v.begin(trace.KindSwap)
	old, v.val = v.val, x
	t.EndUpdate(&v.o, encode(v.enc, x), true)
	noteSymbolic(t, x)
	if t.Symbolic() {
		old = symRead(t, old, symExpr(x))
	}
	v.note(t, x)
	return old
}

// Var is a shared variable of a comparable type: a Value with
// CompareAndSwap. The zero value is a variable holding T's zero value,
// usable as with sync's types; a Var used in several executions starts
// each one at the zero value.
type Var[T comparable] struct {
	Value[T]
}

// NewVar returns a variable with a name for reports. Its initial value is
// set by its first Store.
//
//go:norace
func NewVar[T comparable](name string) *Var[T] {
	v := &Var[T]{}
	v.o.SetName(name)
	engine.Create(&v.o)
	return v
}

// CompareAndSwap stores new if the variable holds old, atomically, and
// reports whether it did. Values of the concolic types (Sym, SBool) are
// compared as Eq compares them, by value; when the comparison depends on
// inputs, its outcome is a branch, as w.If's, which the concolic
// strategies and unfold can take the other side of.
//
//go:norace
func (v *Var[T]) CompareAndSwap(old, new T) bool {
	// The expected value is the operation's argument: a strategy that
	// reorders the CAS can tell whether it would succeed.
	t := v.beginArg(trace.KindCAS, old)
	eq := symEqual(v.val, old)
	ok := eq.v
	if ok {
		v.val = new
	}
	t.EndUpdate(&v.o, encode(v.enc, v.val), ok)
	if ok {
		noteSymbolic(t, new)
	}
	if t.Symbolic() {
		var w solver.Expr
		if ok {
			w = symExpr(new)
		}
		symRead(t, old, w)
	} else if eq.e.IsValid() {
		t.Branch(trace.BranchEvent{Cond: eq.e, Taken: ok, OfStep: true})
	}
	v.note(t, v.val)
	return ok
}

// symEqual returns whether x and y are equal: as Eq compares them, with
// the condition, for the concolic types; by ==, concretely, for the
// others.
func symEqual[T comparable](x, y T) SBool {
	if s, ok := any(x).(symbolic); ok {
		return s.symEq(y)
	}
	return SBool{v: x == y}
}

// symRead records, in a symbolic trace, the access the thread just ended:
// a read of x, and the write of an expression w if w is valid (a swap).
// When x's type carries an expression, it returns x with a fresh variable
// named after the step (trace.ReadSymbol) for it; otherwise x unchanged,
// and the read has no symbol.
//
//go:norace
func symRead[T any](t *engine.Thread, x T, w solver.Expr) T {
	s, ok := any(x).(symbolic)
	if !ok {
		if w.IsValid() {
			t.NoteAccess(trace.SymAccess{Write: w})
		}
		return x
	}
	y := s.withSym(trace.ReadSymbol(t.LastStep())).(T)
	t.NoteAccess(trace.SymAccess{Read: any(y).(symbolic).symExpr(), Write: w})
	return y
}

// symWrite records, in a symbolic trace, the write of x the thread just
// ended, when x's type carries an expression.
//
//go:norace
func symWrite[T any](t *engine.Thread, x T) {
	if e := symExpr(x); e.IsValid() {
		t.NoteAccess(trace.SymAccess{Write: e})
	}
}

// noteSymbolic marks the write t just ended as one of a value whose
// expression depends on inputs, if x carries one (trace.Event.SymValue).
//
//go:norace
func noteSymbolic[T any](t *engine.Thread, x T) {
	if t.HasInputs() {
		noteSymbolicNow(t, x)
	}
}

// noteSymbolicNow is noteSymbolic when the execution has read an input.
//
//go:norace
func noteSymbolicNow[T any](t *engine.Thread, x T) {
	if e := symExpr(x); e.IsValid() {
		if _, c := e.Const(); !c {
			t.NoteSymbolicWrite()
		}
	}
}

// symExpr returns the expression of x, or the zero Expr if x's type
// carries none.
//
//go:norace
func symExpr[T any](x T) solver.Expr {
	if s, ok := any(x).(symbolic); ok {
		return s.symExpr()
	}
	return solver.Expr{}
}

// Integer is the set of Go's integer types.
type Integer interface {
	~int | ~int8 | ~int16 | ~int32 | ~int64 | ~uint | ~uint8 | ~uint16 | ~uint32 | ~uint64 | ~uintptr
}

// Int is a shared integer variable: a Var with atomic addition. Every
// operation of an Int is atomic, as those of sync/atomic's Int64: race
// checking (WithRaces) never reports two of them.
type Int[T Integer] struct {
	Var[T]
}

// Load reads the variable, atomically. (Swap, CompareAndSwap and the adds
// are atomic on any variable.)
//
//go:norace
func (v *Int[T]) Load() T {
	v.atomic = true
	return v.Var.Load()
}

// Store writes x to the variable, atomically.
//
//go:norace
func (v *Int[T]) Store(x T) {
	v.atomic = true
	v.Var.Store(x)
}

// Add adds delta and returns the new value, atomically, with Go's
// wrap-around, as sync/atomic's Add does. Because it returns the value,
// every Add observes the adds before it: two Adds of one variable are
// dependent, and a strategy explores both of their orders. Use AddOnly
// where the result is not needed.
//
//go:norace
func (v *Int[T]) Add(delta T) T {
	t := v.begin(trace.KindAdd)
	v.val += delta
	x := v.val
	t.EndUpdate(&v.o, encode(v.enc, x), true)
	v.note(t, x)
	return x
}

// AddOnly adds delta, atomically, with Go's wrap-around, and returns
// nothing: sync/atomic's Add with its result discarded (x.Add(1) as a
// statement), named after it so that the one difference reads in the
// name. Without a result, two adds commute: whatever their order, the
// variable ends with the same sum and neither thread saw the other's. The
// strategies that use the dependency relation (optimal, the dpor family,
// flip, concolic) explore one order of any run of AddOnlys of one
// variable, so n threads that each count once take one trace, not n!.
//
// Exactly when adds commute: two AddOnlys of the same variable, by
// different threads, commute with each other (whatever their deltas and
// the variable's integer type). An AddOnly does not commute with a Load,
// Store, Swap or CompareAndSwap of the variable, with an Add (whose result
// is used), or with an await on it (w.Await, w.Yield): those observe the
// sum or overwrite it, so both orders are explored. Strategies with a
// relation of their own (unfold, con2) treat AddOnly as Add, which is
// sound and explores more; reach does not model variables.
//
//go:norace
func (v *Int[T]) AddOnly(delta T) {
	var zero T
	t := v.register()
	t.BeginArg(&v.o, trace.ClassVar, trace.KindAdd, int64(unsafe.Sizeof(zero)))
	v.val += delta
	x := v.val
	t.EndUpdate(&v.o, encode(v.enc, x), true)
	v.note(t, x)
}
