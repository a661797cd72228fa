//go:build !cgo

// This file implements the stand-in Solver used when cgo is disabled:
// New always fails with solver.ErrUnavailable.

package z3

import (
	"context"
	"fmt"

	"github.com/weft-go/weft/solver"
)

var errNoCgo = fmt.Errorf("z3: built without cgo (CGO_ENABLED=0): %w", solver.ErrUnavailable)

// Solver is unusable without cgo.
type Solver struct{}

var _ solver.Solver = (*Solver)(nil)

// New fails with an error wrapping solver.ErrUnavailable.
func New(opts ...Option) (*Solver, error) { return nil, errNoCgo }

// Version returns "" without cgo.
func Version() string { return "" }

// AllocatedBytes returns 0 without cgo.
func AllocatedBytes() uint64 { return 0 }

// Check fails with solver.ErrUnavailable.
func (*Solver) Check(context.Context, []solver.Expr) (solver.Result, error) {
	return solver.Result{}, errNoCgo
}

// CheckCore fails with solver.ErrUnavailable.
func (*Solver) CheckCore(context.Context, []solver.Expr) (solver.Result, []int, error) {
	return solver.Result{}, nil, errNoCgo
}

// Stats returns zero counters.
func (*Solver) Stats() solver.Stats { return solver.Stats{} }

// Close does nothing.
func (*Solver) Close() error { return nil }
