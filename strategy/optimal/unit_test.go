// This file tests units of work (unit.go): divided explorations against
// undivided ones, and the refusal of bytes that are no unit of the
// strategy.

package optimal_test

import (
	"errors"
	"slices"
	"testing"

	"github.com/weft-go/weft/strategy"
	"github.com/weft-go/weft/strategy/optimal"
	"github.com/weft-go/weft/strategy/strategytest"
)

// TestUnits checks that Optimal-DPOR divided into units explores what it
// explores undivided: exactly, when each unit is explored and joined at
// once; the same traces, failures and final states, when units wait while
// their splitter goes on.
func TestUnits(t *testing.T) {
	for _, c := range []struct {
		name string
		o    optimal.Options
		u    strategytest.UnitCheck
	}{
		{"default", optimal.Options{}, strategytest.UnitCheck{Programs: 200}},
		{"seed7", optimal.Options{Seed: 7}, strategytest.UnitCheck{Programs: 200}},
		{"every3-depth5", optimal.Options{}, strategytest.UnitCheck{Programs: 200, Every: 3, Depth: 5}},
		{"seed7-every3-depth5", optimal.Options{Seed: 7}, strategytest.UnitCheck{Programs: 200, Every: 3, Depth: 5}},
	} {
		t.Run(c.name, func(t *testing.T) {
			strategytest.Units(t, func() strategy.Splitter { return optimal.NewWith(c.o) }, c.u)
		})
	}
}

// TestUnitsSameOrder checks more than Units does: a unit explored and
// joined at once gives the undivided exploration execution by execution,
// in the same order (the unit carries the state of the random order, and
// Join takes it back), and the divided exploration's statistics, which
// Join adds up, are the undivided ones. It also counts the units and the
// orphans (units Join returns) of the delayed explorations.
func TestUnitsSameOrder(t *testing.T) {
	var units, orphans, programs int
	for _, seed := range []int64{0, 3} {
		for _, uo := range []strategytest.UnitOptions{{}, {Every: 2, Depth: 6}} {
			checked := 0
			for ps := uint64(0); checked < 100; ps++ {
				p, ok := strategytest.Generate(ps)
				if !ok || strategytest.Interleavings(p) > 2000 {
					continue
				}
				checked++
				whole := optimal.NewWith(optimal.Options{Seed: seed})
				whole.SetVerify(true)
				want, err := strategytest.Run(whole, p, 0)
				if err != nil {
					t.Fatal(err)
				}
				root := optimal.NewWith(optimal.Options{Seed: seed})
				root.SetVerify(true)
				d := strategytest.Divide(root, uo)
				got, err := strategytest.Run(d, p, 0)
				if err == nil {
					err = d.Err()
				}
				if err != nil {
					t.Fatalf("program %d: %v", ps, err)
				}
				if !slices.Equal(got.Schedules, want.Schedules) {
					t.Errorf("program %d, seed %d, %+v: divided (%d units), the executions are\n\t%v\nwant\n\t%v", ps, seed, uo, d.Stats().Units, got.Schedules, want.Schedules)
				}
				if g, w := root.Stats(), whole.Stats(); g != w {
					t.Errorf("program %d, seed %d, %+v: divided, the statistics are %+v, want %+v", ps, seed, uo, g, w)
				}
				uo.Delay = 3
				_, st, err := strategytest.RunUnits(optimal.NewWith(optimal.Options{Seed: seed}), p, uo)
				uo.Delay = 0
				if err != nil {
					t.Fatalf("program %d: %v", ps, err)
				}
				units += st.Units
				orphans += st.Orphans
				programs++
			}
		}
	}
	t.Logf("%d explorations delayed by 3: %d units, %d of them orphans", programs, units, orphans)
}

// TestBadUnits checks that Resume and Join refuse bytes that are no unit or
// handback of the strategy with these options.
func TestBadUnits(t *testing.T) {
	var p *strategytest.Program
	for ps := uint64(0); p == nil; ps++ {
		if q, ok := strategytest.Generate(ps); ok && strategytest.Interleavings(q) > 10 {
			p = q
		}
	}
	// split runs one execution of p under s and splits off a unit.
	split := func(s *optimal.Strategy) strategy.Unit {
		t.Helper()
		if r, err := strategytest.Run(s, p, 1); err != nil || r.Executions != 1 {
			t.Fatalf("%v, %d executions", err, r.Executions)
		}
		u, ok := s.Split()
		if !ok {
			t.Fatal("no unit to split off after one execution")
		}
		return u
	}
	u := split(optimal.New())
	if _, err := optimal.New().Resume(u); err != nil {
		t.Fatalf("Resume of a unit of the same options: %v", err)
	}
	seeded := split(optimal.NewWith(optimal.Options{Seed: 7}))
	if _, err := optimal.NewWith(optimal.Options{Seed: 7}).Resume(seeded); err != nil {
		t.Fatalf("Resume of a unit of the same seed: %v", err)
	}
	// A unit of package dpor's shape, under its name.
	foreign, err := strategy.EncodeUnit("dpor", struct{ Nodes []int }{[]int{1, 2}})
	if err != nil {
		t.Fatal(err)
	}
	corrupt := slices.Clone(u)
	for i := len(corrupt) / 2; i < len(corrupt); i++ {
		corrupt[i] ^= 0x5a
	}
	for _, c := range []struct {
		name string
		s    *optimal.Strategy
		u    strategy.Unit
	}{
		{"corrupt", optimal.New(), corrupt},
		{"truncated", optimal.New(), u[:len(u)/2]},
		{"garbage", optimal.New(), strategy.Unit("not a unit")},
		{"empty", optimal.New(), nil},
		{"foreign", optimal.New(), foreign},
		{"seed 7 into seed 0", optimal.New(), seeded},
		{"seed 7 into seed 8", optimal.NewWith(optimal.Options{Seed: 8}), seeded},
		{"seed 0 into seed 7", optimal.NewWith(optimal.Options{Seed: 7}), u},
	} {
		if _, err := c.s.Resume(c.u); !errors.Is(err, strategy.ErrBadUnit) {
			t.Errorf("Resume of a %s unit: %v, want an error wrapping ErrBadUnit", c.name, err)
		}
	}

	// Handbacks: a real one joins; garbage, a unit, a foreign one and one
	// of other options do not.
	s := optimal.New()
	u = split(s)
	r, err := s.Resume(u)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := strategytest.Run(r, p, 0); err != nil {
		t.Fatal(err)
	}
	h := r.Handback()
	if h == nil {
		t.Fatal("no handback from a resumed strategy")
	}
	if optimal.New().Handback() != nil {
		t.Errorf("a strategy not resumed from a unit has a handback")
	}
	foreignH, err := strategy.EncodeHandback("dpor", struct{ X int }{1})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		s    *optimal.Strategy
		h    strategy.Handback
	}{
		{"garbage", s, strategy.Handback("garbage")},
		{"truncated", s, h[:len(h)/2]},
		{"unit", s, strategy.Handback(u)},
		{"foreign", s, foreignH},
		{"seed 0 into seed 7", optimal.NewWith(optimal.Options{Seed: 7}), h},
	} {
		if _, err := c.s.Join(c.h); !errors.Is(err, strategy.ErrBadUnit) {
			t.Errorf("Join of a %s handback: %v, want an error wrapping ErrBadUnit", c.name, err)
		}
	}
	if _, err := s.Join(h); err != nil {
		t.Errorf("Join of a real handback: %v", err)
	}
}
