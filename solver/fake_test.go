// This file implements a brute-force, query-recording Solver for tests.

package solver_test

import (
	"context"
	"errors"
	"fmt"

	"github.com/weft-go/weft/solver"
)

// bruteForce decides queries over at most 16 variable bits by enumeration
// and records every query it receives.
type bruteForce struct {
	queries [][]solver.Expr
	stats   solver.Stats
	unknown bool // answer Unknown with ErrTimeout
	corrupt bool // return a wrong model
}

func (b *bruteForce) Check(ctx context.Context, cs []solver.Expr) (solver.Result, error) {
	r, _, err := b.CheckCore(ctx, cs)
	return r, err
}

func (b *bruteForce) CheckCore(_ context.Context, cs []solver.Expr) (solver.Result, []int, error) {
	b.queries = append(b.queries, cs)
	b.stats.Queries++
	if b.unknown {
		b.stats.Unknown++
		b.stats.Timeouts++
		return solver.Result{}, nil, fmt.Errorf("fake: %w", solver.ErrTimeout)
	}
	m, err := search(cs)
	if err != nil {
		return solver.Result{}, nil, err
	}
	if m != nil {
		b.stats.Sat++
		if b.corrupt {
			for n := range m {
				m[n] ^= 1
			}
		}
		return solver.Result{Status: solver.Sat, Model: m}, nil, nil
	}
	b.stats.Unsat++
	// Deletion-based minimal core.
	var core []int
	for i := range cs {
		core = append(core, i)
	}
	for k := 0; k < len(core); {
		rest := make([]solver.Expr, 0, len(core)-1)
		for j, i := range core {
			if j != k {
				rest = append(rest, cs[i])
			}
		}
		if m, _ := search(rest); m == nil {
			core = append(core[:k], core[k+1:]...)
		} else {
			k++
		}
	}
	return solver.Result{Status: solver.Unsat}, core, nil
}

// search returns a model of cs, or nil if there is none, brute-forcing
// each independent group separately.
func search(cs []solver.Expr) (solver.Model, error) {
	model := solver.Model{}
	for _, g := range solver.Components(cs) {
		group := make([]solver.Expr, len(g))
		for i, j := range g {
			group[i] = cs[j]
		}
		m, err := searchGroup(group)
		if m == nil || err != nil {
			return nil, err
		}
		for k, v := range m {
			model[k] = v
		}
	}
	return model, nil
}

func searchGroup(cs []solver.Expr) (solver.Model, error) {
	widths, err := solver.VarWidths(cs...)
	if err != nil {
		return nil, err
	}
	names := solver.Vars(cs...)
	bits := 0
	for _, n := range names {
		bits += max(widths[n], 1)
	}
	if bits > 16 {
		return nil, errors.New("fake: too many variable bits")
	}
	for a := uint64(0); a < 1<<bits; a++ {
		m := solver.Model{}
		rest := a
		for _, n := range names {
			w := max(widths[n], 1)
			m[n] = rest & (1<<w - 1)
			rest >>= w
		}
		ok, err := solver.Satisfies(m, cs)
		if err != nil {
			return nil, err
		}
		if ok {
			return m, nil
		}
	}
	return nil, nil
}

func (b *bruteForce) Stats() solver.Stats { return b.stats }
func (b *bruteForce) Close() error        { return nil }
