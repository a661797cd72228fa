// Tests of unfold with virtual time that moves at any step (weft's
// TimeAnyStep): small programs with exact counts, and the differential
// test against exhaustive search on generated programs.

package unfold_test

import (
	"fmt"
	"maps"
	"testing"
	"time"

	"github.com/weft-go/weft"
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

// TestAnyTimeDebug is a scratch test.
func TestAnyTimeDebug(t *testing.T) {
	b := body("timeout", map[string]int{"n": 2})
	for _, o := range []unfold.Options{{}, {Seed: 1}} {
		_, s := exploreAny(t, b, o)
		u := s.Unfolding()
		for i, e := range u.Events {
			var pre []string
			for _, c := range e.Pre {
				pre = append(pre, fmt.Sprintf("%d:%s", c, u.Conditions[c].Place))
			}
			t.Logf("%d %+v %v", i, e.Op, pre)
		}
		t.Log("----")
	}
}
