// This file tests units of work (unit.go): divided explorations against
// undivided ones, and the refusal of bytes that are no unit of the
// strategy.

package optimal

import (
	"errors"
	"slices"
	"testing"

	"github.com/weft-go/weft/internal/long"
	"github.com/weft-go/weft/strategy"
	"github.com/weft-go/weft/strategy/strategytest"
	"github.com/weft-go/weft/trace"
)

// TestUnits checks that Optimal-DPOR divided into units explores what it
// explores undivided: exactly, when each unit is explored and joined at
// once; the same traces, failures and final states, when units wait while
// their splitter goes on.
// Each variant runs on 20 programs (200 with WEFT_LONG=1).
func TestUnits(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name string
		o    Options
		u    strategytest.UnitCheck
	}{
		{"default", Options{}, strategytest.UnitCheck{Programs: long.N(20, 200)}},
		{"seed7", Options{Seed: 7}, strategytest.UnitCheck{Programs: long.N(20, 200)}},
		{"every3-depth5", Options{}, strategytest.UnitCheck{Programs: long.N(20, 200), Every: 3, Depth: 5}},
		{"seed7-every3-depth5", Options{Seed: 7}, strategytest.UnitCheck{Programs: long.N(20, 200), Every: 3, Depth: 5}},
		// SplitLarge as parallel workers use it: now and then, a few
		// levels deep.
		{"large-every8-depth2", Options{}, strategytest.UnitCheck{Programs: long.N(20, 200), Every: 8, Depth: 2, Large: true}},
	} {
		t.Run(c.name, func(t *testing.T) {
			if c.name == "seed7-every3-depth5" {
				long.Skip(t, "the other variants cover seeds, Every and Depth")
			}
			strategytest.Units(t, func() strategy.Splitter { return NewWith(c.o) }, c.u)
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
	t.Parallel()
	var units, orphans, explorations int
	for _, seed := range []int64{0, 3} {
		for _, uo := range []strategytest.UnitOptions{{}, {Every: 2, Depth: 6}} {
			checked := 0
			for ps := uint64(0); checked < programs(); ps++ {
				p, ok := strategytest.Generate(ps)
				if !ok || strategytest.Interleavings(p) > 2000 {
					continue
				}
				checked++
				whole := NewWith(Options{Seed: seed})
				whole.SetVerify(true)
				want, err := strategytest.Run(whole, p, 0)
				if err != nil {
					t.Fatal(err)
				}
				root := NewWith(Options{Seed: seed})
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
				_, st, err := strategytest.RunUnits(NewWith(Options{Seed: seed}), p, uo)
				uo.Delay = 0
				if err != nil {
					t.Fatalf("program %d: %v", ps, err)
				}
				units += st.Units
				orphans += st.Orphans
				explorations++
			}
		}
	}
	t.Logf("%d explorations delayed by 3: %d units, %d of them orphans", explorations, units, orphans)
}

// programs is the number of programs TestUnitsSameOrder checks per
// variant.
func programs() int {
	return long.N(10, 100)
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
	split := func(s *Strategy) strategy.Unit {
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
	u := split(New())
	if _, err := New().Resume(u); err != nil {
		t.Fatalf("Resume of a unit of the same options: %v", err)
	}
	seeded := split(NewWith(Options{Seed: 7}))
	if _, err := NewWith(Options{Seed: 7}).Resume(seeded); err != nil {
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
		s    *Strategy
		u    strategy.Unit
	}{
		{"corrupt", New(), corrupt},
		{"truncated", New(), u[:len(u)/2]},
		{"garbage", New(), strategy.Unit("not a unit")},
		{"empty", New(), nil},
		{"foreign", New(), foreign},
		{"seed 7 into seed 0", New(), seeded},
		{"seed 7 into seed 8", NewWith(Options{Seed: 8}), seeded},
		{"seed 0 into seed 7", NewWith(Options{Seed: 7}), u},
	} {
		if _, err := c.s.Resume(c.u); !errors.Is(err, strategy.ErrBadUnit) {
			t.Errorf("Resume of a %s unit: %v, want an error wrapping ErrBadUnit", c.name, err)
		}
	}

	// Handbacks: a real one joins; garbage, a unit, a foreign one and one
	// of other options do not.
	s := New()
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
	if New().Handback() != nil {
		t.Errorf("a strategy not resumed from a unit has a handback")
	}
	foreignH, err := strategy.EncodeHandback("dpor", struct{ X int }{1})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		s    *Strategy
		h    strategy.Handback
	}{
		{"garbage", s, strategy.Handback("garbage")},
		{"truncated", s, h[:len(h)/2]},
		{"unit", s, strategy.Handback(u)},
		{"foreign", s, foreignH},
		{"seed 0 into seed 7", NewWith(Options{Seed: 7}), h},
	} {
		if _, err := c.s.Join(c.h); !errors.Is(err, strategy.ErrBadUnit) {
			t.Errorf("Join of a %s handback: %v, want an error wrapping ErrBadUnit", c.name, err)
		}
	}
	if _, err := s.Join(h); err != nil {
		t.Errorf("Join of a real handback: %v", err)
	}
}

// TestJoinTranslates checks that Join reads a handback in the names it was
// written in: threads by their path of spawns and objects by key, those the
// joining strategy has not met getting new numbers, after the key merges
// the unit found.
func TestJoinTranslates(t *testing.T) {
	// The splitter: threads main (0), its children 0 and 1 (1, 2); objects
	// of keys 10, 20, 30 (0, 1, 2); a path of one state, main's store to
	// object 0.
	s := New()
	s.started = true
	s.tn.SetPaths(map[trace.ThreadPath]trace.ThreadID{{Parent: -1, Rank: 0}: 0, {Parent: 0, Rank: 0}: 1, {Parent: 0, Rank: 1}: 2})
	s.nm.ids = map[uint64]trace.ObjectID{10: 0, 20: 1, 30: 2}
	store := func(th trace.ThreadID, step int32, o trace.ObjectID) event {
		e := event{Event: trace.Event{Thread: th, Op: trace.Op{Kind: trace.KindStore, Class: trace.ClassVar, Obj: o}, Case: -1, Partner: trace.NoThread, PartnerCase: -1, OK: true},
			step: step, spawnLo: trace.NoThread, sth: th, spart: trace.NoThread, sjoin: trace.NoThread}
		e.cache()
		return e
	}
	s.nodes.SetLen(2)
	*s.nodes.At(0), *s.nodes.At(1) = node{ev: store(0, 0, 0)}, node{}
	s.nodes.At(1).ev = store(1, 0, 1)

	// The unit numbered main's second child 1, its first 2, and met a
	// thread the second child started (3) and an object of key 40 (3); it
	// found that keys 20 and 10 name one object (both 0 for it).
	d := handbackData{
		Names: wireNames{
			Threads: []wireThread{{-1, 0, 0}, {0, 1, 1}, {0, 0, 2}, {1, 0, 3}},
			Objects: []wireObject{{10, 0}, {20, 0}, {30, 1}, {40, 3}},
		},
		Merges: []trace.KeyMerge{{From: 20, To: 10}},
		Path:   []wireNode{{Ev: wireEventOf(&s.nodes.At(0).ev)}, {Ev: wireEventOf(ptr(store(2, 0, 0)))}},
	}
	// A sequence for state 1: the thread the second child started stores to
	// the object of key 40, announcing an access to that of key 30.
	e := store(3, 0, 3)
	e.setAnn([]trace.Access{{Obj: 1, Mode: trace.Write}})
	e.cache()
	d.Inserts = []wireInsert{{Depth: 1, Seq: []wireEvent{wireEventOf(&e)}, Branch: []wireEvent{wireEventOf(&e)}, At: []int{0}}}
	h, err := strategy.EncodeHandback(s.tag(), &d)
	if err != nil {
		t.Fatal(err)
	}
	units, err := s.Join(h)
	if err != nil || len(units) != 0 {
		t.Fatalf("Join: %d units, %v", len(units), err)
	}
	if s.nm.ids[20] != s.nm.ids[10] {
		t.Errorf("keys 20 and 10 have numbers %d and %d, want one", s.nm.ids[20], s.nm.ids[10])
	}
	if s.nodes.At(1).ev.Op.Obj != s.nm.ids[10] {
		t.Errorf("the path's store is to object %d, want %d (merged)", s.nodes.At(1).ev.Op.Obj, s.nm.ids[10])
	}
	kid, ok := s.tn.Lookup(trace.ThreadPath{Parent: 2, Rank: 0})
	if !ok || kid != 3 {
		t.Fatalf("the thread started by main's second child is named %d (%v), want 3", kid, ok)
	}
	if len(s.nodes.At(1).wut) != 1 {
		t.Fatalf("state 1 has %d branches, want 1", len(s.nodes.At(1).wut))
	}
	got := s.nodes.At(1).wut[0].ev
	if got.sth != 3 || got.Op.Obj != s.nm.ids[40] || s.nm.ids[40] != 3 || len(got.ann()) != 1 || got.ann()[0].Obj != 2 {
		t.Errorf("the joined event is thread %d, object %d, announcing %v; want thread 3, object %d (key 40), announcing object 2 (key 30)",
			got.sth, got.Op.Obj, got.ann(), s.nm.ids[40])
	}
}

func ptr[T any](v T) *T { return &v }
