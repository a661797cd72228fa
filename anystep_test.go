// This file tests virtual time that moves at any step (WithTime(
// TimeAnyStep)): a timeout that fires before a worker sends, exact counts
// per strategy, the complete strategies against exhaustive search, the
// strategies that refuse the mode, and replay.

package weft_test

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/weft-go/weft"
	"github.com/weft-go/weft/internal/gen"
	"github.com/weft-go/weft/internal/long"
	"github.com/weft-go/weft/strategy"
	"github.com/weft-go/weft/strategy/exhaustive"
	"github.com/weft-go/weft/trace"
)

// timeoutRace waits for a worker's send with a timeout: the timeout can
// fire first only if time may move while the worker can still send.
func timeoutRace(w *weft.T) {
	done := weft.MakeChan[int](1)
	w.Go(func() { done.Send(1) })
	weft.Select(weft.OnRecv(done, nil), weft.OnRecv(w.After(time.Second), func(time.Duration, bool) {
		w.Fail("timed out before the worker sent")
	}))
}

// timeoutRaceLine is the line of timeoutRace's Select, whose timer case
// fails.
const timeoutRaceLine = 28

func TestAnyStepTimeoutRace(t *testing.T) {
	for _, c := range []struct {
		mode                 weft.TimeMode
		strategy             string
		execs, complete, cut int
		fails                int
	}{
		// Time moves only when every thread is blocked: the worker sends
		// first, always.
		{weft.TimeWhenBlocked, "exhaustive", 1, 1, 0, 0},
		{weft.TimeWhenBlocked, "dpor+sleep", 1, 1, 0, 0},
		{weft.TimeWhenBlocked, "optimal", 3, 1, 2, 0},
		// At any step: the clock may advance before the worker's send.
		{weft.TimeAnyStep, "exhaustive", 9, 5, 0, 4},
		{weft.TimeAnyStep, "dpor+sleep", 4, 2, 0, 2},
		{weft.TimeAnyStep, "optimal", 4, 2, 0, 2},
		// reach: 9 SYN-sequences (the select joins the channel, the timer
		// and the clock into one object, whose orders are exhaustive
		// search's interleavings), and a failing run run again with its
		// failing call postponed.
		{weft.TimeAnyStep, "reach", 10, 5, 0, 5},
	} {
		r, err := weft.Explore(timeoutRace, weft.WithStrategy(c.strategy), weft.WithTime(c.mode), weft.KeepGoing())
		if err != nil {
			t.Fatalf("%v %s: %v", c.mode, c.strategy, err)
		}
		got := [4]int{r.Executions, r.Complete, r.Cut, r.FailureCounts[trace.Assertion]}
		if want := [4]int{c.execs, c.complete, c.cut, c.fails}; got != want || !r.Exhausted {
			t.Errorf("%v %s: executions, complete, cut, assertions %v, want %v (exhausted %t)", c.mode, c.strategy, got, want, r.Exhausted)
		}
		if c.fails == 0 {
			continue
		}
		f := r.Failures[0]
		last := f.Steps[len(f.Steps)-1]
		if f.Kind != trace.Assertion || !strings.HasSuffix(last.File, "anystep_test.go") || last.Line != timeoutRaceLine {
			t.Errorf("%v %s: failure %v at %s:%d, want an assertion at anystep_test.go:%d", c.mode, c.strategy, f.Kind, last.File, last.Line, timeoutRaceLine)
		}
		// The clock's step says where it moved time.
		if !slices.ContainsFunc(f.Steps, func(s weft.Step) bool { return s.Op == "advance to 1s" && f.ThreadLabel(s.Thread) == "T2" }) {
			t.Errorf("%v %s: no step \"T2 advance to 1s\" in:\n%s", c.mode, c.strategy, f.Report(""))
		}
		// The token carries the mode: a replay without WithTime
		// reproduces the failure.
		if !strings.HasPrefix(f.Token, "w1a.") {
			t.Errorf("%v %s: token %q: want the any-step prefix w1a.", c.mode, c.strategy, f.Token)
		}
		rr, err := weft.Replay(timeoutRace, f.Token)
		if err != nil || len(rr.Failures) != 1 || rr.Failures[0].Kind != trace.Assertion || rr.Failures[0].Message != f.Message {
			t.Errorf("%v %s: replay: %v, %v", c.mode, c.strategy, err, rr)
		}
	}
}

// blockedTimeOnly is a strategy that models time that moves only when
// every thread is blocked (strategy.BlockedTimeOnly): no built-in one does
// any more.
type blockedTimeOnly struct{ strategy.Strategy }

func (blockedTimeOnly) BlockedTimeOnly() {}

// TestAnyStepRefused checks that the driver refuses time at any step to a
// strategy that models time that moves only when every thread is blocked,
// with an error naming the mode and the way out.
func TestAnyStepRefused(t *testing.T) {
	_, err := weft.Explore(timeoutRace, weft.WithCustomStrategy(blockedTimeOnly{exhaustive.New()}), weft.WithTime(weft.TimeAnyStep))
	want := "strategy (custom) with time mode any: the strategy does not explore this time mode (it models time that moves only when every thread is blocked); use -time blocked (WithTime(TimeWhenBlocked)) or another strategy, such as optimal"
	if !errors.Is(err, weft.ErrTimeMode) || err.Error() != want {
		t.Errorf("error %v, want %q", err, want)
	}
}

// anyStepProgram is a program on virtual time and its counts with time
// at any step.
type anyStepProgram struct {
	name string
	body func(w *weft.T)
	// Exhaustive search's executions, traces (Foata forms of complete
	// executions, unobserved advances dropped) and final states, and
	// optimal's executions and cut executions.
	execs, traces, finals, optExecs, optCut int
	// unnamed says the program's variables have no name: a final state
	// names them by their key, which differs between executions where
	// different threads first touch a variable until the runtime merges
	// the keys, so the final states of two strategies are not compared.
	unnamed bool
}

// timerAnyStep holds the counts of timerPrograms (checktest.TimerPrograms)
// with time at any step, as anyStepProgram's.
var timerAnyStep = map[string][5]int{
	"sleep-race":     {366, 48, 2, 48, 0},
	"timeout-select": {20, 8, 1, 18, 0},
	"timer-stop":     {31, 4, 1, 6, 0},
	"sleep-mutex":    {372, 33, 2, 33, 0},
	"two-timers":     {443, 32, 3, 32, 0},
	"reset-race":     {24, 10, 1, 10, 0},
	"poll":           {18, 6, 6, 6, 0},
}

// anyStepPrograms are small programs on virtual time whose outcome
// depends on when the clock advances.
var anyStepPrograms = []anyStepProgram{
	{"timeout-race", func(w *weft.T) {
		x := weft.NewVar[int]("x")
		done := weft.MakeChan[int](1)
		w.Go(func() { x.Store(1); done.Send(1) })
		weft.Select(weft.OnRecv(done, func(int, bool) { x.Store(2) }), weft.OnRecv(w.After(5), func(time.Duration, bool) { x.Store(3) }))
	}, 27, 5, 3, 5, 0, false},
	{"sleepers-now", func(w *weft.T) {
		a, b := weft.NewVar[int]("a"), weft.NewVar[int]("b")
		w.Go(func() { w.Sleep(10); a.Store(int(w.Now())) })
		b.Store(int(w.Now()))
	}, 21, 3, 2, 3, 0, false},
	{"two-sleepers", func(w *weft.T) {
		a := weft.NewVar[int]("a")
		w.Go(func() { w.Sleep(10); a.Store(1) })
		w.Sleep(5)
		a.Store(2)
	}, 50, 20, 2, 20, 0, false},
	{"stop-reset", func(w *weft.T) {
		x := weft.NewVar[int]("x")
		tm := weft.NewTimer(10)
		w.Go(func() {
			if tm.Stop() {
				x.Store(1)
			}
			tm.Reset(3)
		})
		weft.Select(weft.OnRecv(tm.C, func(time.Duration, bool) { x.Store(x.Load() + 10) }), weft.OnDefault(nil))
		// Time may move to the stopped timer's deadline (10) between the
		// Stop and the Reset: 13 traces, as many final states.
	}, 32, 13, 3, 13, 0, false},
	{"sleep-vs-timer", func(w *weft.T) {
		x := weft.NewVar[int]("x")
		c := weft.MakeChan[int](0)
		w.Go(func() { w.Sleep(4); weft.Select(weft.OnSend(c, 1, nil), weft.OnDefault(nil)) })
		weft.Select(weft.OnRecv(c, func(int, bool) { x.Store(1) }), weft.OnRecv(w.After(4), func(time.Duration, bool) { x.Store(int(w.Now())) }))
	}, 86, 26, 3, 26, 0, false},
}

// TestAnyStepDifferential checks that the complete strategies find, in
// any-step mode, exactly the final states, failure kinds and maximal
// traces that exhaustive search finds, and optimal each complete trace
// once.
func TestAnyStepDifferential(t *testing.T) {
	progs := anyStepPrograms
	for _, c := range timerPrograms {
		n := timerAnyStep[c.Name]
		progs = append(progs, anyStepProgram{c.Name, c.Body, n[0], n[1], n[2], n[3], n[4], true})
	}
	for _, p := range progs {
		ref, err := exploreWith(p.body, weft.StrategyByName("exhaustive", 0), "exhaustive", maxRefRuns, weft.WithTime(weft.TimeAnyStep))
		if err != nil || !ref.Finished() {
			t.Fatalf("%s: exhaustive: %v (exhausted %t)", p.name, err, ref != nil && ref.Finished())
		}
		for _, name := range completeStrategies() {
			got, err := exploreWith(p.body, weft.StrategyByName(name, 0), name, 10*maxRefRuns, weft.WithTime(weft.TimeAnyStep))
			if err != nil {
				t.Fatalf("%s: %s: %v", p.name, name, err)
			}
			if !got.Finished() {
				t.Errorf("%s: %s did not finish in %d executions", p.name, name, got.Executions)
			}
			if d := diffSets(ref.Finals, got.Finals); d != "" && !p.unnamed {
				t.Errorf("%s: %s: final states differ from exhaustive's: %s", p.name, name, d)
			}
			if d := diffSets(ref.Kinds, got.Kinds); d != "" {
				t.Errorf("%s: %s: failure kinds differ from exhaustive's: %s", p.name, name, d)
			}
			if d := diffSets(ref.Maximal, got.Maximal); d != "" {
				t.Errorf("%s: %s: maximal traces differ from exhaustive's: %s", p.name, name, d)
			}
			if name != "optimal" {
				continue
			}
			// Time is modelled exactly (every move of it is an event):
			// one execution per trace, none cut.
			if got.Cut != 0 || got.Complete != len(ref.Forms) {
				t.Errorf("%s: optimal: %d complete executions, %d cut; want %d (exhaustive's traces), 0", p.name, got.Complete, got.Cut, len(ref.Forms))
			}
			if d := diffSets(keysOf(ref.Forms), keysOf(got.Forms)); d != "" {
				t.Errorf("%s: optimal: traces differ from exhaustive's: %s", p.name, d)
			}
			if d := diffSets(keysOf(ref.FailForms), keysOf(got.FailForms)); d != "" {
				t.Errorf("%s: optimal: failing traces differ from exhaustive's: %s", p.name, d)
			}
			for _, forms := range []map[string]int{got.Forms, got.FailForms} {
				for f, n := range forms {
					if n > 1 {
						t.Errorf("%s: optimal explored one trace %d times: %s", p.name, n, f)
					}
				}
			}
			if g, w := [5]int{ref.Executions, len(ref.Forms), len(ref.Finals), got.Executions, got.Cut}, [5]int{p.execs, p.traces, p.finals, p.optExecs, p.optCut}; g != w {
				t.Errorf("%s: exhaustive's executions, traces, finals and optimal's executions, cut %v, want %v", p.name, g, w)
			}
		}
	}
}

// TestAnyStepWorkers explores the timeout race with time at any step on
// two workers: the mode reaches every worker's runtime, and optimal's
// units together run each trace once.
func TestAnyStepWorkers(t *testing.T) {
	r, err := weft.Explore(timeoutRace, weft.WithStrategy("optimal"), weft.WithTime(weft.TimeAnyStep), weft.KeepGoing(), weft.WithWorkers(2), weft.WithParallelBatch(1))
	if err != nil {
		t.Fatal(err)
	}
	if got := [4]int{r.Executions, r.Complete, r.Cut, r.FailureCounts[trace.Assertion]}; got != [4]int{4, 2, 0, 2} || !r.Exhausted || r.NotParallel != "" {
		t.Errorf("executions, complete, cut, assertions %v, want [4 2 0 2] (exhausted %t, not parallel %q)", got, r.Exhausted, r.NotParallel)
	}
}

// TestAnyStepDifferentialGen checks the complete strategies against
// exhaustive search, with time at any step, on random programs with
// sleeps, reads of the clock and timeouts (gen.Timed; 50, 200 with
// WEFT_LONG=1): the same final states, failure kinds and maximal traces, and
// optimal each trace once, none cut. A program too large for exhaustive
// search is replaced by the next seed.
func TestAnyStepDifferentialGen(t *testing.T) {
	t.Parallel()
	n := 200
	if !long.Enabled() {
		n = 50
	}
	last, skipped := checkPrograms(t, n, 0, n/5, func(seed uint64) bool {
		return checkProgram(t, gen.NewWith(seed, gen.Timed), weft.WithTime(weft.TimeAnyStep))
	})
	t.Logf("%d timed programs (seeds 0-%d, %d too large) checked", n, last, skipped)
}
