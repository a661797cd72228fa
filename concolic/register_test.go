// Tests that importing the package registers the concolic strategies.

package concolic

import (
	"errors"
	"testing"

	"github.com/weft-go/weft/internal/registry"
	"github.com/weft-go/weft/solver"
	"github.com/weft-go/weft/strategy"
)

func TestRegistered(t *testing.T) {
	for name, inner := range map[string]string{"concolic": "exhaustive", "concolic-dpor": "dpor", "concolic-optimal": "optimal"} {
		b, err := registry.Lookup(name)
		if err != nil {
			t.Fatalf("Lookup(%q): %v", name, err)
		}
		if inners[name] != inner {
			t.Errorf("%s runs %q inside, want %q", name, inners[name], inner)
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
