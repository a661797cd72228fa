// The test of con2 on the random programs of internal/gen, which use
// every primitive with concrete values: whatever con2 reports, an
// execution of exhaustive search reports too.

package con2_test

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/weft-go/weft"
	"github.com/weft-go/weft/internal/gen"
	"github.com/weft-go/weft/internal/gen/genweft"
	"github.com/weft-go/weft/internal/long"
	"github.com/weft-go/weft/strategy"
	"github.com/weft-go/weft/strategy/con2"
	"github.com/weft-go/weft/strategy/exhaustive"
	"github.com/weft-go/weft/trace"
)

// findings gathers the failure kinds and final states of an exploration.
type findings struct {
	strategy.Strategy
	kinds  map[string]bool
	finals map[string]bool
}

func (r *findings) Unwrap() strategy.Strategy { return r.Strategy }

func (r *findings) Finish(tr *trace.Trace, end trace.End) {
	switch end.Status {
	case trace.Failed:
		r.kinds[end.Kind.String()] = true
	case trace.Complete:
		r.finals[finals(tr)] = true
	}
	r.Strategy.Finish(tr, end)
}

// finals describes the last value written to each variable of tr, by
// name.
func finals(tr *trace.Trace) string {
	last := map[string]uint64{}
	for _, e := range tr.Events {
		if e.Op.Class == trace.ClassVar && e.Op.Kind != trace.KindLoad && (e.Op.Kind != trace.KindCAS || e.OK) {
			last[tr.Objects[e.Op.Obj].Name] = e.Value
		}
	}
	var b strings.Builder
	for _, k := range slices.Sorted(maps.Keys(last)) {
		fmt.Fprintf(&b, "%s=%d ", k, last[k])
	}
	return b.String()
}

func exploreFindings(t *testing.T, body func(*weft.T), s strategy.Strategy, maxRuns int, opts ...weft.Option) (*findings, *weft.Result) {
	t.Helper()
	f := &findings{Strategy: s, kinds: map[string]bool{}, finals: map[string]bool{}}
	opts = append([]weft.Option{weft.WithCustomStrategy(f), weft.KeepGoing(), weft.NoReplayFiles(), weft.WithMaxRuns(maxRuns)}, opts...)
	r, err := weft.Explore(body, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return f, r
}

// TestGenerated runs con2 (k = 2) on programs of internal/gen under its
// default options (every primitive but time: channels, selects,
// reader/writer mutexes, try-locks, Len, Once, WaitGroups, threads
// started by threads), of gen.Timed (sleeps, the clock, timeouts) with
// time that moves when every thread is blocked and at any step, of
// gen.Sync (semaphores, condition variables, w.Await and loops of
// w.Yield), of gen.Loops (busy-wait and polling loops) in both time modes
// and of gen.MessagePassing: it accepts each, finishes, and
// every failure kind and final state it reaches, exhaustive search
// reaches. (con2 covers branch sides; these programs have none it sees,
// so it reaches a part of their states.) 30 programs of each; 200 with
// WEFT_LONG=1.
func TestGenerated(t *testing.T) {
	t.Parallel()
	n := 30
	if long.Enabled() {
		n = 200
	}
	anyStep := []weft.Option{weft.WithTime(weft.TimeAnyStep)}
	for _, o := range []struct {
		name string
		opts gen.Options
		run  []weft.Option
	}{{"default", gen.DefaultOptions, nil}, {"timed", gen.Timed, nil}, {"timed-any", gen.Timed, anyStep}, {"sync", gen.Sync, nil},
		{"loops", gen.Loops, nil}, {"loops-any", gen.Loops, anyStep}, {"messages", gen.Options{MaxEvents: 11, MessagePassing: true}, nil}} {
		t.Run(o.name, func(t *testing.T) {
			checked, diverged := 0, 0
			for seed := uint64(0); checked < n; seed++ {
				p := gen.NewWith(seed, o.opts)
				ref, r := exploreFindings(t, genweft.Body(p), exhaustive.New(), 5000, o.run...)
				if !r.Exhausted {
					continue
				}
				checked++
				s := newCon2(t, con2.Options{K: 2})
				got, r := exploreFindings(t, genweft.Body(p), s, 5000, o.run...)
				if !r.Exhausted {
					t.Errorf("seed %d: con2 did not finish in %d executions\n%v", seed, r.Executions, p)
				}
				for k := range got.kinds {
					if !ref.kinds[k] {
						t.Errorf("seed %d: con2 reports a %s exhaustive search does not\n%v", seed, k, p)
					}
				}
				for f := range got.finals {
					if !ref.finals[f] {
						t.Errorf("seed %d: con2 reaches final state %s, exhaustive search does not\n%v", seed, f, p)
					}
				}
				diverged += s.Stats().Diverged
			}
			t.Logf("%d programs; %d executions diverged from their scenarios", checked, diverged)
		})
	}
}
