// This file checks that Optimal-DPOR explores exactly one execution per
// Mazurkiewicz trace of the benchmark programs,
// none cut by a sleep set, and measures its speed.

package optimal_test

import (
	"fmt"
	"testing"

	"github.com/weft-go/weft"
	"github.com/weft-go/weft/internal/checktest"
	"github.com/weft-go/weft/internal/long"
	"github.com/weft-go/weft/programs"
	"github.com/weft-go/weft/strategy/optimal"
)

// exploreOptimal explores a built-in program with Optimal-DPOR, with no
// bound on the number of executions.
func exploreOptimal(tb testing.TB, program string, params map[string]int) (*weft.Result, optimal.Stats) {
	tb.Helper()
	p := programs.Lookup(program)
	if p == nil {
		tb.Fatalf("no program %q", program)
	}
	s := optimal.New()
	if _, ok := tb.(*testing.T); ok {
		s.SetVerify(true) // tests check the work kept across executions; benchmarks do not
	}
	r, err := weft.Explore(p.MustBody(params), weft.WithCustomStrategy(s), weft.KeepGoing(), weft.WithMaxRuns(0))
	if err != nil {
		tb.Fatal(err)
	}
	return r, s.Stats()
}

// TestOptimalCounts checks the exact counts: every execution complete, one
// per trace, none cut, and no anomaly of the strategy's model.
func TestOptimalCounts(t *testing.T) {
	for _, c := range checktest.TraceCounts {
		if c.Long && !long.Enabled() {
			continue
		}
		r, st := exploreOptimal(t, c.Program, c.Params)
		if !r.Exhausted || r.Executions != c.Traces || r.Complete != c.Traces || r.Cut != 0 || len(r.Failures) != 0 {
			t.Errorf("%s %v: %d executions (%d complete, %d cut, %d failure kinds, exhausted %v), want %d complete",
				c.Program, c.Params, r.Executions, r.Complete, r.Cut, len(r.Failures), r.Exhausted, c.Traces)
		}
		if st.SleepBlocked != 0 || st.Infeasible != 0 || st.Unmodelled != 0 {
			t.Errorf("%s %v: strategy anomalies %+v", c.Program, c.Params, st)
		}
	}
}

// TestOptimalReadLoopCandidates checks the work of the race analysis on
// readloop m (T1 loads x m times, T2 stores it once): each of the m+1
// traces, with the store after k loads, is analysed whole. A load after the
// store has one candidate, the store (the loads before are no candidates
// of a load); the store has one if k > 0, T1's last load before it, which
// happens after every other (the scan of every access had k). In all:
// the sum over k of (m - k) + [k > 0], m(m+1)/2 + m.
func TestOptimalReadLoopCandidates(t *testing.T) {
	for _, m := range []int{1, 10, 300} {
		r, st := exploreOptimal(t, "readloop", map[string]int{"m": m})
		if want := m*(m+1)/2 + m; r.Complete != m+1 || st.Candidates != want {
			t.Errorf("m = %d: %d traces, %d candidates; want %d, %d", m, r.Complete, st.Candidates, m+1, want)
		}
	}
}

// TestOptimalDistinct checks on small programs that the executions are
// distinct traces (Foata normal forms) and as many as exhaustive search
// finds.
func TestOptimalDistinct(t *testing.T) {
	for _, c := range []struct {
		program string
		params  map[string]int
	}{
		{"xy", nil},
		{"dporproblem", nil},
		{"pairs", map[string]int{"n": 3}},
		{"fib", map[string]int{"n": 1}},
		{"indexer", map[string]int{"n": 12}},
	} {
		body := programs.Lookup(c.program).MustBody(c.params)
		opt, err := checktest.ExploreRecorded(body, "optimal", 0)
		if err != nil {
			t.Fatal(err)
		}
		for f, n := range opt.Forms {
			if n != 1 {
				t.Errorf("%s %v: trace explored %d times: %s", c.program, c.params, n, f)
			}
		}
		if c.program == "indexer" {
			continue // exhaustive search is too long
		}
		ex, err := checktest.ExploreRecorded(body, "exhaustive", 0)
		if err != nil {
			t.Fatal(err)
		}
		if d := checktest.DiffSets(checktest.KeysOf(ex.Forms), checktest.KeysOf(opt.Forms)); d != "" {
			t.Errorf("%s %v: traces differ from exhaustive search's: %s", c.program, c.params, d)
		}
	}
}

// TestOptimalFindsFailures checks that the failures of small programs are
// found: a deadlock of two locks taken in opposite orders, an assertion that
// needs one interleaving.
func TestOptimalFindsFailures(t *testing.T) {
	deadlock := func(w *weft.T) {
		var a, b weft.Mutex
		th := w.Go(func() { b.Lock(); a.Lock(); a.Unlock(); b.Unlock() })
		a.Lock()
		b.Lock()
		b.Unlock()
		a.Unlock()
		th.Join()
	}
	assertion := func(w *weft.T) {
		var x weft.Int[int]
		th := w.Go(func() { x.Add(1); x.Add(1) })
		v := x.Load()
		th.Join()
		w.Assert(v != 1, "read the middle value")
	}
	for name, c := range map[string]struct {
		body   func(*weft.T)
		kind   string
		traces int
	}{
		"deadlock":  {deadlock, "deadlock", 3},
		"assertion": {assertion, "assertion", 3},
	} {
		r, err := weft.Explore(c.body, weft.WithStrategy("optimal"), weft.KeepGoing())
		if err != nil {
			t.Fatal(err)
		}
		if len(r.Failures) != 1 || r.Failures[0].Kind.String() != c.kind || r.Executions != c.traces || r.Cut != 0 {
			t.Errorf("%s: %d executions, %d cut, failures %v; want %d executions and a %s", name, r.Executions, r.Cut, r.FailureCounts, c.traces, c.kind)
		}
	}
}

// benchOptimal explores a program with Optimal-DPOR b.N times and reports
// traces per second.
func benchOptimal(b *testing.B, program string, params map[string]int, traces int) {
	b.ReportAllocs()
	total := 0
	for b.Loop() {
		r, _ := exploreOptimal(b, program, params)
		if r.Complete != traces || r.Cut != 0 {
			b.Fatalf("%d complete, %d cut, want %d", r.Complete, r.Cut, traces)
		}
		total += r.Executions
	}
	b.ReportMetric(float64(total)/b.Elapsed().Seconds(), "traces/s")
}

func BenchmarkOptimalFib4(b *testing.B) { benchOptimal(b, "fib", map[string]int{"n": 4}, 19605) }
func BenchmarkOptimalFib5(b *testing.B) { benchOptimal(b, "fib", map[string]int{"n": 5}, 218243) }
func BenchmarkOptimalIndexer15(b *testing.B) {
	benchOptimal(b, "indexer", map[string]int{"n": 15}, 4096)
}
func BenchmarkOptimalPairs12(b *testing.B) { benchOptimal(b, "pairs", map[string]int{"n": 12}, 4096) }
func BenchmarkOptimalFilesystem20(b *testing.B) {
	benchOptimal(b, "filesystem", map[string]int{"n": 20}, 128)
}

// BenchmarkOptimalReadLoop measures the cost of one event of a long
// execution: readloop, where T1 loads x m times and T2 stores it
// once, each execution m+1 steps long. It runs about 1,000,000 events per
// iteration (every execution for m = 400, the first few for larger m) and
// reports the time per event, which a race analysis of near-linear cost
// per execution keeps flat as m grows.
func BenchmarkOptimalReadLoop(b *testing.B) {
	for _, m := range []int{400, 1600, 6400, 50000} {
		b.Run(fmt.Sprintf("m=%d", m), func(b *testing.B) {
			body := programs.Lookup("readloop").MustBody(map[string]int{"m": m})
			runs := min(m+1, max(2, 1_000_000/(m+1)))
			var events int64
			for b.Loop() {
				r, err := weft.Explore(body, weft.WithStrategy("optimal"), weft.KeepGoing(), weft.WithMaxRuns(runs))
				if err != nil {
					b.Fatal(err)
				}
				if r.Complete != runs || r.Cut != 0 || r.Events != int64(runs)*int64(m+1) {
					b.Fatalf("%d complete, %d cut, %d events; want %d complete, %d events", r.Complete, r.Cut, r.Events, runs, runs*(m+1))
				}
				events += r.Events
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(events), "ns/event")
		})
	}
}
