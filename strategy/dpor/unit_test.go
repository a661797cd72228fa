// Tests of units of work: a divided exploration against an undivided one,
// and bad units.

package dpor

import (
	"errors"
	"testing"

	"github.com/weft-go/weft/internal/long"
	"github.com/weft-go/weft/strategy"
	"github.com/weft-go/weft/strategy/strategytest"
)

// TestUnits checks every registered variant divided into units on 15
// generated programs (150 with WEFT_LONG=1): explored and joined at once,
// exactly the undivided exploration; explored while the splitter goes on,
// the same traces, failures and final states. By default it leaves out
// dpor-clock, dpor-clock+sleep and dpor-cr, the slowest, whose algorithm,
// rule and sleep sets the other variants cover.
func TestUnits(t *testing.T) {
	t.Parallel()
	for name, o := range registered {
		if !long.Enabled() && (name == "dpor-clock" || name == "dpor-clock+sleep" || name == "dpor-cr") {
			continue
		}
		for _, c := range []strategytest.UnitCheck{{Programs: long.N(10, 100), Large: true}, {Programs: long.N(5, 50), From: 500, Every: 3, Depth: 6, Large: true}} {
			t.Run(name, func(t *testing.T) {
				strategytest.Units(t, func() strategy.Splitter { return New(o) }, c)
			})
		}
	}
}

// TestBadUnits checks that units and handbacks that are not this
// strategy's are refused with ErrBadUnit.
func TestBadUnits(t *testing.T) {
	a := New(registered["dpor"])
	b := New(registered["dpor+sleep"])
	var unit strategy.Unit
	for seed := uint64(0); unit == nil && seed < 100; seed++ {
		p, ok := strategytest.Generate(seed)
		if !ok || strategytest.Interleavings(p) < 10 {
			continue
		}
		b = New(registered["dpor+sleep"])
		if _, err := strategytest.Run(b, p, 2); err != nil {
			t.Fatal(err)
		}
		unit, _ = b.Split()
	}
	if unit == nil {
		t.Fatal("no unit from the first 100 programs")
	}
	if _, err := b.Resume(unit); err != nil {
		t.Fatalf("Resume of its own unit: %v", err)
	}
	for _, tc := range []struct {
		name string
		err  error
	}{
		{"other options", func() error { _, err := a.Resume(unit); return err }()},
		{"corrupt", func() error { _, err := b.Resume(unit[:len(unit)/2]); return err }()},
		{"garbage", func() error { _, err := b.Resume(strategy.Unit("hello")); return err }()},
		{"unit as handback", func() error { _, err := b.Join(strategy.Handback(unit)); return err }()},
	} {
		if !errors.Is(tc.err, strategy.ErrBadUnit) {
			t.Errorf("%s: %v, want ErrBadUnit", tc.name, tc.err)
		}
	}
}
