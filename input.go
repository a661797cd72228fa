// This file implements program inputs and branches on concolic conditions.

package weft

import (
	"fmt"

	"github.com/weft-go/weft/solver"
	"github.com/weft-go/weft/strategy"
	"github.com/weft-go/weft/trace"
)

// Input reads the int64 input called name. Its value comes from the
// strategy (0 under the schedule-only strategies, a random value under
// random and pct, a solved value under the concolic strategies) and is part
// of the replay token. Reading an input is not a scheduling point. An input
// read twice in one execution is two inputs (name and name#2).
func (w *T) Input(name string) SInt { return InputOf[int64](w, name) }

// InputRange reads the int64 input called name, in [min, max]: the
// strategies draw or solve values in the range only.
func (w *T) InputRange(name string, min, max int64) SInt {
	return InputRangeOf(w, name, min, max)
}

// InputOf reads an input of integer type I called name (see T.Input).
func InputOf[I Integer](w *T, name string) Sym[I] {
	return readInput[I](name, false, 0, 0)
}

// InputRangeOf reads an input of integer type I called name, in [min,
// max].
func InputRangeOf[I Integer](w *T, name string, min, max I) Sym[I] {
	if max < min {
		panic(fmt.Sprintf("weft: input %q: empty range [%v, %v]", name, min, max))
	}
	return readInput[I](name, true, min, max)
}

// readInput asks the runtime for an input of type T.
func readInput[T Integer](name string, ranged bool, min, max T) Sym[T] {
	bits, signed := layout[T]()
	req := strategy.InputRequest{Name: name, Bits: bits, Signed: signed, Min: int64(min), Max: int64(max)}
	if !ranged {
		// No declared range: Max below Min means the whole type.
		req.Min, req.Max = 0, -1
		if !signed {
			req.Min, req.Max = 1, 0
		}
	}
	var def T
	if ranged && (def < min || def > max) {
		def = min
	}
	req.Default = uint64(def)
	raw, varName := cur().Input(req, ranged)
	v := T(raw) // truncation reads the low bits as two's complement for signed T
	if ranged && (v < min || v > max) {
		v = min // a strategy ignoring the range: keep the program's contract
	}
	return Sym[T]{v: v, e: solver.Var(varName, bits)}
}

// If returns the concrete value of cond and, when cond depends on inputs,
// records the branch so that the concolic strategies can try its other
// side. Use it as Go's if: if w.If(x.Gt(y)) { ... }.
func (w *T) If(cond SBool) bool {
	if cond.e.IsValid() {
		cur().Branch(trace.BranchEvent{Cond: cond.e, Taken: cond.v})
	}
	return cond.v
}

// AssertSym is Assert on a concolic condition: a branch whose false side
// fails the execution with the message format (formatted with args), so
// that the concolic strategies look for inputs that violate it.
func (w *T) AssertSym(cond SBool, format string, args ...any) {
	if cond.e.IsValid() {
		cur().Branch(trace.BranchEvent{Cond: cond.e, Taken: cond.v, Check: true})
	}
	if !cond.v {
		w.Fail(format, args...)
	}
}

// InputValue is an input an execution read, for reports: its variable name
// and its value (signed inputs as their two's-complement bits).
type InputValue struct {
	Name   string
	Value  uint64
	Signed bool
	Bits   int
}

// String returns "name=value", the value signed when the input is.
func (in InputValue) String() string {
	if in.Signed {
		v := int64(in.Value<<(64-in.Bits)) >> (64 - in.Bits) // sign-extend
		return fmt.Sprintf("%s=%d", in.Name, v)
	}
	return fmt.Sprintf("%s=%d", in.Name, in.Value)
}
