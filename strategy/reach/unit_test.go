// Tests of units of work (strategy.Splitter): a subtree handed out and
// explored apart exercises what the strategy would have exercised itself.

package reach_test

import (
	"errors"
	"testing"

	"github.com/weft-go/weft"
	"github.com/weft-go/weft/internal/gen"
	"github.com/weft-go/weft/internal/gen/genweft"
	"github.com/weft-go/weft/strategy"
	"github.com/weft-go/weft/strategy/reach"
	"github.com/weft-go/weft/trace"
)

// splitting wraps a Splitter and, after every execution, splits a unit off
// it while it has split fewer than max and all together fewer than 40.
type splitting struct {
	*synRecorder
	sp    strategy.Splitter
	units *[]strategy.Unit
	total *int
	max   int
	n     int
}

func (s *splitting) Finish(tr *trace.Trace, end trace.End) {
	s.synRecorder.Finish(tr, end)
	if s.n < s.max && *s.total < 40 {
		if u, ok := s.sp.Split(); ok {
			*s.units = append(*s.units, u)
			s.n++
			*s.total++
		}
	}
}

// exploreSplit explores body with reach (o) split into units: the first
// strategy and every resumed one split off up to max units each (40 in
// all); every unit is resumed and explored apart. It returns the runs of all.
func exploreSplit(t *testing.T, body func(*weft.T), o reach.Options, max int, extra ...weft.Option) (runs []synRun, units int) {
	t.Helper()
	var queue []strategy.Unit
	total := 0
	explore := func(sp strategy.Splitter) {
		s := &splitting{synRecorder: &synRecorder{Strategy: sp}, sp: sp, units: &queue, total: &total, max: max}
		r, err := weft.Explore(body, append([]weft.Option{weft.WithCustomStrategy(s), weft.KeepGoing(), weft.NoReplayFiles()}, extra...)...)
		if err != nil || !r.Exhausted {
			t.Fatalf("explore: %v, exhausted %v: %s", err, r.Exhausted, r.Incomplete)
		}
		runs = append(runs, s.runs...)
	}
	root := reach.New(o)
	explore(root)
	if root.Handback() != nil {
		t.Fatal("a strategy not resumed from a unit handed something back")
	}
	for len(queue) > 0 {
		u := queue[0]
		queue = queue[1:]
		units++
		sp, err := reach.New(o).Resume(u)
		if err != nil {
			t.Fatal(err)
		}
		explore(sp)
		if sp.Handback() == nil {
			t.Fatal("a resumed strategy handed back nothing")
		}
		if us, err := root.Join(sp.Handback()); err != nil || len(us) != 0 {
			t.Fatalf("join: %d units, %v", len(us), err)
		}
	}
	return runs, units
}

// TestUnits: explored in units, each subtree apart (and split again),
// reach exercises the SYN-sequences it exercises in one piece, each once:
// on Table 4's BB-monitorSU (720), DP-monitorSU with 3 philosophers (30),
// Fig. 1 (4), a bounded buffer on a Cond (864), the timeout program with
// time at any step (12), and generated programs with variables, timers
// (with time at any step too), and semaphores, Conds and monitors.
func TestUnits(t *testing.T) {
	type prog struct {
		name string
		body func(*weft.T)
		want int
		opts []weft.Option
	}
	progs := []prog{
		{"bbmonitor", body("bbmonitor", map[string]int{"su": 1}), 720, nil},
		{"dpmonitor", body("dpmonitor", map[string]int{"n": 3}), 30, nil},
		{"reach-fig1", body("reach-fig1", nil), 4, nil},
		{"cond buffer", condBuffer(2, 2, 2, true), 864, nil},
		{"timeout any", body("timeout", nil), 12, []weft.Option{anyStep}},
	}
	for seed := uint64(0); seed < 6; seed++ {
		progs = append(progs, prog{"gen", genweft.Body(gen.NewWith(seed, gen.DefaultOptions)), -1, nil})
		progs = append(progs, prog{"gen timed", genweft.Body(gen.NewWith(seed, gen.Timed)), -1, nil})
		progs = append(progs, prog{"gen sync", genweft.Body(gen.NewWith(seed, gen.Sync)), -1, nil})
		progs = append(progs, prog{"gen loops any", genweft.Body(gen.NewWith(seed, gen.Loops)), -1, []weft.Option{anyStep}})
	}
	for _, p := range progs {
		whole, _ := run(t, p.body, reach.New(reach.Options{}), 0, p.opts...)
		parts, units := exploreSplit(t, p.body, reach.Options{}, 3, p.opts...)
		g := newSynGroups(whole, parts)
		count := func(rs []synRun) (map[string]int, int) {
			m := map[string]int{}
			n := 0
			for _, r := range rs {
				if !r.skipped {
					m[g.syn(r)]++
					n++
				}
			}
			return m, n
		}
		w, nw := count(whole)
		q, nq := count(parts)
		if p.want >= 0 && nw != p.want {
			t.Errorf("%s: %d sequences in one piece, want %d", p.name, nw, p.want)
		}
		if nq != nw || len(q) != len(w) {
			t.Errorf("%s: %d sequences (%d distinct) in %d units, %d (%d) in one piece", p.name, nq, len(q), units, nw, len(w))
		}
		for k := range w {
			if q[k] != 1 {
				t.Errorf("%s: a sequence exercised %d times in units:\n%s", p.name, q[k], k)
				break
			}
		}
		if p.want > 4 && units == 0 {
			t.Errorf("%s: no unit split off", p.name)
		}
	}
}

// TestResumeBadUnit: a unit of other options, or no unit, is refused.
func TestResumeBadUnit(t *testing.T) {
	s := reach.New(reach.Options{})
	if _, err := weft.Explore(body("reach-fig1", nil), weft.WithCustomStrategy(s), weft.WithMaxRuns(1), weft.NoReplayFiles()); err != nil {
		t.Fatal(err)
	}
	u, ok := s.Split()
	if !ok {
		t.Fatal("no unit after the first run of Fig. 1")
	}
	if _, err := reach.New(reach.Options{PV: true}).Resume(u); !errors.Is(err, strategy.ErrBadUnit) {
		t.Errorf("a unit resumed with other options: %v, want ErrBadUnit", err)
	}
	if _, err := reach.New(reach.Options{}).Resume(strategy.Unit("x")); !errors.Is(err, strategy.ErrBadUnit) {
		t.Errorf("bytes that are no unit: %v, want ErrBadUnit", err)
	}
}

// TestUnitsSymbolic: with inputs, a unit carries the inputs the solver
// gave its variant's path constraint; explored in units, reach exercises
// the sequences it exercises in one piece, each once, on random programs
// that branch on inputs.
func TestUnitsSymbolic(t *testing.T) {
	t.Parallel()
	o := withZ3(t, reach.Options{})
	checked, split := 0, 0
	for seed := uint64(0); checked < 4; seed++ {
		body := genSym(seed).body()
		whole, _ := run(t, body, reach.New(o), 0)
		if len(whole) < 6 {
			continue
		}
		checked++
		parts, units := exploreSplit(t, body, o, 3)
		split += units
		g := newSynGroups(whole, parts)
		count := func(rs []synRun) map[string]int {
			m := map[string]int{}
			for _, r := range rs {
				if !r.skipped {
					m[g.syn(r)]++
				}
			}
			return m
		}
		w, q := count(whole), count(parts)
		if len(q) != len(w) {
			t.Errorf("seed %d: %d sequences in %d units, %d in one piece", seed, len(q), units, len(w))
		}
		for k, n := range q {
			if n != 1 || w[k] != 1 {
				t.Errorf("seed %d: a sequence exercised %d times in units, %d in one piece:\n%s", seed, n, w[k], k)
				break
			}
		}
	}
	if split == 0 {
		t.Error("no unit split off")
	}
	t.Logf("%d programs, %d units", checked, split)
}
