// This file tests parallel exploration (WithWorkers): the same program
// explored on one worker and on several reaches the same traces, failures
// and final states; bounds, cancellation and refusals hold.

package weft_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/weft-go/weft"
	"github.com/weft-go/weft/internal/checktest"
	"github.com/weft-go/weft/internal/gen"
	"github.com/weft-go/weft/internal/gen/genweft"
	"github.com/weft-go/weft/internal/long"
	"github.com/weft-go/weft/programs"
	"github.com/weft-go/weft/solver"
	"github.com/weft-go/weft/trace"
)

// exploreWorkers explores body with strategy name on n workers, keeping
// going after failures, and records every execution.
func exploreWorkers(body func(*weft.T), name string, n, maxRuns, batch int) (*checktest.Outcome, *weft.Result, error) {
	o := checktest.NewOutcome(name)
	r, err := weft.Explore(body, weft.WithStrategy(name), weft.KeepGoing(), weft.WithMaxRuns(maxRuns),
		weft.WithWorkers(n), weft.WithObserver(o.Add), weft.WithParallelBatch(batch))
	if err != nil {
		return nil, nil, err
	}
	o.Executions, o.Complete, o.Cut, o.Exhausted = r.Executions, r.Complete, r.Cut, r.Exhausted
	return o, r, nil
}

// compareWorkers explores body with strategy name on one worker and on
// two, and returns what differs: the maximal traces, the failures, the
// failure kinds, the final states (as the Result counts them and as the
// traces show them) and, for optimal, the number of distinct complete
// traces, which must be one worker's number of executions, and the
// executions, which must be one worker's exactly (diffExactly). It
// reports false if the program is too large for maxRuns.
func compareWorkers(body func(*weft.T), name string, maxRuns, batch int) (string, bool, error) {
	one, r1, err := exploreWorkers(body, name, 1, maxRuns, 0)
	if err != nil {
		return "", false, err
	}
	if !one.Finished() {
		return "", false, nil
	}
	two, r2, err := exploreWorkers(body, name, 2, 0, batch)
	if err != nil {
		return "", true, err
	}
	var b strings.Builder
	if !two.Finished() {
		fmt.Fprintf(&b, "two workers did not finish\n")
	}
	b.WriteString(diffDivided(one, two, r1, r2))
	if name == "optimal" {
		b.WriteString(diffExactly(one, two)) // its units take letters (strategy.Mailer)
	}
	if len(r2.Workers) != 2 || r1.Workers != nil {
		fmt.Fprintf(&b, "Workers %v with two workers, %v with one\n", r2.Workers, r1.Workers)
	}
	return b.String(), true, nil
}

// workerStrategies are the strategies the parallel tests run: those that
// divide their work (without the concolic ones, which need cgo).
var workerStrategies = []string{"optimal", "dpor", "dpor+sleep", "dpor-cr+sleep", "dpor-clock+sleep", "dpor-1", "dpor-2", "flip", "flip+sleep"}

// TestWorkersPrograms explores built-in programs on one worker and on two
// with every strategy that divides its work: the same traces, failures and
// final states; optimal's distinct complete traces are exactly one
// worker's executions (the numbers of the programs' own tests: fib 2 140,
// fib 3 1698). fib, whose explorations take seconds, runs by default only
// with n=2 under one strategy of each family (optimal, dpor-cr+sleep,
// flip+sleep); WEFT_LONG=1 runs both under every strategy.
func TestWorkersPrograms(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		prog   string
		params map[string]int
		slow   bool
	}{
		{"xy", nil, false},
		{"dporproblem", nil, false},
		{"fib", map[string]int{"n": 2}, true},
		{"fib", map[string]int{"n": 3}, true},
		{"pairs", map[string]int{"n": 4}, false},
		{"bbchan", map[string]int{"producers": 2, "consumers": 2, "capacity": 1}, false},
		{"readloop", map[string]int{"m": 20}, false},
		{"dining", map[string]int{"n": 3}, false},
		{"parallelpi", map[string]int{"threads": 3, "locked": 0}, false},
	} {
		strategies := workerStrategies
		if c.slow && !long.Enabled() {
			if c.params["n"] > 2 {
				continue
			}
			strategies = []string{"optimal", "dpor-cr+sleep", "flip+sleep"}
		}
		p := programs.Lookup(c.prog)
		if p == nil {
			t.Fatalf("no program %q", c.prog)
		}
		body := p.MustBody(c.params)
		for _, name := range strategies {
			msg, ok, err := compareWorkers(body, name, 20000, 4)
			if err != nil {
				t.Fatalf("%s %v, %s: %v", c.prog, c.params, name, err)
			}
			if !ok {
				if name == "optimal" {
					t.Fatalf("%s %v, %s: too large for one worker's 20000 executions", c.prog, c.params, name)
				}
				continue // the DPOR without sleep sets explores too many
			}
			if msg != "" {
				t.Errorf("%s %v, %s:\n%s", c.prog, c.params, name, msg)
			}
		}
	}
}

// TestWorkersRandomPrograms compares one worker with two on generated
// programs (channels, selects, mutexes, WaitGroups, variables),
// 10 of them (40 with WEFT_LONG=1).
func TestWorkersRandomPrograms(t *testing.T) {
	n := 10
	if long.Enabled() {
		n = 40
	}
	checked := 0
	for seed := uint64(0); checked < n; seed++ {
		g := gen.New(seed)
		g.Local = true // objects made in the body: parallel executions share none
		body := genweft.Body(g)
		large := false
		for _, name := range []string{"optimal", "dpor-cr+sleep", "flip+sleep"} {
			msg, ok, err := compareWorkers(body, name, 3000, 1)
			if err != nil {
				t.Fatalf("seed %d, %s: %v", seed, name, err)
			}
			if !ok {
				large = true
				break
			}
			if msg != "" {
				t.Errorf("seed %d, %s:\n%s", seed, name, msg)
			}
		}
		if !large {
			checked++
		}
	}
}

// TestWorkersZeroValues explores on two workers, a unit of work at each
// batch, a body whose objects are zero values made in it (zeroValues):
// their keys come from the names their first touchers give them, which
// both workers' runtimes bind in the naming tables they share. The same
// traces and final states as on one worker, and exactly its 21 traces
// and 3 final states (the race on the tables themselves is
// TestFreshKeysShared's, in package engine).
func TestWorkersZeroValues(t *testing.T) {
	for _, name := range []string{"optimal", "dpor-cr+sleep"} {
		d, ok, err := compareWorkers(zeroValues, name, 0, 1)
		if err != nil || !ok {
			t.Fatalf("%s: finished %t, %v", name, ok, err)
		}
		if d != "" {
			t.Errorf("%s: one worker and two differ:\n%s", name, d)
		}
		two, r, err := exploreWorkers(zeroValues, name, 2, 0, 1)
		if err != nil {
			t.Fatal(err)
		}
		if got := [3]int{len(two.Forms), len(two.Finals), r.FinalStates}; got != [3]int{21, 3, 3} {
			t.Errorf("%s on two workers: traces, final states seen, final states counted %v, want [21 3 3]", name, got)
		}
	}
}

// TestWorkersMaxRuns: the bound on executions holds over every worker.
func TestWorkersMaxRuns(t *testing.T) {
	body := programs.Lookup("fib").MustBody(map[string]int{"n": 4})
	r, err := weft.Explore(body, weft.WithStrategy("optimal"), weft.WithMaxRuns(500), weft.WithWorkers(2))
	if err != nil {
		t.Fatal(err)
	}
	if r.Executions != 500 || r.Exhausted {
		t.Errorf("executions %d, exhausted %v; want 500, false", r.Executions, r.Exhausted)
	}
	if got := r.Workers[0].Executions + r.Workers[1].Executions; got != 500 {
		t.Errorf("the workers ran %d executions, want 500", got)
	}
}

// TestWorkersStopAtFailure: without KeepGoing, a parallel exploration stops
// at the first failure, reported once with its replay token.
func TestWorkersStopAtFailure(t *testing.T) {
	body := programs.Lookup("dining").MustBody(map[string]int{"n": 4})
	r, err := weft.Explore(body, weft.WithStrategy("optimal"), weft.WithWorkers(2))
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Failures) != 1 || r.Failures[0].Kind != trace.Deadlock || r.Exhausted {
		t.Fatalf("failures %v, exhausted %v; want one deadlock, not exhausted", r.Failures, r.Exhausted)
	}
	rr, err := weft.Replay(body, r.Failures[0].Token)
	if err != nil {
		t.Fatal(err)
	}
	if len(rr.Failures) != 1 || rr.Failures[0].Kind != trace.Deadlock {
		t.Errorf("the replay found %v, want the deadlock", rr.Failures)
	}
}

// TestWorkersCanceled: canceling the context stops every worker.
func TestWorkersCanceled(t *testing.T) {
	body := programs.Lookup("fib").MustBody(map[string]int{"n": 5})
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	start := time.Now()
	r, err := weft.Explore(body, weft.WithStrategy("optimal"), weft.WithMaxRuns(0), weft.WithWorkers(2), weft.WithContext(ctx))
	if err != nil {
		t.Fatal(err)
	}
	if !r.Canceled || r.Exhausted {
		t.Errorf("canceled %v, exhausted %v; want true, false", r.Canceled, r.Exhausted)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("the exploration took %v after its context was canceled at 50ms", d)
	}
}

// TestWorkersNotParallel: a strategy that does not divide its work, or a
// custom one, runs on one worker and says why.
func TestWorkersNotParallel(t *testing.T) {
	body := programs.Lookup("xy").MustBody(nil)
	r, err := weft.Explore(body, weft.WithStrategy("random"), weft.WithMaxRuns(10), weft.WithWorkers(2))
	if err != nil {
		t.Fatal(err)
	}
	if r.Workers != nil || !strings.Contains(r.NotParallel, "strategy random does not divide its work") {
		t.Errorf("Workers %v, NotParallel %q", r.Workers, r.NotParallel)
	}
	r, err = weft.Explore(body, weft.WithCustomStrategy(weft.StrategyByName("optimal", 0)), weft.WithWorkers(2))
	if err != nil {
		t.Fatal(err)
	}
	if r.Workers != nil || !strings.Contains(r.NotParallel, "custom strategy") || r.Complete != 3 {
		t.Errorf("Workers %v, NotParallel %q, complete %d (want 3)", r.Workers, r.NotParallel, r.Complete)
	}
}

// TestWorkersSharedObject: a body whose first execution uses an object
// made outside it is explored on one worker, which Result.NotParallel says,
// with the one worker's counts: no unit goes out after an execution that
// touched it.
func TestWorkersSharedObject(t *testing.T) {
	x := weft.NewVar[int]("x")
	body := func(w *weft.T) {
		w.Go(func() { x.Store(1) })
		w.Go(func() { _ = x.Load() })
	}
	for _, workers := range []int{1, 2} {
		r, err := weft.Explore(body, weft.WithStrategy("optimal"), weft.WithWorkers(workers), weft.WithParallelBatch(1))
		if err != nil || r.Complete != 2 || !r.Exhausted {
			t.Fatalf("on %d workers: %v, complete %d, exhausted %v; want 2, true", workers, err, r.Complete, r.Exhausted)
		}
		if workers == 1 {
			continue
		}
		if r.Workers != nil {
			t.Errorf("on 2 workers: Result.Workers %v, want nil", r.Workers)
		}
		if !strings.Contains(r.NotParallel, "var x, made outside the test body") {
			t.Errorf("on 2 workers: NotParallel %q does not name var x", r.NotParallel)
		}
	}
}

// TestWorkersRace runs a small parallel exploration; .ci/run runs it under
// the race detector.
func TestWorkersRace(t *testing.T) {
	body := programs.Lookup("fib").MustBody(map[string]int{"n": 2})
	for _, name := range []string{"optimal", "dpor-cr+sleep"} {
		r, err := weft.Explore(body, weft.WithStrategy(name), weft.WithWorkers(2), weft.WithMaxRuns(0))
		if err != nil {
			t.Fatal(err)
		}
		if !r.Exhausted || r.FinalStates != 16 {
			t.Errorf("%s: exhausted %v, %d final states; want true, 16", name, r.Exhausted, r.FinalStates)
		}
	}
}

// TestWorkersConcolic explores the built-in programs with inputs with the
// concolic strategies on one worker and on two (splitting after every
// execution): the same failure kinds, failing traces and final states.
// jcute and lincomb, whose explorations take seconds, run with WEFT_LONG=1.
func TestWorkersConcolic(t *testing.T) {
	t.Parallel()
	progs := []string{"addall", "unfold-fig1", "unfold-fig9"}
	if long.Enabled() {
		progs = []string{"jcute", "addall", "lincomb", "unfold-fig1", "unfold-fig9"}
	}
	for _, prog := range progs {
		p := programs.Lookup(prog)
		if p == nil {
			t.Fatalf("no program %q", prog)
		}
		body := p.MustBody(nil)
		for _, name := range []string{"concolic", "concolic-dpor", "concolic-optimal"} {
			msg, ok, err := compareWorkers(body, name, 20000, 1)
			if errors.Is(err, solver.ErrUnavailable) {
				t.Skipf("no Z3: %v", err)
			}
			if err != nil || !ok {
				t.Fatalf("%s, %s: %v (finished: %v)", prog, name, err, ok)
			}
			if msg != "" {
				t.Errorf("%s, %s:\n%s", prog, name, msg)
			}
		}
	}
}

// TestWorkersCon2 explores addall, jcute and unfold-fig9 with con2 (k =
// 2) on one worker and on two (a unit after every execution, each
// scenario solved by the Z3 of the worker that takes it): both finish,
// with the same failure kinds and the same branch sides covered at each
// k.
func TestWorkersCon2(t *testing.T) {
	t.Parallel()
	sides := func(r *weft.Result) string {
		var b strings.Builder
		for _, c := range r.Counters {
			if strings.HasPrefix(c.Name, "sides") {
				fmt.Fprintf(&b, "%s %d; ", c.Name, c.Value)
			}
		}
		return b.String()
	}
	for _, prog := range []string{"addall", "jcute", "unfold-fig9"} {
		body := programs.Lookup(prog).MustBody(nil)
		var rs [2]*weft.Result
		for i, n := range []int{1, 2} {
			r, err := weft.Explore(body, weft.WithStrategy("con2"), weft.KeepGoing(), weft.WithWorkers(n), weft.WithParallelBatch(1), weft.NoReplayFiles())
			if errors.Is(err, solver.ErrUnavailable) {
				t.Skipf("no Z3: %v", err)
			}
			if err != nil {
				t.Fatalf("%s on %d workers: %v", prog, n, err)
			}
			rs[i] = r
		}
		one, two := rs[0], rs[1]
		if !one.Exhausted || !two.Exhausted || len(two.Workers) != 2 {
			t.Errorf("%s: exhausted %v and %v, workers %v; want both exhausted, two workers", prog, one.Exhausted, two.Exhausted, two.Workers)
		}
		if !sameKinds(one.FailureCounts, two.FailureCounts) {
			t.Errorf("%s: failures %v on two workers, %v on one", prog, two.FailureCounts, one.FailureCounts)
		}
		if s1, s2 := sides(one), sides(two); s1 != s2 || s1 == "" {
			t.Errorf("%s: %s on two workers, %s on one", prog, s2, s1)
		}
		t.Logf("%s: %d executions on one worker, %d on two (%+v)", prog, one.Executions, two.Executions, two.Workers)
	}
}

// sameKinds reports whether a and b have the same failure kinds.
func sameKinds(a, b map[trace.FailureKind]int) bool {
	for k, n := range a {
		if n > 0 && b[k] == 0 {
			return false
		}
	}
	for k, n := range b {
		if n > 0 && a[k] == 0 {
			return false
		}
	}
	return true
}

// TestWorkersOptimalExact explores fib on two and on four workers, a unit
// offered after every execution, three times each: optimal's letters make
// every run the undivided exploration exactly, 1,698 executions for n=3
// (19,605 for n=4 with WEFT_LONG=1), each a distinct trace.
func TestWorkersOptimalExact(t *testing.T) {
	t.Parallel()
	cases := []struct{ n, want int }{{3, 1698}}
	if long.Enabled() {
		cases = append(cases, struct{ n, want int }{4, 19605})
	}
	for _, c := range cases {
		body := programs.Lookup("fib").MustBody(map[string]int{"n": c.n})
		for _, workers := range []int{2, 4} {
			for run := range 3 {
				o, r, err := exploreWorkers(body, "optimal", workers, 0, 1)
				if err != nil {
					t.Fatal(err)
				}
				if r.Executions != c.want || len(o.Forms) != c.want || !r.Exhausted {
					t.Errorf("fib n=%d on %d workers, run %d: %d executions, %d distinct traces, exhausted %v; want %d, %d, true",
						c.n, workers, run, r.Executions, len(o.Forms), r.Exhausted, c.want, c.want)
				}
			}
		}
	}
}
