// This file checks, with package strategytest's runner, that replaying the
// record of any execution of a generated program runs that execution
// again.

package replay_test

import (
	"testing"

	"github.com/weft-go/weft/strategy/exhaustive"
	"github.com/weft-go/weft/strategy/replay"
	"github.com/weft-go/weft/strategy/strategytest"
)

// TestReplayConformance explores 100 generated programs exhaustively and
// replays the token of every execution: one execution, without
// divergence, with the schedule and the end (complete, or the kind of
// failure) of the recorded one.
func TestReplayConformance(t *testing.T) {
	const programs, limit = 100, 500
	checked, replayed := 0, 0
	seed := uint64(0)
	for ; checked < programs && seed < 100*programs; seed++ {
		p, ok := strategytest.Generate(seed)
		if !ok {
			continue
		}
		rec := &strategytest.Recorder{Strategy: exhaustive.New()}
		ref, err := strategytest.Run(rec, p, limit)
		if err != nil {
			t.Fatal(err)
		}
		if !ref.Exhausted {
			continue // too large
		}
		checked++
		for i, tok := range rec.Tokens {
			r, err := replay.Decode(tok)
			if err != nil {
				t.Fatalf("gen program %d, execution %d: %v", seed, i+1, err)
			}
			s := replay.New(r)
			got, err := strategytest.Run(s, p, 2)
			if err != nil || s.Diverged() != nil || !got.Exhausted || got.Executions != 1 || got.Schedules[0] != ref.Schedules[i] {
				t.Errorf("gen program %d, execution %d (%s): replay ran %v (exhausted %v), diverged %v, error %v\n%s",
					seed, i+1, ref.Schedules[i], got.Schedules, got.Exhausted, s.Diverged(), err, p)
			}
			replayed++
		}
	}
	if checked < programs {
		t.Errorf("only %d of the %d programs asked for were checked (seeds 0-%d)", checked, programs, seed-1)
	}
	t.Logf("%d executions of %d programs replayed", replayed, checked)
}
