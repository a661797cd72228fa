// This file checks package strategytest's synthetic runner against weft's
// runtime: on the gen programs it models, both give the same executions,
// event by event.

package weft_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/weft-go/weft"
	"github.com/weft-go/weft/internal/gen/genweft"
	"github.com/weft-go/weft/internal/long"
	"github.com/weft-go/weft/strategy"
	"github.com/weft-go/weft/strategy/exhaustive"
	"github.com/weft-go/weft/strategy/strategytest"
	"github.com/weft-go/weft/trace"
)

// traceLog wraps a strategy and describes every execution it finishes:
// its events, threads, objects (but their keys, which the runtime draws
// its own way), the enabled sets, the final pending operations and the end
// (but the message).
type traceLog struct {
	strategy.Strategy
	execs []string
}

func (l *traceLog) Finish(tr *trace.Trace, end trace.End) {
	var b strings.Builder
	for i, e := range tr.Events {
		fmt.Fprintf(&b, "%d: %+v enabled", i, e)
		for p := range tr.Threads {
			if tr.EnabledAt(i, trace.ThreadID(p)) {
				fmt.Fprintf(&b, " %d", p)
			}
		}
		b.WriteByte('\n')
	}
	fmt.Fprintf(&b, "threads %+v\n", tr.Threads)
	for i, o := range tr.Objects {
		fmt.Fprintf(&b, "object %d: %v %v %q\n", i, o.Class, o.Creator, o.Name)
	}
	fmt.Fprintf(&b, "final %+v\nend %v %v %v\n", tr.Final, end.Status, end.Kind, end.Thread)
	l.execs = append(l.execs, b.String())
	l.Strategy.Finish(tr, end)
}

// TestSyntheticRunner runs exhaustive search on gen programs that the
// synthetic runner models, in the runtime and in the runner, and checks
// that every execution is the same in both. Objects live across
// executions in both (the runner's always do). It checks 25 programs (100
// with WEFT_LONG=1).
func TestSyntheticRunner(t *testing.T) {
	const limit = 2000
	programs := 25
	if long.Enabled() {
		programs = 100
	}
	checked, seed := 0, uint64(0)
	for ; checked < programs && seed < 20*uint64(programs); seed++ {
		p, ok := strategytest.Generate(seed)
		if !ok {
			continue
		}
		p.Local = false
		rt := &traceLog{Strategy: exhaustive.New()}
		r, err := weft.Explore(genweft.Body(p), weft.WithCustomStrategy(rt), weft.KeepGoing(), weft.WithMaxRuns(limit), weft.NoReplayFiles())
		if err != nil {
			t.Fatal(err)
		}
		if !r.Exhausted {
			continue // too large
		}
		checked++
		syn := &traceLog{Strategy: exhaustive.New()}
		sr, err := strategytest.Run(syn, p, limit)
		if err != nil {
			t.Fatalf("gen program %d: %v", seed, err)
		}
		if !sr.Exhausted || len(syn.execs) != len(rt.execs) {
			t.Errorf("gen program %d: the runner ran %d executions (exhausted %v), the runtime %d\n%s", seed, len(syn.execs), sr.Exhausted, len(rt.execs), p)
			continue
		}
		for i := range rt.execs {
			if syn.execs[i] != rt.execs[i] {
				t.Errorf("gen program %d, execution %d: the runner's\n%s\nthe runtime's\n%s\n%s", seed, i+1, syn.execs[i], rt.execs[i], p)
				break
			}
		}
	}
	if checked < programs {
		t.Errorf("only %d programs checked (seeds 0-%d)", checked, seed-1)
	}
	t.Logf("%d gen programs (seeds 0-%d) checked", checked, seed-1)
}
