// Tests of unfold with virtual time that moves at any step (weft's
// TimeAnyStep): small programs with exact counts, and the differential
// test against exhaustive search on generated programs.

package unfold_test

import (
	"errors"
	"fmt"
	"maps"
	"strings"
	"testing"
	"time"

	"github.com/weft-go/weft"
	"github.com/weft-go/weft/internal/gen"
	"github.com/weft-go/weft/internal/gen/genweft"
	"github.com/weft-go/weft/strategy/unfold"
	"github.com/weft-go/weft/trace"
)

// anyTime is the option of time at any step.
var anyTime = weft.WithTime(weft.TimeAnyStep)

// exploreAny explores body with unfold of options o and time at any step.
func exploreAny(t *testing.T, body func(*weft.T), o unfold.Options) (*weft.Result, *unfold.Strategy) {
	t.Helper()
	s := unfold.New(o)
	r, err := weft.Explore(body, weft.WithCustomStrategy(s), weft.KeepGoing(), weft.NoReplayFiles(), anyTime)
	if err != nil {
		t.Fatal(err)
	}
	return r, s
}

// againstExhaustiveAny is againstExhaustiveKinds with time at any step:
// it compares the unfolding of every execution of exhaustive search with
// unfold's under each of opts (events, sets of blocked threads, failure
// kinds), and returns the first one's stats, the executions of
// exhaustive search that blocked, whether exhaustive search finished
// within maxRuns executions, and whether the failure kinds agree.
func againstExhaustiveAny(t *testing.T, name string, body func(*weft.T), maxRuns int, opts ...unfold.Options) (unfold.Stats, *weft.Result, bool, bool) {
	t.Helper()
	obs, sigs, stuck := unfold.NewObserverDeadlocks(true)
	ex, err := weft.Explore(body, weft.WithCustomStrategy(obs), weft.KeepGoing(), weft.NoReplayFiles(), weft.WithMaxRuns(maxRuns), anyTime)
	if err != nil {
		t.Fatal(err)
	}
	if !ex.Exhausted {
		return unfold.Stats{}, ex, false, false
	}
	exKinds, sameKinds := kinds(ex), true
	want, err := sigs()
	if err != nil {
		t.Fatalf("%s: observer: %v", name, err)
	}
	blocked := ex.FailureCounts[trace.Deadlock] + ex.FailureCounts[trace.Leak]
	var first unfold.Stats
	for i, o := range opts {
		r, s := exploreAny(t, body, o)
		got := unfold.AnonSignatures(s)
		if i == 0 {
			first = s.Stats()
		}
		found := r.FailureCounts[trace.Deadlock] + r.FailureCounts[trace.Leak]
		sameKinds = sameKinds && maps.Equal(kinds(r), exKinds)
		missed, ok := unfold.Covers(unfold.DeadlockSigs(s, true), stuck())
		if d := unfold.Diff(got, want, "unfold", "exhaustive"); d != "" || s.Err() != nil || !r.Exhausted || s.Stats().Unexpected != 0 || !ok || (blocked > 0) != (found > 0) {
			t.Errorf("%s %+v: %d events, want %d; err %v %v; blocked %d, unfold %d, missed %v\n%s", name, o, len(got), len(want), s.Err(), s.Diverged(), blocked, found, missed, d)
		}
	}
	return first, ex, true, sameKinds
}

// TestAnyTime pins small programs with time at any step against the
// unfolding of every execution of exhaustive search (the same events,
// sets of blocked threads and failure kinds, with the efficient, the
// naive, a random and a plain free part): the executions of exhaustive
// search, its leaks, and unfold's events and tests.
func TestAnyTime(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name                 string
		body                 func(*weft.T)
		execs, leaks         int
		events, tests, fails int
	}{
		// A sleep racing a write: the sleeper reads x after its wake-up,
		// which the clock's advance enables, before or after the store.
		{"sleep racing a write", func(w *weft.T) {
			x := weft.NewVar[int]("x")
			w.Go(func() { w.Sleep(time.Second); x.Load() })
			x.Store(1)
		}, 5, 0, 7, 2, 0},
		// A timer's Stop racing its firing: the receiver waits in a
		// select with a done channel.
		{"stop racing the firing", func(w *weft.T) {
			tm := weft.NewTimer(time.Second)
			done := weft.MakeChan[int](0)
			w.Go(func() { weft.Select(weft.OnRecv(tm.C, nil), weft.OnRecv(done, nil)) })
			tm.Stop()
			done.Close()
		}, 5, 0, 12, 3, 0},
		// A ticker read once while the body sleeps, then stops it.
		{"ticker", func(w *weft.T) {
			tk := weft.NewTicker(time.Second)
			w.Go(func() { tk.C.Recv() })
			w.Sleep(time.Second)
			tk.Stop()
		}, 208, 2, 181, 50, 0},
		// A read of the clock racing a sleeper's wake-up.
		{"now racing a sleep", func(w *weft.T) {
			w.Go(func() { w.Sleep(time.Second) })
			if w.Now() > 0 {
				w.Fail("late")
			}
		}, 4, 0, 11, 4, 2},
		// The built-in program timeout: the body waits for each of two
		// workers' answers in a select against time.After.
		{"timeout", body("timeout", map[string]int{"n": 2}), 729, 374, 26, 6, 0},
	} {
		st, ex, ok, same := againstExhaustiveAny(t, c.name, c.body, 3000, unfold.Options{}, unfold.Options{Naive: true}, unfold.Options{Seed: 3}, unfold.Options{Plain: true})
		if !ok || !same {
			t.Errorf("%s: exhaustive search finished %v, same failure kinds %v", c.name, ok, same)
			continue
		}
		got := [5]int{ex.Executions, ex.FailureCounts[trace.Leak], st.Events, st.Tests, ex.FailureCounts[trace.Assertion]}
		if want := [5]int{c.execs, c.leaks, c.events, c.tests, c.fails}; got != want {
			t.Errorf("%s: exhaustive executions, leaks, unfold events, tests, exhaustive failures %v, want %v", c.name, got, want)
		}
	}
}

// TestGeneratedAnyTime runs againstExhaustiveAny on generated programs
// on virtual time (gen.Timed's sleeps, reads of the clock and timeouts,
// and gen.Loops's tickers, loops of After and timers of period 0 or 1)
// with time at any step, with the efficient, a random and the naive
// possible extensions: the same events, the same sets of blocked
// threads, the same failure kinds. 30 programs of each in the default
// run, 1000 with WEFT_LONG=1, or WEFT_UNFOLD_ANYTIME of them; the
// programs too big for exhaustive search (3000 executions) are skipped.
func TestGeneratedAnyTime(t *testing.T) {
	t.Parallel()
	programs := sweepSize(30, 1000, "WEFT_UNFOLD_ANYTIME")
	kinds := maps.Clone(modelled)
	maps.Copy(kinds, timerKinds)
	timed := map[gen.Kind]bool{gen.Sleep: true, gen.Now: true, gen.Timeout: true, gen.TickLoop: true, gen.AfterLoop: true, gen.TinyTimer: true}
	for _, o := range []struct {
		name string
		opts gen.Options
		want [5]int // the default run's programs too big, events, tests, that block, that fail
	}{{"timed", gen.Timed, [5]int{5, 1414, 294, 7, 2}}, {"loops", gen.Loops, [5]int{2, 1273, 283, 16, 2}}} {
		checked, big, events, tests, blocked, failing, bad := 0, 0, 0, 0, 0, 0, 0
		for seed := uint64(0); checked < programs && seed < 1000000; seed++ {
			p := gen.NewWith(seed, o.opts)
			all := append([][]gen.Stmt{p.Main}, p.Threads...)
			use, ok := false, true
			for _, ss := range all {
				use = use || uses(ss, timed)
				ok = ok && only(ss, kinds, p.Chans)
			}
			if !use || !ok {
				continue
			}
			name := fmt.Sprintf("%s seed %d", o.name, seed)
			st, ex, ok, same := againstExhaustiveAny(t, name, genweft.Body(p), 3000, unfold.Options{}, unfold.Options{Seed: int64(seed) + 1}, unfold.Options{Naive: true})
			if !ok {
				big++
				continue
			}
			checked++
			events += st.Events
			tests += st.Tests
			blocked += b2i(ex.FailureCounts[trace.Deadlock]+ex.FailureCounts[trace.Leak] > 0)
			failing += b2i(ex.FailureCounts[trace.Assertion] > 0)
			if !same {
				bad++
				t.Errorf("%s: failure kinds differ from exhaustive search's\n%v", name, p)
			}
		}
		if got := [5]int{big, events, tests, blocked, failing}; programs == 30 && got != o.want {
			t.Errorf("%s, 30 programs: too big, events, tests, that block, that fail: %v, want %v", o.name, got, o.want)
		}
		t.Logf("%s: %d programs (%d too big for exhaustive search): %d events, %d tests, %d that block, %d that fail an assertion; %d with other failure kinds", o.name, checked, big, events, tests, blocked, failing, bad)
	}
}

// TestAnyTimeFairness: a reader of 7 ticks of a 1ns ticker beside a
// thread that stores once. weft's fair scheduling hides the clock once it
// has advanced 5 times past the storer while it could move, so exhaustive
// search runs 63 executions; the unfolding has the advances that rule
// forbids, and unfold stops, refusing the program (ErrUnmodelled), when a
// test's schedule needs one.
func TestAnyTimeFairness(t *testing.T) {
	body := func(w *weft.T) {
		x := weft.NewVar[int]("x")
		tk := weft.NewTicker(1)
		w.Go(func() { x.Store(1) })
		for range 7 {
			tk.C.Recv()
		}
		tk.Stop()
	}
	ex, err := weft.Explore(body, weft.WithStrategy("exhaustive"), weft.KeepGoing(), weft.NoReplayFiles(), anyTime)
	if err != nil || ex.Executions != 63 {
		t.Fatalf("exhaustive: %v, %d executions, want 63", err, ex.Executions)
	}
	_, err = weft.Explore(body, weft.WithCustomStrategy(unfold.New(unfold.Options{})), weft.KeepGoing(), weft.NoReplayFiles(), anyTime)
	if !errors.Is(err, unfold.ErrUnmodelled) || !strings.Contains(err.Error(), "fair scheduling") {
		t.Errorf("unfold: %v, want a refusal of fair scheduling's hidden clock", err)
	}
}
