// The differential test of unfold against exhaustive search on generated
// programs with tickers (genweft.NewTickers: readers of ticks, in a receive
// or a select; other threads that sleep and then stop or reset a ticker,
// some only if they load a value; a body that may sleep, stop or reset a
// ticker, close a channel and join a thread before it returns, often while
// a reader waits for a tick).

package unfold_test

import (
	"fmt"
	"testing"

	"github.com/weft-go/weft"
	"github.com/weft-go/weft/internal/gen/genweft"
	"github.com/weft-go/weft/strategy/unfold"
	"github.com/weft-go/weft/trace"
)

// TestGeneratedTickers runs againstExhaustive on genweft.NewTickers' programs, with
// the efficient, a random and the naive possible extensions: the same
// events, the same sets of blocked threads, the same failure kinds. 30
// programs in the default run, 1000 with WEFT_LONG=1, or
// WEFT_UNFOLD_TICKERS of them; the programs too big for exhaustive search
// (3000 executions) are skipped. It counts the programs where another
// thread stops or resets a ticker, those where some execution leaks (the
// body returned while a thread waits, for a tick or otherwise) or
// deadlocks (the body waits for a reader of a stopped ticker), and
// pins the totals of the default run.
func TestGeneratedTickers(t *testing.T) {
	t.Parallel()
	programs := sweepSize(30, 1000, "WEFT_UNFOLD_TICKERS")
	checked, big, events, tests, advances, bad := 0, 0, 0, 0, 0, 0
	stops, resets, leaks, deadlocks, fails := 0, 0, 0, 0, 0
	for seed := uint64(0); checked < programs; seed++ {
		p := genweft.NewTickers(seed)
		name := fmt.Sprintf("tickers seed %d", seed)
		r, err := weft.Explore(p.Body(), weft.WithStrategy("exhaustive"), weft.KeepGoing(), weft.NoReplayFiles(), weft.WithMaxRuns(3000))
		if err != nil {
			t.Fatalf("%s: exhaustive: %v\n%v", name, err, p)
		}
		if !r.Exhausted {
			big++
			continue
		}
		st, _, ok, same := againstExhaustiveKinds(t, name, p.Body(), unfold.Options{}, unfold.Options{Seed: int64(seed) + 1}, unfold.Options{Naive: true})
		if !ok {
			big++
			continue
		}
		checked++
		events += st.Events
		tests += st.Tests
		advances += st.AdvanceTests
		if !same {
			bad++
			t.Errorf("%s: failure kinds differ from exhaustive search's\n%v", name, p)
		}
		stop, reset := false, false
		for _, o := range p.Others {
			for _, s := range o {
				st, re := s.Changes()
				stop, reset = stop || st, reset || re
			}
		}
		stops += b2i(stop)
		resets += b2i(reset)
		leaks += b2i(r.FailureCounts[trace.Leak] > 0)
		deadlocks += b2i(r.FailureCounts[trace.Deadlock] > 0)
		fails += b2i(r.FailureCounts[trace.Assertion] > 0)
	}
	if got, want := [8]int{big, events, tests, stops, resets, leaks, deadlocks, fails}, [8]int{2, 866, 117, 11, 18, 13, 2, 14}; programs == 30 && got != want {
		t.Errorf("30 programs: too big, events, tests, with a Stop, with a Reset, that leak, that deadlock, that fail: %v, want %v", got, want)
	}
	t.Logf("%d programs (%d too big for exhaustive search): %d events, %d tests, %d advance tests; %d with another thread's Stop, %d with its Reset, %d that leak, %d that deadlock, %d that fail an assertion; %d with other failure kinds", checked, big, events, tests, advances, stops, resets, leaks, deadlocks, fails, bad)
}

// b2i returns 1 if b, else 0.
func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
