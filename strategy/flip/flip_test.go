package flip

import (
	"fmt"
	"testing"

	"github.com/weft-go/weft/strategy"
	"github.com/weft-go/weft/trace"
)

// sim runs a program of stores and loads (threads 1..n, started before any
// step) under s without goroutines, as the runtime would, and returns the
// schedules of its executions ("/cut" marks a cut one) and the number of
// distinct traces among those not cut.
func sim(t *testing.T, s strategy.Strategy, p [][]trace.Op) ([]string, int) {
	t.Helper()
	var schedules []string
	traces := map[string]bool{}
	nobj := 0
	for _, th := range p {
		for _, op := range th {
			nobj = max(nobj, int(op.Obj)+1)
		}
	}
	var tr trace.Trace
	for s.Next() {
		if len(schedules) > 1000 {
			t.Fatal("more than 1000 executions")
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
		sched := ""
		end := trace.End{Status: trace.Complete}
		var st strategy.State
		for {
			st.Step, st.Trace = len(tr.Events), &tr
			st.Threads = append(st.Threads[:0], strategy.Thread{Done: true})
			live := 0
			for i, th := range p {
				if pc[i+1] == len(th) {
					st.Threads = append(st.Threads, strategy.Thread{Done: true})
					continue
				}
				live++
				st.Threads = append(st.Threads, strategy.Thread{Op: th[pc[i+1]], Alts: 1})
			}
			if live == 0 {
				break
			}
			c := s.Choose(&st)
			if c.Thread == trace.NoThread {
				end = trace.End{Status: trace.Cut}
				sched += "/cut"
				break
			}
			tr.AddEnabled(len(st.Threads), func(i int) bool { return st.Threads[i].Alts > 0 })
			tr.Events = append(tr.Events, trace.Event{Thread: c.Thread, Op: st.Threads[c.Thread].Op, Case: -1, Partner: trace.NoThread, PartnerCase: -1, OK: true, Value: uint64(c.Thread)})
			pc[c.Thread]++
			sched += fmt.Sprint(int(c.Thread))
		}
		tr.Final = tr.Final[:0]
		for i := range st.Threads {
			tr.Final = append(tr.Final, trace.Op{})
			if !st.Threads[i].Done {
				tr.Final[i] = st.Threads[i].Op
			}
		}
		if end.Status != trace.Cut {
			traces[trace.Foata(&tr, trace.CR)] = true
		}
		schedules = append(schedules, sched)
		s.Finish(&tr, end)
	}
	return schedules, len(traces)
}

func st(o trace.ObjectID) trace.Op {
	return trace.Op{Kind: trace.KindStore, Class: trace.ClassVar, Obj: o}
}
func ld(o trace.ObjectID) trace.Op {
	return trace.Op{Kind: trace.KindLoad, Class: trace.ClassVar, Obj: o}
}

func TestFlip(t *testing.T) {
	x, y := trace.ObjectID(0), trace.ObjectID(1)
	xy := [][]trace.Op{{st(x), st(y)}, {st(y), st(x)}}
	problem := [][]trace.Op{{st(x), st(x)}, {st(y), st(x)}}
	pairs := [][]trace.Op{{ld(x)}, {st(x)}, {ld(y)}, {st(y)}}
	tests := []struct {
		name      string
		p         [][]trace.Op
		opt       Options
		schedules string
		traces    int
	}{
		// Slides 15-31: executions 1-4 are x=1 y=2 y=3 x=4; x=1 y=3 x=4
		// y=2; y=3 x=4 x=1 y=2; y=3 x=1 y=2 x=4 (the last equivalent to
		// the second).
		{"xy", xy, Options{}, "[1122 1221 2211 2112]", 3},
		// Slides 38-50, with delayed sets: 3 executions.
		{"xy delayed", xy, Options{Sleep: true}, "[1122 1221 2211]", 3},
		// Slide 36: no reduction; postponed threads run again only when
		// nothing else can.
		{"dporproblem", problem, Options{}, "[1122 1221 1212 2211 2112 2121]", 3},
		{"dporproblem delayed", problem, Options{Sleep: true}, "[1122 1221 2211]", 3},
		{"pairs", pairs, Options{}, "[1234 1243 2341 2413]", 4},
	}
	for _, tc := range tests {
		got, traces := sim(t, New(tc.opt), tc.p)
		if fmt.Sprint(got) != tc.schedules || traces != tc.traces {
			t.Errorf("%s: schedules %v (%d traces), want %s (%d)", tc.name, got, traces, tc.schedules, tc.traces)
		}
	}
}

func TestFlipRandomOrder(t *testing.T) {
	x, y := trace.ObjectID(0), trace.ObjectID(1)
	p := [][]trace.Op{{st(x), ld(y)}, {st(y), ld(x)}, {ld(x), st(y)}}
	_, want := sim(t, New(Options{}), p)
	for seed := int64(1); seed <= 5; seed++ {
		for _, sleep := range []bool{false, true} {
			if _, got := sim(t, New(Options{Sleep: sleep, Seed: seed}), p); got != want {
				t.Errorf("seed %d sleep %v: %d traces, want %d", seed, sleep, got, want)
			}
		}
	}
}
