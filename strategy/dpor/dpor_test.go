package dpor

import (
	"fmt"
	"strings"
	"testing"

	"github.com/weft-go/weft/strategy"
	"github.com/weft-go/weft/trace"
)

// A simulated program: threads 1..n (started by the body, thread 0, before
// any step) run lists of loads, stores, locks and unlocks. sim runs it under
// a strategy without goroutines, as the runtime would.
type simProg [][]trace.Op

func st(o trace.ObjectID) trace.Op {
	return trace.Op{Kind: trace.KindStore, Class: trace.ClassVar, Obj: o}
}
func ld(o trace.ObjectID) trace.Op {
	return trace.Op{Kind: trace.KindLoad, Class: trace.ClassVar, Obj: o}
}
func lk(o trace.ObjectID) trace.Op {
	return trace.Op{Kind: trace.KindLock, Class: trace.ClassMutex, Obj: o}
}
func ul(o trace.ObjectID) trace.Op {
	return trace.Op{Kind: trace.KindUnlock, Class: trace.ClassMutex, Obj: o}
}

// simResult counts the executions of a simulated exploration and the
// distinct traces (Foata normal forms) of the executions that were not cut.
type simResult struct {
	execs, complete, cut, deadlock int
	traces                         map[string]bool
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
	res := simResult{traces: map[string]bool{}}
	var tr trace.Trace
	for s.Next() {
		if res.execs++; res.execs > 10000 {
			t.Fatal("more than 10000 executions")
		}
		p := prog(res.execs)
		nobj := 0
		for _, th := range p {
			for _, op := range th {
				nobj = max(nobj, int(op.Obj)+1)
			}
		}
		tr.Reset()
		tr.Threads = append(tr.Threads, trace.ThreadInfo{Parent: trace.NoThread, Step: -1})
		for range p {
			tr.Threads = append(tr.Threads, trace.ThreadInfo{Parent: 0, Step: -1})
		}
		for range nobj {
			tr.Objects = append(tr.Objects, trace.ObjectInfo{Class: trace.ClassVar})
		}
		pc := make([]int, len(p)+1)
		held := make([]bool, nobj)
		sched := ""
		var state strategy.State
		var end trace.End
		for {
			state.Step, state.Trace = len(tr.Events), &tr
			state.Threads = state.Threads[:0]
			state.Threads = append(state.Threads, strategy.Thread{Done: true})
			enabled, live := 0, 0
			for i, th := range p {
				if pc[i+1] == len(th) {
					state.Threads = append(state.Threads, strategy.Thread{Done: true})
					continue
				}
				live++
				op := th[pc[i+1]]
				var alts int32 = 1
				if op.Kind == trace.KindLock && held[op.Obj] {
					alts = 0
				}
				enabled += int(alts)
				state.Threads = append(state.Threads, strategy.Thread{Op: op, Alts: alts})
			}
			if enabled == 0 {
				if live > 0 {
					end = trace.End{Status: trace.Failed, Kind: trace.Deadlock}
				}
				break
			}
			c := s.Choose(&state)
			if c.Thread == trace.NoThread {
				end = trace.End{Status: trace.Cut}
				break
			}
			if !state.Enabled(c.Thread) {
				t.Fatalf("execution %d, step %d: the strategy chose %v, which is not enabled", res.execs, len(tr.Events)+1, c.Thread)
			}
			tr.AddEnabled(len(state.Threads), func(i int) bool { return state.Threads[i].Alts > 0 })
			op := state.Threads[c.Thread].Op
			switch op.Kind {
			case trace.KindLock:
				held[op.Obj] = true
			case trace.KindUnlock:
				held[op.Obj] = false
			}
			pc[c.Thread]++
			tr.Events = append(tr.Events, trace.Event{Thread: c.Thread, Op: op, Case: -1, Partner: trace.NoThread, PartnerCase: -1, OK: true, Value: uint64(c.Thread)})
			sched += fmt.Sprint(int(c.Thread))
		}
		tr.Final = tr.Final[:0]
		for i := range state.Threads {
			tr.Final = append(tr.Final, state.Threads[i].Op)
			if state.Threads[i].Done {
				tr.Final[i] = trace.Op{}
			}
		}
		switch {
		case end.Status == trace.Cut:
			res.cut++
			sched += "/cut"
		case end.Kind == trace.Deadlock:
			res.deadlock++
			res.traces[trace.Foata(&tr, trace.CR)] = true
		default:
			res.complete++
			res.traces[trace.Foata(&tr, trace.CR)] = true
		}
		res.schedules = append(res.schedules, sched)
		s.Finish(&tr, end)
	}
	return res
}

var (
	x, y, m, m2 = trace.ObjectID(0), trace.ObjectID(1), trace.ObjectID(2), trace.ObjectID(3)
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
		// seed 001 slides 32-35: Flanagan and Godefroid's DPOR runs 4
		// executions on xy; 3 traces.
		{"xy dpor", progXY, plain, 4, 4, 3, 0},
		{"xy dpor+sleep", progXY, plainSleep, 3, 3, 3, 0},
		{"xy dpor-clock", progXY, clock, 4, 4, 3, 0},
		{"xy dpor-cr", progXY, cr, 4, 4, 3, 0},
		// seed 001 slide 36: no reduction without sleep sets.
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
// Diverged, and ends the exploration (issue 18 item 5).
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
