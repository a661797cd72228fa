package dpor

import (
	"fmt"
	"strings"
	"testing"

	"github.com/weft-go/weft/internal/gen"
	"github.com/weft-go/weft/internal/long"
	"github.com/weft-go/weft/strategy"
	"github.com/weft-go/weft/strategy/strategytest"
	"github.com/weft-go/weft/trace"
)

// A simulated program: threads 1..n (started by the body, thread 0, before
// any step) run lists of loads and stores of variables x and y, and locks
// and unlocks of mutexes m and m2. sim runs it under a strategy with
// strategytest's runner, without goroutines, as the runtime would.
type simProg [][]strategytest.Stmt

const x, y, m, m2 = 0, 1, 0, 1

func st(v int) strategytest.Stmt { return strategytest.Stmt{Kind: strategytest.Store, Obj: v} }
func ld(v int) strategytest.Stmt { return strategytest.Stmt{Kind: strategytest.Load, Obj: v} }
func lk(m int) strategytest.Stmt { return strategytest.Stmt{Kind: strategytest.Acquire, Obj: m} }
func ul(m int) strategytest.Stmt { return strategytest.Stmt{Kind: strategytest.Release, Obj: m} }

// program returns p as a strategytest program.
func (p simProg) program() *strategytest.Program {
	return &strategytest.Program{Vars: 2, Mutexes: 2, Threads: p}
}

// simResult counts the executions of a simulated exploration and the
// distinct traces (Foata normal forms) of the executions that were not cut.
type simResult struct {
	execs, complete, cut, deadlock int
	traces                         map[string]int
	schedules                      []string
}

func sim(t *testing.T, s strategy.Strategy, p simProg) simResult {
	t.Helper()
	return simVarying(t, s, func(int) simProg { return p })
}

// simVarying is sim for a program that may change from one execution to the
// next (a nondeterministic test body): execution i runs prog(i), from 1.
func simVarying(t *testing.T, s strategy.Strategy, prog func(i int) simProg) simResult {
	t.Helper()
	const limit = 10000
	r, err := strategytest.RunEach(s, func(i int) *strategytest.Program { return prog(i).program() }, limit)
	if err != nil {
		t.Fatal(err)
	}
	if !r.Exhausted {
		t.Fatalf("more than %d executions", limit)
	}
	// The body returns at once: a deadlock of the threads is a leak.
	dead := r.Failures[trace.Deadlock] + r.Failures[trace.Leak]
	sched := make([]string, len(r.Schedules))
	for i, s := range r.Schedules {
		sched[i] = strings.TrimSuffix(s, "/"+trace.Leak.String())
	}
	return simResult{execs: r.Executions, complete: r.Complete, cut: r.Cut, deadlock: dead, traces: r.Traces, schedules: sched}
}

var (
	progXY      = simProg{{st(x), st(y)}, {st(y), st(x)}}
	progProblem = simProg{{st(x), st(x)}, {st(y), st(x)}}
	progPairs   = simProg{{ld(x)}, {st(x)}, {ld(y)}, {st(y)}}
	progLocks   = simProg{{lk(m), st(x), ul(m)}, {lk(m), st(x), ul(m)}, {ld(y)}}
	progDead    = simProg{{lk(m), lk(m2), ul(m2), ul(m)}, {lk(m2), lk(m), ul(m), ul(m2)}}
	progReads   = simProg{{ld(x), st(y)}, {ld(x), st(y)}}
)

func TestCounts(t *testing.T) {
	plain := Options{Relation: trace.Plain}
	plainSleep := Options{Relation: trace.Plain, Sleep: true}
	clock := Options{Algorithm: ObjectClocks}
	cr := Options{Algorithm: CommutingReads}
	crSleep := Options{Algorithm: CommutingReads, Sleep: true}
	tests := []struct {
		name            string
		p               simProg
		opt             Options
		execs, complete int
		traces          int
		dead            int
	}{
		// the CS294-32 DPOR slides, slides 32-35: Flanagan and Godefroid's DPOR runs 4
		// executions on xy; 3 traces.
		{"xy dpor", progXY, plain, 4, 4, 3, 0},
		{"xy dpor+sleep", progXY, plainSleep, 3, 3, 3, 0},
		{"xy dpor-clock", progXY, clock, 4, 4, 3, 0},
		{"xy dpor-cr", progXY, cr, 4, 4, 3, 0},
		// the CS294-32 DPOR slides, slide 36: no reduction without sleep sets.
		{"dporproblem dpor", progProblem, plain, 6, 6, 3, 0},
		{"dporproblem dpor-cr", progProblem, cr, 6, 6, 3, 0},
		{"dporproblem dpor+sleep", progProblem, plainSleep, 3, 3, 3, 0},
		{"dporproblem dpor-cr+sleep", progProblem, crSleep, 3, 3, 3, 0},
		{"pairs dpor-cr", progPairs, cr, 4, 4, 4, 0},
		{"pairs dpor", progPairs, plain, 4, 4, 4, 0},
		// Two critical sections on one lock and an independent read: 2
		// traces, thanks to the co-enabledness of acquires and releases.
		{"locks dpor", progLocks, plain, 2, 2, 2, 0},
		{"locks dpor-cr", progLocks, cr, 2, 2, 2, 0},
		{"locks dpor-clock", progLocks, clock, 2, 2, 2, 0},
		// Without it, each acquire races with the last release and
		// backtracks to every thread enabled there: the independent read
		// moves too.
		{"locks dpor-clock as printed", progLocks, Options{Algorithm: ObjectClocks, IgnoreCoEnabled: true}, 4, 4, 2, 0},
		// Lock-order inversion: 2 complete traces and a deadlock.
		{"deadlock dpor", progDead, plain, 4, 2, 3, 2},
		{"deadlock dpor+sleep", progDead, plainSleep, 3, 2, 3, 1},
		// Two threads read x and write y: reads commute under CR (2
		// traces), not under Plain (4 traces, 5 executions: the race of
		// the loads adds T2 at the start once more).
		{"reads dpor", progReads, plain, 5, 5, 2, 0},
		{"reads dpor-cr", progReads, cr, 3, 3, 2, 0},
		{"reads dpor-cr+sleep", progReads, crSleep, 2, 2, 2, 0},
	}
	for _, tc := range tests {
		r := sim(t, New(tc.opt), tc.p)
		if r.execs != tc.execs || r.complete != tc.complete || len(r.traces) != tc.traces || r.deadlock != tc.dead {
			t.Errorf("%s: %d executions, %d complete, %d deadlocks, %d traces; want %d, %d, %d, %d (schedules %v)",
				tc.name, r.execs, r.complete, r.deadlock, len(r.traces), tc.execs, tc.complete, tc.dead, tc.traces, r.schedules)
		}
	}
}

func TestRandomOrder(t *testing.T) {
	for _, p := range []simProg{progXY, progProblem, progPairs, progLocks, progDead, progReads} {
		want := len(sim(t, New(Options{Relation: trace.Plain}), p).traces)
		for seed := int64(1); seed <= 5; seed++ {
			for _, o := range []Options{
				{Relation: trace.Plain, Seed: seed},
				{Algorithm: CommutingReads, Sleep: true, Seed: seed},
				{Algorithm: CommutingReads, Sleep: true, Asleep: DPOR1, Seed: seed},
				{Algorithm: CommutingReads, Sleep: true, Asleep: DPOR2, Seed: seed},
			} {
				if got := len(sim(t, New(o), p).traces); got != want {
					t.Errorf("%v %+v: %d traces, want %d", p, o, got, want)
				}
			}
		}
	}
}

func TestSchedules(t *testing.T) {
	// The executions of slide 36 with sleep sets, in order: T1 T1 T2 T2;
	// then T2 after x=1, where T1 sleeps until x=3 wakes it; then T2
	// first, where T1 sleeps likewise.
	r := sim(t, New(Options{Relation: trace.Plain, Sleep: true}), progProblem)
	if got := fmt.Sprint(r.schedules); got != "[1122 1221 2211]" {
		t.Errorf("schedules %s", got)
	}
	r = sim(t, New(Options{Relation: trace.Plain}), progProblem)
	if got := fmt.Sprint(r.schedules); got != "[1122 1212 1221 2112 2121 2211]" {
		t.Errorf("schedules %s", got)
	}
}

// TestDivergedPrefix checks that a program that changes between executions
// (fewer threads, another operation, a blocked thread where the recorded
// prefix ran one) never makes the strategy index out of range: it cuts the
// execution at the first replayed step that does not match, says so in
// Diverged, and ends the exploration.
func TestDivergedPrefix(t *testing.T) {
	progs := []struct {
		name        string
		first, then simProg
	}{
		{"fewer threads", simProg{{st(x)}, {st(x)}, {st(x)}}, simProg{{st(x)}}},
		{"other operation", simProg{{st(x), st(y)}, {st(x), st(y)}}, simProg{{ld(y), st(y)}, {st(x), st(y)}}},
		{"blocked", simProg{{st(x), lk(m)}, {st(x), lk(m)}}, simProg{{lk(m), lk(m)}, {st(x), lk(m)}}},
	}
	opts := map[string]Options{
		"dpor":          {Algorithm: VectorClocks, Relation: trace.Plain, Rule: Process},
		"dpor+sleep":    {Algorithm: VectorClocks, Relation: trace.Plain, Rule: Initials, Sleep: true},
		"dpor-clock":    {Algorithm: ObjectClocks, Rule: Process},
		"dpor-cr":       {Algorithm: CommutingReads, Rule: Process},
		"dpor-cr+sleep": {Algorithm: CommutingReads, Rule: Initials, Sleep: true},
		"dpor-1":        {Algorithm: CommutingReads, Rule: Process, Sleep: true, Asleep: DPOR1},
		"dpor-2":        {Algorithm: CommutingReads, Rule: Process, Sleep: true, Asleep: DPOR2},
	}
	for _, p := range progs {
		for name, o := range opts {
			t.Run(p.name+"/"+name, func(t *testing.T) {
				s := New(o)
				r := simVarying(t, s, func(i int) simProg {
					if i == 1 {
						return p.first
					}
					return p.then
				})
				err := s.Diverged()
				if err == nil {
					t.Fatalf("no divergence reported after %d executions (%v)", r.execs, r.schedules)
				}
				if r.execs != 2 || r.cut != 1 {
					t.Errorf("%d executions, %d cut; want 2 and the second cut", r.execs, r.cut)
				}
				if !strings.Contains(err.Error(), "step 1:") || !strings.Contains(err.Error(), "recorded") {
					t.Errorf("Diverged() = %q; want the step and what was recorded", err)
				}
			})
		}
	}
}

// registered are the options of the DPOR strategies weft registers by name
// (strategies_dpor.go), in thread order.
var registered = map[string]Options{
	"dpor":             {Algorithm: VectorClocks, Relation: trace.Plain, Rule: Process},
	"dpor+sleep":       {Algorithm: VectorClocks, Relation: trace.Plain, Rule: Initials, Sleep: true},
	"dpor-clock":       {Algorithm: ObjectClocks, Rule: Process},
	"dpor-clock+sleep": {Algorithm: ObjectClocks, Rule: Initials, Sleep: true},
	"dpor-cr":          {Algorithm: CommutingReads, Rule: Process},
	"dpor-cr+sleep":    {Algorithm: CommutingReads, Rule: Initials, Sleep: true},
	"dpor-1":           {Algorithm: CommutingReads, Rule: Process, Sleep: true, Asleep: DPOR1},
	"dpor-2":           {Algorithm: CommutingReads, Rule: Process, Sleep: true, Asleep: DPOR2},
}

// TestConformance checks every registered variant, in thread order and in
// the random order of seed 1, against exhaustive search on 40 generated
// programs (200 with WEFT_LONG=1): complete (every maximal trace, final
// state and failure kind, in no more executions).
func TestConformance(t *testing.T) {
	t.Parallel()
	for name, o := range registered {
		for _, seed := range []int64{0, 1} {
			t.Run(fmt.Sprintf("%s/order%d", name, seed), func(t *testing.T) {
				o := o
				o.Seed = seed
				strategytest.Conformance(t, func() strategy.Strategy { return New(o) },
					strategytest.Options{Programs: long.N(40, 200), Claims: strategytest.Claims{Complete: true}})
			})
		}
		// Adds whose result is unused (AddOnly), which commute with
		// each other.
		t.Run(name+"/addonly", func(t *testing.T) {
			strategytest.Conformance(t, func() strategy.Strategy { return New(o) },
				strategytest.Options{Programs: long.N(40, 200), Gen: gen.V3, Claims: strategytest.Claims{Complete: true}})
		})
	}
}
