// This file implements RunUnits, an exploration divided into units of
// work (strategy.Splitter), and Units, its check against an undivided one.

package strategytest

import (
	"fmt"
	"maps"
	"strings"
	"testing"

	"github.com/weft-go/weft/strategy"
	"github.com/weft-go/weft/trace"
)

// UnitOptions say how RunUnits divides an exploration.
type UnitOptions struct {
	// Every: after every Every-th execution of a strategy, it splits off a
	// unit. 0 means 1.
	Every int
	// Depth bounds the nesting: a strategy resumed from a unit at depth
	// Depth splits no further. 0 means 3.
	Depth int
	// Delay, if not zero, explores a unit only after its splitter has run
	// Delay more executions (or ended), so that the splitter moves on
	// while the unit waits: its handback then finds states the splitter
	// has left, and Join returns new units for them. Zero explores and
	// joins each unit at once, which must give exactly the undivided
	// exploration.
	Delay int
	// Limit bounds the executions of the whole exploration; 0 means
	// 100,000.
	Limit int
}

// UnitStats counts what RunUnits did.
type UnitStats struct {
	// Units is the number of units explored; Orphans those of them that
	// Join returned; MaxDepth the deepest nesting.
	Units, Orphans, MaxDepth int
}

// RunUnits explores p with s as Run does, dividing the exploration as o
// says: each unit is explored by a strategy s.Resume returns, its handback
// joined, and the units Join returns explored in turn. The Result counts
// the executions of every strategy involved. It reports an error if a
// strategy chose a thread that is not enabled, or if Resume or Join
// failed.
func RunUnits(s strategy.Splitter, p *Program, o UnitOptions) (*Result, UnitStats, error) {
	if o.Every <= 0 {
		o.Every = 1
	}
	if o.Depth <= 0 {
		o.Depth = 3
	}
	if o.Limit <= 0 {
		o.Limit = 100_000
	}
	u := &unitRunner{p: p, o: o, r: newResult()}
	err := u.explore(s, 0)
	u.r.Exhausted = err == nil && u.r.Executions < o.Limit
	return u.r, u.st, err
}

// unitRunner runs the strategies of a divided exploration.
type unitRunner struct {
	p  *Program
	o  UnitOptions
	r  *Result
	st UnitStats
	tr trace.Trace
}

// waiting is a unit split off but not explored yet, and how many more
// executions its splitter runs before it is.
type waiting struct {
	unit  strategy.Unit
	after int
}

// explore runs s, a strategy at nesting depth, to the end of its
// exploration, splitting off and exploring units as the options say.
func (u *unitRunner) explore(s strategy.Splitter, depth int) error {
	u.st.MaxDepth = max(u.st.MaxDepth, depth)
	var queue []waiting
	runs := 0
	for u.r.Executions < u.o.Limit && s.Next() {
		if err := u.r.execute(s, u.p, &u.tr); err != nil {
			return err
		}
		runs++
		for i := range queue {
			queue[i].after--
		}
		for len(queue) > 0 && queue[0].after <= 0 {
			w := queue[0]
			queue = queue[1:]
			if err := u.unit(s, w.unit, depth+1); err != nil {
				return err
			}
		}
		if depth >= u.o.Depth || runs%u.o.Every != 0 {
			continue
		}
		unit, ok := s.Split()
		if !ok {
			continue
		}
		if u.o.Delay == 0 {
			if err := u.unit(s, unit, depth+1); err != nil {
				return err
			}
			continue
		}
		queue = append(queue, waiting{unit, u.o.Delay})
	}
	for _, w := range queue {
		if err := u.unit(s, w.unit, depth+1); err != nil {
			return err
		}
	}
	return nil
}

// unit explores a unit owner split off, at nesting depth, joins its
// handback, and explores the units Join returns.
func (u *unitRunner) unit(owner strategy.Splitter, unit strategy.Unit, depth int) error {
	u.st.Units++
	w, err := owner.Resume(unit)
	if err != nil {
		return fmt.Errorf("resuming a unit: %w", err)
	}
	if err := u.explore(w, depth); err != nil {
		return err
	}
	if u.r.Executions >= u.o.Limit {
		return nil // the unit was not explored to its end: nothing to hand back
	}
	orphans, err := owner.Join(w.Handback())
	if err != nil {
		return fmt.Errorf("joining a unit's handback: %w", err)
	}
	for _, o := range orphans {
		u.st.Orphans++
		if err := u.unit(owner, o, depth); err != nil {
			return err
		}
	}
	return nil
}

// UnitCheck says what Units compares.
type UnitCheck struct {
	// Programs, From and MaxInterleavings choose the programs as in
	// Options (0: 100 programs, 2000 interleavings).
	Programs         int
	From             uint64
	MaxInterleavings int
	// Every, Depth: as in UnitOptions (0: split after every execution,
	// three levels deep).
	Every, Depth int
}

// Units checks that the strategies newStrategy returns explore generated
// programs divided into units (RunUnits) as they do undivided (Run):
//
//   - a unit explored and joined at once (UnitOptions.Delay 0) gives the
//     same executions: the same counts of executions, cut ones, every
//     maximal and failing trace, failure kind and final state;
//   - units explored while their splitter goes on (Delay 3) reach the
//     same maximal traces, failing traces, failure kinds and final states.
//
// It also fails t if no program was divided at all.
func Units(t testing.TB, newStrategy func() strategy.Splitter, c UnitCheck) {
	t.Helper()
	if c.Programs == 0 {
		c.Programs = 100
	}
	if c.MaxInterleavings == 0 {
		c.MaxInterleavings = 2000
	}
	checked, divided := 0, 0
	for seed := c.From; checked < c.Programs && seed < c.From+uint64(100*c.Programs); seed++ {
		p, ok := Generate(seed)
		if !ok || Interleavings(p) > c.MaxInterleavings {
			continue
		}
		checked++
		whole, err := Run(newStrategy(), p, 0)
		if err != nil {
			t.Errorf("seed %d: undivided: %v", seed, err)
			continue
		}
		for _, delay := range []int{0, 3} {
			got, st, err := RunUnits(newStrategy(), p, UnitOptions{Every: c.Every, Depth: c.Depth, Delay: delay})
			if err != nil {
				t.Errorf("seed %d, delay %d: %v", seed, delay, err)
				continue
			}
			if st.Units > 0 {
				divided++
			}
			if d := sameExploration(whole, got, delay == 0); d != "" {
				t.Errorf("seed %d, delay %d (%d units, %d orphans): divided, the exploration differs:\n\t%s\n%s", seed, delay, st.Units, st.Orphans, d, p)
			}
		}
	}
	if checked < c.Programs {
		t.Errorf("checked %d programs, want %d", checked, c.Programs)
	}
	if divided == 0 {
		t.Errorf("no exploration was divided: Split never handed out a unit")
	}
}

// sameExploration describes how got, a divided exploration, differs from
// want, the undivided one: in every count if exact, else in what they
// reach; "" if it does not.
func sameExploration(want, got *Result, exact bool) string {
	var errs []string
	fail := func(format string, args ...any) { errs = append(errs, fmt.Sprintf(format, args...)) }
	if !got.Exhausted {
		fail("the divided exploration did not end")
	}
	if exact {
		if got.Executions != want.Executions || got.Complete != want.Complete || got.Cut != want.Cut {
			fail("%d executions (%d complete, %d cut), want %d (%d, %d)", got.Executions, got.Complete, got.Cut, want.Executions, want.Complete, want.Cut)
		}
		if !maps.Equal(got.Traces, want.Traces) || !maps.Equal(got.Failing, want.Failing) || !maps.Equal(got.Failures, want.Failures) {
			fail("traces or failures explored a different number of times: %v %v, want %v %v", got.Failures, got.Traces, want.Failures, want.Traces)
		}
	}
	for _, d := range []struct {
		what     string
		got, ref string
	}{
		{"maximal traces", extra(want.Traces, got.Traces), extra(got.Traces, want.Traces)},
		{"failing traces", extra(want.Failing, got.Failing), extra(got.Failing, want.Failing)},
		{"final states", extra(want.Finals, got.Finals), extra(got.Finals, want.Finals)},
		{"failure kinds", extra(map[trace.FailureKind]int(want.Failures), got.Failures), extra(got.Failures, want.Failures)},
	} {
		if d.got != "" {
			fail("%s the undivided exploration does not reach: %s", d.what, d.got)
		}
		if d.ref != "" {
			fail("missed %s: %s", d.what, d.ref)
		}
	}
	return strings.Join(errs, "\n\t")
}
