// This file declares the Solver interface, its result types and the error
// sentinels shared by all backends.

package solver

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"
)

// Solver decides conjunctions of boolean Exprs. A Solver is used by one
// goroutine at a time (implementations may still guard against misuse).
type Solver interface {
	// Check decides the conjunction of the boolean constraints. On Sat the
	// Result's Model has a value for every variable occurring in them.
	// When the per-call time limit or the ctx deadline is hit it returns
	// Unknown and an error wrapping ErrTimeout, never Unsat. An empty
	// constraint list is Sat with an empty model.
	Check(ctx context.Context, constraints []Expr) (Result, error)

	// CheckCore is Check that, when the result is Unsat, also returns the
	// sorted indices of a subset of constraints that is itself
	// unsatisfiable (an unsat core).
	CheckCore(ctx context.Context, constraints []Expr) (Result, []int, error)

	// Stats returns counters accumulated since the Solver was created.
	Stats() Stats

	// Close releases the backend's resources. The Solver must not be used
	// afterwards.
	Close() error
}

// Status is the outcome of a satisfiability check.
type Status uint8

// The possible outcomes. The zero Status is Unknown, so a failed call
// never reads as a decision.
const (
	Unknown Status = iota
	Sat
	Unsat
)

// String returns "sat", "unsat" or "unknown".
func (s Status) String() string {
	switch s {
	case Sat:
		return "sat"
	case Unsat:
		return "unsat"
	case Unknown:
		return "unknown"
	}
	return fmt.Sprintf("Status(%d)", uint8(s))
}

// Result is the answer to a query.
type Result struct {
	Status Status
	Model  Model // non-nil only when Status is Sat
}

// Model assigns values to variables: bit-vector values in the variable's
// low Width() bits, booleans as 0 or 1.
type Model map[string]uint64

// String renders the model as "{a=1 b=2}" with sorted names.
func (m Model) String() string {
	var b strings.Builder
	b.WriteByte('{')
	for i, k := range slices.Sorted(maps.Keys(m)) {
		if i > 0 {
			b.WriteByte(' ')
		}
		fmt.Fprintf(&b, "%s=%d", k, m[k])
	}
	b.WriteByte('}')
	return b.String()
}

// Stats are a Solver's counters. Queries counts Check and CheckCore calls;
// Sat, Unsat and Unknown count their outcomes (calls that fail with an
// error count as Unknown); Timeouts counts the Unknown outcomes caused by
// a time limit; CacheHits counts answers served from a cache without a
// backend call; SolverTime is the time spent in the backend.
type Stats struct {
	Queries, Sat, Unsat, Unknown, Timeouts, CacheHits int64
	SolverTime                                        time.Duration
}

// Add returns the sum of s and o: the counters of two solvers, or of one
// over two parts of an exploration.
func (s Stats) Add(o Stats) Stats {
	return Stats{
		Queries: s.Queries + o.Queries, Sat: s.Sat + o.Sat, Unsat: s.Unsat + o.Unsat, Unknown: s.Unknown + o.Unknown,
		Timeouts: s.Timeouts + o.Timeouts, CacheHits: s.CacheHits + o.CacheHits, SolverTime: s.SolverTime + o.SolverTime,
	}
}

// Sub returns s less o: the counters of a solver over a part of an
// exploration, from those at its end (s) and at its start (o).
func (s Stats) Sub(o Stats) Stats {
	return Stats{
		Queries: s.Queries - o.Queries, Sat: s.Sat - o.Sat, Unsat: s.Unsat - o.Unsat, Unknown: s.Unknown - o.Unknown,
		Timeouts: s.Timeouts - o.Timeouts, CacheHits: s.CacheHits - o.CacheHits, SolverTime: s.SolverTime - o.SolverTime,
	}
}

// Errors for callers to test with errors.Is.
var (
	// ErrTimeout is wrapped by errors of calls that returned Unknown
	// because the per-call time limit or the context deadline was hit.
	ErrTimeout = errors.New("solver: timeout")

	// ErrUnavailable is wrapped by errors of backends that are not built
	// in or whose native library cannot be used.
	ErrUnavailable = errors.New("solver: backend unavailable")
)

// Satisfies reports whether model satisfies every constraint, using Eval.
// It fails if a constraint is not boolean or mentions a variable missing
// from model.
func Satisfies(model Model, constraints []Expr) (bool, error) {
	for i, c := range constraints {
		if !c.IsBool() {
			return false, fmt.Errorf("solver: constraint %d is a %d-bit vector, want boolean", i, c.Width())
		}
		v, err := Eval(c, model)
		if err != nil {
			return false, fmt.Errorf("constraint %d: %w", i, err)
		}
		if v == 0 {
			return false, nil
		}
	}
	return true, nil
}
