//go:build cgo

// This file benchmarks the per-query cost of the Z3 backend and of cache
// hits in front of it.

package z3_test

import (
	"context"
	"testing"

	"github.com/weft-go/weft/solver"
)

func BenchmarkCheckSmall(b *testing.B) {
	s := newSolver(b)
	ctx := context.Background()
	b.ResetTimer()
	for i := range b.N {
		if _, err := s.Check(ctx, smallQuery(i)); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkCachedHit(b *testing.B) {
	s := solver.NewCached(newSolver(b), solver.CacheOptions{})
	ctx := context.Background()
	q := smallQuery(1)
	if _, err := s.Check(ctx, q); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for range b.N {
		if _, err := s.Check(ctx, q); err != nil {
			b.Fatal(err)
		}
	}
}
