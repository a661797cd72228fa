// Tests of units of work joined at once: split off before each of the
// splitter's executions, realized by another strategy and joined before
// the splitter goes on, they give exactly the undivided exploration.

package con2_test

import (
	"fmt"
	"maps"
	"testing"

	"github.com/weft-go/weft"
	"github.com/weft-go/weft/internal/gen"
	"github.com/weft-go/weft/internal/gen/genweft"
	"github.com/weft-go/weft/strategy"
	"github.com/weft-go/weft/strategy/con2"
	"github.com/weft-go/weft/trace"
)

// tally wraps a strategy and counts its executions, their events and
// their failures by kind.
type tally struct {
	strategy.Strategy
	executions, events int
	kinds              map[trace.FailureKind]int
}

func (c *tally) Unwrap() strategy.Strategy { return c.Strategy }
func (c *tally) Close() error              { return nil } // the test closes the strategy

func (c *tally) Finish(tr *trace.Trace, end trace.End) {
	c.executions++
	c.events += len(tr.Events)
	if end.Status == trace.Failed {
		c.kinds[end.Kind]++
	}
	c.Strategy.Finish(tr, end)
}

// exploration is what TestUnitsAtOnce compares: the counts of an
// exploration, the strategy's Stats, and the sides it covered.
type exploration struct {
	executions, events, units int
	kinds                     map[trace.FailureKind]int
	stats                     con2.Stats
	covered                   string
}

// exploreAtOnce explores body with con2 (o), undivided or divided: then
// after each execution of the splitter the ISC it would take next is
// split off as a unit, resumed on another strategy with a solver of its
// own (a worker's), explored and joined before the splitter goes on.
func exploreAtOnce(t *testing.T, body func(*weft.T), o con2.Options, divide bool) exploration {
	t.Helper()
	s := newCon2(t, o)
	defer s.Close()
	home := newCon2(t, o)
	defer home.Close()
	c := &tally{Strategy: s, kinds: map[trace.FailureKind]int{}}
	units := 0
	explore := func(st strategy.Strategy, runs int) int {
		r, err := weft.Explore(body, weft.WithCustomStrategy(st), weft.KeepGoing(), weft.NoReplayFiles(), weft.WithMaxRuns(runs))
		if err != nil {
			t.Fatal(err)
		}
		return r.Executions
	}
	if !divide {
		explore(c, 5000)
	}
	for divide && explore(c, 1) > 0 {
		u, ok := s.Split()
		if !ok {
			continue
		}
		units++
		r, err := home.Resume(u)
		if err != nil {
			t.Fatal(err)
		}
		w := &tally{Strategy: r, executions: c.executions, events: c.events, kinds: c.kinds}
		explore(w, 0)
		c.executions, c.events = w.executions, w.events
		if us, err := s.Join(r.Handback()); err != nil || len(us) != 0 {
			t.Fatalf("join: %d units, %v", len(us), err)
		}
	}
	if err := s.Err(); err != nil {
		t.Fatal(err)
	}
	return exploration{c.executions, c.events, units, c.kinds, s.Stats(), fmt.Sprint(s.Covered())}
}

// TestUnitsAtOnce explores generated programs with con2 (k = 2) undivided
// and divided into units joined at once: the executions, their events,
// the failures by kind, the strategy's Stats and the sides covered are
// the same. Gen seed 17 ran 19 events divided where 21 undivided (a
// resumed strategy numbered threads by the order its execution met them,
// not as its splitter: the unit's target never ran); gen seed 99 split a
// unit its worker refused (a read-modify-write stopped by an unforeseen
// interference queued a scenario of a node of no kind, which undivided
// cost an empty execution). Both are pinned: seed 17 runs 8 executions
// of 21 events and splits 4 units; seed 99 runs 9 executions of 39
// events, 2 of them failing, and splits 5 units.
func TestUnitsAtOnce(t *testing.T) {
	t.Parallel()
	type want struct{ executions, events, units, failures int }
	for _, c := range []struct {
		seed uint64
		want want
	}{
		{17, want{8, 21, 4, 0}},
		{99, want{9, 39, 5, 2}},
	} {
		body := genweft.Body(gen.New(c.seed))
		o := con2.Options{K: 2}
		whole := exploreAtOnce(t, body, o, false)
		divided := exploreAtOnce(t, body, o, true)
		if whole.executions != divided.executions || whole.events != divided.events {
			t.Errorf("seed %d: divided %d executions of %d events, undivided %d of %d",
				c.seed, divided.executions, divided.events, whole.executions, whole.events)
		}
		if !maps.Equal(whole.kinds, divided.kinds) {
			t.Errorf("seed %d: divided fails %v, undivided %v", c.seed, divided.kinds, whole.kinds)
		}
		if whole.stats != divided.stats {
			t.Errorf("seed %d: divided %+v, undivided %+v", c.seed, divided.stats, whole.stats)
		}
		if whole.covered != divided.covered {
			t.Errorf("seed %d: divided covers %s, undivided %s", c.seed, divided.covered, whole.covered)
		}
		failures := 0
		for _, n := range whole.kinds {
			failures += n
		}
		if got := (want{whole.executions, whole.events, divided.units, failures}); got != c.want {
			t.Errorf("seed %d: %+v, want %+v", c.seed, got, c.want)
		}
	}
}
