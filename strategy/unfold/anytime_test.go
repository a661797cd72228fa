// Tests of unfold with virtual time that moves at any step (weft's
// TimeAnyStep): small programs with exact counts, and the differential
// test against exhaustive search on generated programs.

package unfold_test

import (
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

// TestAnyTimeDebug is a scratch test.
func TestAnyTimeDebug(t *testing.T) {
	body := func(w *weft.T) {
		c := weft.MakeChan[int](0)
		w.Go(func() { c.Send(1) })
		weft.Select(weft.OnRecv(c, nil), weft.OnRecv(w.After(time.Second), nil))
	}
	st, ex, ok, same := againstExhaustiveAny(t, "timeout 1", body, 3000, unfold.Options{}, unfold.Options{Naive: true})
	t.Logf("%+v executions %d ok %v same %v fails %v", st, ex.Executions, ok, same, ex.FailureCounts)
}
