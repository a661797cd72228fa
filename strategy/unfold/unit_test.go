// Tests of units of work (strategy.Splitter): tests handed out, run apart
// and joined later build the unfolding of the undivided exploration.

package unfold_test

import (
	"fmt"
	"testing"

	"github.com/weft-go/weft"
	"github.com/weft-go/weft/internal/gen"
	"github.com/weft-go/weft/internal/gen/genweft"
	"github.com/weft-go/weft/programs"
	"github.com/weft-go/weft/strategy"
	"github.com/weft-go/weft/strategy/unfold"
	"github.com/weft-go/weft/trace"
)

// splitting wraps the strategy being divided: after every execution it
// splits a unit off it and queues it.
type splitting struct {
	*unfold.Strategy
	t     *testing.T
	body  func(*weft.T)
	queue *[]strategy.Unit
	kinds map[trace.FailureKind]int
	tests *int
}

func (s *splitting) Finish(tr *trace.Trace, end trace.End) {
	s.Strategy.Finish(tr, end)
	*s.tests++
	if end.Status == trace.Failed {
		s.kinds[end.Kind]++
	}
	if u, ok := s.Split(); ok {
		*s.queue = append(*s.queue, u)
	}
}

// unit explores unit u apart (in an exploration of its own) and joins its
// handback.
func (s *splitting) unit(u strategy.Unit) {
	units++
	r, err := unfold.New(unfold.OptionsOf(s.Strategy)).Resume(u)
	if err != nil {
		s.t.Fatal(err)
	}
	w := &splitting{Strategy: r.(*unfold.Strategy), t: s.t, body: s.body, queue: new([]strategy.Unit), kinds: s.kinds, tests: s.tests}
	if _, err := weft.Explore(s.body, weft.WithCustomStrategy(w), weft.KeepGoing(), weft.NoReplayFiles()); err != nil {
		s.t.Fatal(err)
	}
	if len(*w.queue) > 0 {
		s.t.Fatal("a unit's strategy split")
	}
	if us, err := s.Join(r.Handback()); err != nil || len(us) != 0 {
		s.t.Fatalf("join: %d units, %v", len(us), err)
	}
}

// units counts the units explored.
var units int

// divided explores body with o divided: every test but the first is a
// unit run apart, joined once the splitter has run out of work, which it
// then takes up again. It returns the splitter, the tests run and the
// failures by kind.
func divided(t *testing.T, body func(*weft.T), o unfold.Options) (*unfold.Strategy, int, map[trace.FailureKind]int) {
	s := &splitting{Strategy: unfold.New(o), t: t, body: body, queue: new([]strategy.Unit), kinds: map[trace.FailureKind]int{}, tests: new(int)}
	for {
		if _, err := weft.Explore(body, weft.WithCustomStrategy(s), weft.KeepGoing(), weft.NoReplayFiles()); err != nil {
			t.Fatal(err)
		}
		if len(*s.queue) == 0 {
			return s.Strategy, *s.tests, s.kinds
		}
		for len(*s.queue) > 0 {
			u := (*s.queue)[0]
			*s.queue = (*s.queue)[1:]
			s.unit(u)
		}
	}
}

// TestUnits: unfold divided into units, each test after the first run
// apart and joined once the splitter ran out of work (the splitter going
// on meanwhile), builds the undivided unfolding and finds its failure
// kinds, on Peterson's and Dekker's locks with w.Await, generated
// programs of gen.Sync (6 with 3 tests or more) and the programs with
// sleeps and timers of 2 tests or more (sleepPrograms, timerPrograms),
// with the default and random
// free parts. (Units
// joined before the splitter's next test give exactly the undivided
// tests: package weft's TestDividedApart and TestDividedRandomPrograms.)
func TestUnits(t *testing.T) {
	type prog struct {
		name  string
		body  func(*weft.T)
		tests int
	}
	progs := []prog{
		{"peterson await", programs.SpinLockNamed("peterson", 2).Body(true), 7},
		{"dekker await", programs.SpinLockNamed("dekker", 2).Body(true), 8},
	}
	for seed := uint64(0); len(progs) < 8; seed++ {
		p := gen.NewWith(seed, gen.Sync)
		ok := only(p.Main, modelled, p.Chans)
		for _, ss := range p.Threads {
			ok = ok && only(ss, modelled, p.Chans)
		}
		if !ok {
			continue
		}
		if r, _ := explore(t, genweft.Body(p), unfold.Options{}); r.Executions >= 3 {
			progs = append(progs, prog{fmt.Sprint("gen sync ", seed), genweft.Body(p), -1})
		}
	}
	for _, c := range sleepPrograms {
		if c.tests >= 2 {
			progs = append(progs, prog{"sleeps: " + c.name, c.body, c.tests})
		}
	}
	for _, c := range timerPrograms {
		if c.tests >= 2 {
			progs = append(progs, prog{"timers: " + c.name, c.body, c.tests})
		}
	}
	for _, p := range progs {
		for _, o := range []unfold.Options{{}, {Seed: 5}} {
			r, whole := explore(t, p.body, o)
			if p.tests >= 0 && o.Seed == 0 && r.Executions != p.tests {
				t.Errorf("%s: %d tests, want %d", p.name, r.Executions, p.tests)
			}
			want := unfold.Signatures(whole)
			units = 0
			s, tests, kinds := divided(t, p.body, o)
			if units == 0 || units >= tests {
				t.Errorf("%s %+v: %d units in %d tests", p.name, o, units, tests)
			}
			if s.Err() != nil || s.Diverged() != nil {
				t.Fatalf("%s %+v: %v %v", p.name, o, s.Err(), s.Diverged())
			}
			if d := unfold.Diff(unfold.Signatures(s), want, "divided", "undivided"); d != "" {
				t.Errorf("%s %+v: %s", p.name, o, d)
			}
			if tests < r.Executions || !sameKinds(kinds, r.FailureCounts) {
				t.Errorf("%s %+v: %d tests, failures %v; undivided %d, %v", p.name, o, tests, kinds, r.Executions, r.FailureCounts)
			}
		}
	}
}

// sameKinds reports whether a and b have the same failure kinds.
func sameKinds(a, b map[trace.FailureKind]int) bool {
	for k, n := range a {
		if n > 0 && b[k] == 0 {
			return false
		}
	}
	for k, n := range b {
		if n > 0 && a[k] == 0 {
			return false
		}
	}
	return true
}
