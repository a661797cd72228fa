// Tests that importing the package registers the concolic strategies.

package concolic

import (
	"errors"
	"fmt"
	"testing"

	"github.com/weft-go/weft/internal/registry"
	"github.com/weft-go/weft/solver"
	"github.com/weft-go/weft/strategy"
)

func TestRegistered(t *testing.T) {
	want := map[string]string{"concolic": "exhaustive", "concolic-optimal": "optimal"}
	for _, inner := range []string{"dpor", "dpor+sleep", "dpor-1", "dpor-2", "dpor-clock", "dpor-clock+sleep",
		"dpor-cr", "dpor-cr+sleep", "flip", "flip+sleep"} {
		want["concolic-"+inner] = inner
	}
	if len(registry.ConcolicInners) != len(want) {
		t.Errorf("%d concolic strategies, want %d: %v", len(registry.ConcolicInners), len(want), registry.ConcolicInners)
	}
	for name, inner := range want {
		b, err := registry.Lookup(name)
		if err != nil {
			t.Fatalf("Lookup(%q): %v", name, err)
		}
		if got := registry.ConcolicInners[name]; got != inner {
			t.Errorf("%s runs %q inside, want %q", name, got, inner)
		}
		s := b(registry.Params{})
		f, ok := s.(strategy.Failer)
		if !ok {
			t.Fatalf("%s: %T has no Err method", name, s)
		}
		if err := f.Err(); errors.Is(err, solver.ErrUnavailable) {
			t.Skipf("no Z3: %v", err)
		} else if err != nil {
			t.Errorf("%s: %v", name, err)
		}
		if c, ok := s.(strategy.Closer); ok {
			c.Close()
		}
	}
}

// TestRegisteredCon2: con2 is registered too, with its bound from the
// parameters.
func TestRegisteredCon2(t *testing.T) {
	b, err := registry.Lookup("con2")
	if err != nil {
		t.Fatalf("Lookup(con2): %v", err)
	}
	s := b(registry.Params{K: 3})
	if f, ok := s.(strategy.Failer); !ok {
		t.Fatalf("%T has no Err method", s)
	} else if err := f.Err(); errors.Is(err, solver.ErrUnavailable) {
		t.Skipf("no Z3: %v", err)
	} else if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(s); got != "con2(k=3)" {
		t.Errorf("con2 built as %s, want con2(k=3)", got)
	}
	s.(strategy.Closer).Close()
}
