// Tests of units of work (strategy.Splitter): ISCs handed out, realized
// by strategies with solvers of their own, as in other processes, and
// joined later, cover what the undivided exploration covers.

package con2_test

import (
	"errors"
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/weft-go/weft"
	"github.com/weft-go/weft/internal/long"
	"github.com/weft-go/weft/programs"
	"github.com/weft-go/weft/strategy"
	"github.com/weft-go/weft/strategy/con2"
	"github.com/weft-go/weft/trace"
)

// splitting wraps the strategy being divided: after every execution it
// splits a unit off it and queues it. Its Close does nothing: the
// splitter's solver stays open between its explorations, until the test
// closes it.
type splitting struct {
	*con2.Strategy
	queue *[]strategy.Unit
	kinds map[trace.FailureKind]int
}

func (s *splitting) Unwrap() strategy.Strategy { return s.Strategy }
func (s *splitting) Close() error              { return nil }

func (s *splitting) Finish(tr *trace.Trace, end trace.End) {
	s.Strategy.Finish(tr, end)
	if end.Status == trace.Failed {
		s.kinds[end.Kind]++
	}
	if u, ok := s.Split(); ok {
		*s.queue = append(*s.queue, u)
	}
}

// divided explores body with con2 (o) divided: after every execution an
// ISC is split off as a unit, realized and run by a strategy resumed on
// another con2 strategy (a worker's) with a solver of its own, joined once the
// splitter has run out of work, which it then takes up again. It returns
// the splitter, the units, the executions and the failures by kind.
func divided(t *testing.T, body func(*weft.T), o con2.Options) (*con2.Strategy, int, int, map[trace.FailureKind]int) {
	t.Helper()
	s := &splitting{Strategy: newCon2(t, o), queue: new([]strategy.Unit), kinds: map[trace.FailureKind]int{}}
	defer s.Strategy.Close()
	home := newCon2(t, o) // the worker process's strategy
	defer home.Close()
	units, executions := 0, 0
	explore := func(st strategy.Strategy) {
		r, err := weft.Explore(body, weft.WithCustomStrategy(st), weft.KeepGoing(), weft.NoReplayFiles(), weft.WithMaxRuns(5000))
		if err != nil {
			t.Fatal(err)
		}
		executions += r.Executions
	}
	for {
		explore(s)
		if len(*s.queue) == 0 {
			return s.Strategy, units, executions, s.kinds
		}
		for len(*s.queue) > 0 {
			u := (*s.queue)[0]
			*s.queue = (*s.queue)[1:]
			units++
			r, err := home.Resume(u)
			if err != nil {
				t.Fatal(err)
			}
			w := &splitting{Strategy: r.(*con2.Strategy), queue: new([]strategy.Unit), kinds: s.kinds}
			explore(w)
			if len(*w.queue) > 0 {
				t.Fatal("a unit's strategy split")
			}
			if us, err := s.Join(r.Handback()); err != nil || len(us) != 0 {
				t.Fatalf("join: %d units, %v", len(us), err)
			}
		}
	}
}

// TestUnits: con2 divided into units (one split off after every
// execution, realized apart by a strategy with its own Z3 and joined once
// the splitter ran out of work) covers the branch sides the undivided
// exploration covers, each at the same k, finds the same failure kinds,
// and no more of its executions diverge from their scenarios (none do),
// on addall, jcute, the relay of two interferences, the racy assertion
// and a generated program of a primitive's family: channel, select with
// a default and cond by default, every family with WEFT_LONG=1. addall
// with k = 1 is pinned: 6 units, 8 executions where the undivided
// exploration runs 9 (the late joins change the order in which ISCs are
// processed).
func TestUnits(t *testing.T) {
	t.Parallel()
	type prog struct {
		name string
		body func(*weft.T)
		k    int
	}
	progs := []prog{
		{"addall", programs.Lookup("addall").MustBody(nil), 1},
		{"jcute", programs.Lookup("jcute").MustBody(nil), 1},
		{"relay", relay(nil), 2},
		{"racy assert", racyAssert, 1},
		{"await", flagged(awaitFlag, true)(&marks{}), 2},
		{"yield", flagged(yieldFlag, false)(&marks{}), 2},
	}
	for fam := range families {
		if n := families[fam].name; families[fam].anyStep || !long.Enabled() && n != "channel" && n != "select+default" && n != "cond" && n != "await" {
			continue
		}
		p := genSyncProgram(rand.New(rand.NewPCG(0, uint64(fam))), fam)
		progs = append(progs, prog{"gen " + families[fam].name, p.body(nil), 1})
		if families[fam].name == "await" {
			// An await that blocks with the inputs first solved: the
			// scenario runs again without them (learnAwait).
			p := genSyncProgram(rand.New(rand.NewPCG(40, uint64(fam))), fam)
			progs = append(progs, prog{"gen await 40", p.body(&marks{}), 2})
		}
	}
	for _, p := range progs {
		o := con2.Options{K: p.k}
		whole := newCon2(t, o)
		r, err := weft.Explore(p.body, weft.WithCustomStrategy(whole), weft.KeepGoing(), weft.NoReplayFiles(), weft.WithMaxRuns(5000))
		if errors.Is(err, con2.ErrUnsupported) {
			continue
		}
		if err != nil || !r.Exhausted {
			t.Fatalf("%s: %v, exhausted %v", p.name, err, r.Exhausted)
		}
		s, units, executions, kinds := divided(t, p.body, o)
		t.Logf("%s: %d units, %d executions (undivided %d), stats %+v (undivided %+v)", p.name, units, executions, r.Executions, s.Stats(), whole.Stats())
		if s.Err() != nil {
			t.Fatalf("%s: %v", p.name, s.Err())
		}
		if d, wd := s.Stats().Diverged, whole.Stats().Diverged; d > wd {
			t.Errorf("%s: %d executions of units diverged from their scenarios, %d undivided", p.name, d, wd)
		}
		if got, want := fmt.Sprint(s.Covered()), fmt.Sprint(whole.Covered()); got != want {
			t.Errorf("%s: divided covers %s, undivided %s", p.name, got, want)
		}
		if got, want := slices.Sorted(maps.Keys(kinds)), slices.Sorted(maps.Keys(r.FailureCounts)); !slices.Equal(got, want) {
			t.Errorf("%s: divided finds %v, undivided %v", p.name, got, want)
		}
		if units == 0 || units >= executions && p.name != "racy assert" {
			t.Errorf("%s: %d units in %d executions", p.name, units, executions)
		}
		if p.name == "addall" && (units != 6 || executions != 8 || r.Executions != 9) {
			t.Errorf("addall: %d units, %d executions (undivided %d); want 6, 8 (9)", units, executions, r.Executions)
		}
	}
}

// TestBadUnits: bytes that are no unit of con2 with these options, and a
// unit whose terms are corrupt, are refused with ErrBadUnit.
func TestBadUnits(t *testing.T) {
	s := newCon2(t, con2.Options{K: 1})
	defer s.Close()
	sp := &splitting{Strategy: s, queue: new([]strategy.Unit), kinds: map[trace.FailureKind]int{}}
	if _, err := weft.Explore(programs.Lookup("addall").MustBody(nil), weft.WithCustomStrategy(sp), weft.WithMaxRuns(2), weft.NoReplayFiles()); err != nil {
		t.Fatal(err)
	}
	if len(*sp.queue) == 0 {
		t.Fatal("no unit split")
	}
	u := (*sp.queue)[0]
	other := newCon2(t, con2.Options{K: 2})
	defer other.Close()
	for _, c := range []struct {
		name string
		s    *con2.Strategy
		u    strategy.Unit
	}{
		{"other options", other, u},
		{"garbage", s, strategy.Unit("not a unit")},
		{"truncated", s, u[:len(u)/2]},
	} {
		if _, err := c.s.Resume(c.u); !errors.Is(err, strategy.ErrBadUnit) {
			t.Errorf("%s: Resume gave %v, want ErrBadUnit", c.name, err)
		}
	}
	if _, err := s.Join(strategy.Handback("not a handback")); !errors.Is(err, strategy.ErrBadUnit) {
		t.Errorf("Join of garbage: %v, want ErrBadUnit", err)
	}
}
