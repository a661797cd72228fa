//go:build !cgo

// This file tests that New reports ErrUnavailable without cgo.

package z3_test

import (
	"errors"
	"testing"

	"github.com/weft-go/weft/solver"
	"github.com/weft-go/weft/solver/z3"
)

func TestUnavailableWithoutCgo(t *testing.T) {
	if _, err := z3.New(); !errors.Is(err, solver.ErrUnavailable) {
		t.Errorf("New() error = %v, want ErrUnavailable", err)
	}
}
