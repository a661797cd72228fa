//go:build cgo

// This file tests recovery from an interrupt that misses the check.

package z3

import (
	"context"
	"testing"

	"github.com/weft-go/weft/solver"
)

func TestRecoverFromIdleInterrupt(t *testing.T) {
	s, err := New()
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	q := []solver.Expr{solver.Eq(solver.Var("x", 8), solver.Const(7, 8))}
	s.interruptIdle()
	// Z3 now refuses to work in this context ...
	s.mu.Lock()
	r, _, err := s.query(context.Background(), q, false)
	s.mu.Unlock()
	if err == nil {
		t.Logf("this Z3 accepts queries after an idle interrupt (%v)", r.Status)
	} else {
		t.Logf("after an idle interrupt: %v", err)
	}
	// ... until recover replaces it.
	s.mu.Lock()
	if err := s.recover(); err != nil {
		t.Fatalf("recover: %v", err)
	}
	s.mu.Unlock()
	for range 2 {
		if r, err := s.Check(context.Background(), q); err != nil || r.Model["x"] != 7 {
			t.Fatalf("after recover: %v %v, %v", r.Status, r.Model, err)
		}
	}
	// The normal path: interrupted flag set by interruptIdle, repaired at
	// the end of the next query.
	s.interruptIdle()
	if r, err := s.Check(context.Background(), q); err == nil && r.Model["x"] != 7 {
		t.Fatalf("query after idle interrupt: %v %v", r.Status, r.Model)
	}
	if r, err := s.Check(context.Background(), q); err != nil || r.Model["x"] != 7 {
		t.Fatalf("after in-query recover: %v %v, %v", r.Status, r.Model, err)
	}
}
