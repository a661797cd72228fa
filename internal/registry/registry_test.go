// Tests of the registry: names, lookups, and the opt-in strategies.

package registry

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

// TestNames lists the strategies registered without the concolic package.
func TestNames(t *testing.T) {
	want := []string{"dpor", "dpor+sleep", "dpor-1", "dpor-2", "dpor-clock", "dpor-clock+sleep", "dpor-cr", "dpor-cr+sleep",
		"exhaustive", "flip", "flip+sleep", "optimal", "pct", "random", "reach", "unfold"}
	if got := Names(); !slices.Equal(got, want) {
		t.Errorf("Names() = %v, want %v", got, want)
	}
}

func TestLookup(t *testing.T) {
	for _, name := range Names() {
		b, err := Lookup(name)
		if err != nil {
			t.Fatalf("Lookup(%q): %v", name, err)
		}
		if b(Params{Seed: 1, Depth: 2}) == nil {
			t.Errorf("the builder of %q returned nil", name)
		}
	}
	_, err := Lookup("nope")
	if !errors.Is(err, ErrUnknown) || !strings.Contains(err.Error(), `"nope" (known: dpor, dpor+sleep,`) {
		t.Errorf("Lookup(nope) = %v; want ErrUnknown listing the known names", err)
	}
}

// TestOptIn: without package concolic, asking for a concolic strategy says
// how to enable it.
func TestOptIn(t *testing.T) {
	for _, name := range concolicNames {
		_, err := Lookup(name)
		if !errors.Is(err, ErrNotLinked) || !strings.Contains(err.Error(), `import _ "github.com/weft-go/weft/concolic"`) {
			t.Errorf("Lookup(%q) = %v; want ErrNotLinked naming the import", name, err)
		}
	}
}

func TestRegisterTwicePanics(t *testing.T) {
	defer func() {
		if r := recover(); r == nil || !strings.Contains(r.(string), `"exhaustive" registered twice`) {
			t.Errorf("recover() = %v; want a panic naming the strategy", r)
		}
	}()
	Register("exhaustive", nil)
}

// TestRedundant lists the systematic strategies without sleep sets.
func TestRedundant(t *testing.T) {
	var got []string
	for _, name := range Names() {
		if Redundant(name) {
			got = append(got, name)
		}
	}
	if want := []string{"dpor", "dpor-clock", "dpor-cr", "exhaustive", "flip"}; !slices.Equal(got, want) {
		t.Errorf("redundant strategies %v, want %v", got, want)
	}
}
