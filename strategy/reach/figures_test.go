// Tests of Lei and Carver 2006's worked examples: the race sets of Figs. 2-5, the
// race table of Fig. 1 (Table 3), the timestamps of §4, and the numbers of
// sequences and runs of each example.

package reach_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/weft-go/weft"
	"github.com/weft-go/weft/strategy"
	"github.com/weft-go/weft/strategy/reach"
	"github.com/weft-go/weft/trace"
)

// pick is a step of a script: a thread and, for a receive that meets a
// sender, its partner (-1: any).
type pick struct{ t, partner trace.ThreadID }

// scripted runs one execution following its script, then the first
// enabled thread, and keeps the execution's trace analysed.
type scripted struct {
	script []pick
	i      int
	done   bool
	an     reach.Analysis
	stamps []reach.Stamp
}

func (s *scripted) Next() bool { return !s.done }

func (s *scripted) Choose(st *strategy.State) strategy.Choice {
	if s.i < len(s.script) {
		p := s.script[s.i]
		s.i++
		for a := range st.Threads[p.t].Alts {
			if p.partner < 0 || st.Alternatives.Alternative(p.t, a).Partner == p.partner {
				return strategy.Choice{Thread: p.t, Alt: a}
			}
		}
		panic(fmt.Sprintf("script step %d: %v is not enabled with partner %v", s.i, p.t, p.partner))
	}
	for t := range st.Threads {
		if st.Threads[t].Alts > 0 {
			return strategy.Choice{Thread: trace.ThreadID(t)}
		}
	}
	panic("no thread enabled")
}

func (s *scripted) Input(_ *strategy.State, in strategy.InputRequest) uint64 { return in.Default }

func (s *scripted) Finish(tr *trace.Trace, _ trace.End) {
	s.done = true
	s.an = reach.Analyse(tr)
	s.stamps = reach.Timestamps(tr)
}

// runScript runs body once under script and returns the analysis.
func runScript(t *testing.T, body func(*weft.T), script ...pick) *scripted {
	t.Helper()
	s := &scripted{script: script}
	if _, err := weft.Explore(body, weft.WithCustomStrategy(s), weft.KeepGoing(), weft.NoReplayFiles()); err != nil {
		t.Fatal(err)
	}
	if s.i != len(script) {
		t.Fatalf("the execution took %d steps of the script's %d", s.i, len(script))
	}
	return s
}

func p(t trace.ThreadID) pick             { return pick{t, -1} }
func meet(t, partner trace.ThreadID) pick { return pick{t, partner} }
func picks(ts ...trace.ThreadID) (out []pick) {
	for _, t := range ts {
		out = append(out, p(t))
	}
	return out
}

// The programs of the figures. Threads are numbered as the body starts
// them: T1 = 1, T2 = 2, T3 = 3 (T0 is the body, which joins them).

// fig2: asynchronous messages (buffered channels with room for all): T1
// sends s2, s4 to p1; T3 sends s1 to p1, s3 to p2; T2 receives from p1,
// p1, p2, p1.
func fig2(w *weft.T) {
	p1, p2 := weft.MakeChan[int](4), weft.MakeChan[int](4)
	p1.SetName("p1")
	p2.SetName("p2")
	ths := []*weft.Thread{
		w.Go(func() { p1.Send(2); p1.Send(4) }),
		w.Go(func() { p1.Recv(); p1.Recv(); p2.Recv(); p1.Recv() }),
		w.Go(func() { p1.Send(1); p2.Send(3) }),
	}
	for _, th := range ths {
		th.Join()
	}
}

// fig3: synchronous messages and a selective wait: T1 sends s2, s4 to p1,
// T3 sends s1, s3 to p2; T2 selects four times, with p2's guard closed (a
// nil channel) every second time.
func fig3(w *weft.T) {
	p1, p2 := weft.MakeChan[int](0), weft.MakeChan[int](0)
	p1.SetName("p1")
	p2.SetName("p2")
	var closed *weft.Chan[int]
	ths := []*weft.Thread{
		w.Go(func() { p1.Send(2); p1.Send(4) }),
		w.Go(func() {
			for i := range 4 {
				guard := p2
				if i%2 == 1 {
					guard = closed
				}
				weft.Select(weft.OnRecv(p1, nil), weft.OnRecv(guard, nil))
			}
		}),
		w.Go(func() { p2.Send(1); p2.Send(3) }),
	}
	for _, th := range ths {
		th.Join()
	}
}

// fig4: a binary semaphore initialised to 1; T1 and T2 each do P then V.
func fig4(w *weft.T) {
	s := weft.NewBinarySemaphore(1)
	s.SetName("s")
	ths := []*weft.Thread{
		w.Go(func() { s.P(); s.V() }),
		w.Go(func() { s.P(); s.V() }),
	}
	for _, th := range ths {
		th.Join()
	}
}

// fig5: an SC monitor M: T1 enters (method m1) and waits; T2 enters (m2),
// signals T1 and exits; T1 enters again and exits.
func fig5(w *weft.T) {
	m := weft.NewMonitor(weft.SC)
	m.SetName("M")
	c := m.Cond(0)
	waited := false
	ths := []*weft.Thread{
		w.Go(func() { m.Enter(); waited = true; c.Wait(); m.Exit() }),
		w.Go(func() {
			m.Enter()
			if waited {
				c.Signal()
			}
			m.Exit()
		}),
	}
	for _, th := range ths {
		th.Join()
	}
}

// TestRaceSets checks the race sets of Figs. 1-5 (§5.2): every receiving
// event of the figure's execution, the partners it synchronised with and
// its race set. A receiving event is a position of an object of reach's
// model. For asynchronous ports (buffered channels), the paper's receive
// r_j of a port's only receiver is the j-th value the port takes in
// (p.in:j-1, whose partner is the send): a receive takes the oldest
// value, so the order of the values in is the order of the receives; the
// receives themselves (p.out) have nothing to race with, the port having
// one receiver. A rendezvous is one event with two partners, the receiver
// (first) and the sender; a monitor's Wait, Signal and Exit are events of
// its object that no other thread can race for.
func TestRaceSets(t *testing.T) {
	for _, c := range []struct {
		name   string
		body   func(*weft.T)
		script []pick
		want   []string
	}{{
		// Fig. 1's Q0: r1 <- s1, r2 <- s2, r3 <- s3, r4 <- s4: race_set(r1)
		// = {s2}, race_set(r3) = {s4} (§6.2, Table 3's heading).
		"fig1", body("reach-fig1", nil), picks(1, 2, 3, 3, 2, 3, 4, 4),
		[]string{
			"p1.in:0 = T1#0 {T2#0}", // r1 (p1's first value): s1, races with s2
			"p1.in:1 = T2#0 {}",     // r2
			"p1.out:0 = T3#0 {}",
			"p2.in:0 = T3#1 {T2#1}", // r3: s3, races with s4
			"p2.in:1 = T2#1 {}",     // r4
			"p1.out:1 = T3#2 {}",
			"p2.out:0 = T4#0 {}",
			"p2.out:1 = T4#1 {}",
		},
	}, {
		// Fig. 2: race_set(r1) = {s2}; r2, r3, r4: {} (s3 goes to p2, s4 is
		// behind s2 on p1).
		"fig2", fig2, picks(3, 1, 3, 1, 2, 2, 2, 2),
		[]string{
			"p1.in:0 = T3#0 {T1#0}", // r1: s1, races with s2
			"p1.in:1 = T1#0 {}",     // r2: s2
			"p2.in:0 = T3#1 {}",     // r3: s3
			"p1.in:2 = T1#1 {}",     // r4: s4
			"p1.out:0 = T2#0 {}",
			"p1.out:1 = T2#1 {}",
			"p2.out:0 = T2#2 {}",
			"p1.out:2 = T2#3 {}",
		},
	}, {
		// Fig. 3: race_set(r1) = {s2}, race_set(r3) = {s4}; r2, r4: {} (p2
		// is not in their OpenList: its guard is closed). T2's select
		// joins p1 and p2 into one object of the model; an event is named
		// by the channel of its step and its position in that object.
		"fig3", fig3, []pick{meet(2, 3), meet(2, 1), meet(2, 3), meet(2, 1)},
		[]string{
			"p2:0 = T2#0/1+T3#0 {T2#0/0+T1#0}", // r1 <- s1; s2 races
			"p1:1 = T2#1/0+T1#0 {}",            // r2 <- s2
			"p2:2 = T2#2/1+T3#1 {T2#2/0+T1#1}", // r3 <- s3; s4 races
			"p1:3 = T2#3/0+T1#1 {}",            // r4 <- s4
		},
	}, {
		// Fig. 4: race_set(e1) = {c3}; e2, e3, e4: {} (P is not in e2's
		// OpenList).
		"fig4", fig4, picks(2, 2, 1, 1),
		[]string{
			"s:0 = T2#0 {T1#0}", // e1 <- c1 (T2's P); c3 (T1's P) races
			"s:1 = T2#1 {}",     // e2 <- c2 (T2's V)
			"s:2 = T1#0 {}",     // e3 <- c3
			"s:3 = T1#1 {}",     // e4 <- c4
		},
	}, {
		// Fig. 5: race_set(e1) = {c2}; e2, e3: {} (c3 happened after e2:
		// T1 calls again only once T2 signalled it).
		"fig5", fig5, picks(1, 1, 2, 2, 2, 1, 1),
		[]string{
			"M:0 = T1#0 {T2#0}", // e1 <- c1 (T1 enters m1); c2 races
			"M:1 = T1#1 {}",     // T1 waits
			"M:2 = T2#0 {}",     // e2 <- c2 (T2 enters m2)
			"M:3 = T2#1 {}",     // T2 signals T1
			"M:4 = T2#2 {}",     // T2 exits
			"M:5 = T1#2 {}",     // e3 <- c3 (T1 enters again)
			"M:6 = T1#3 {}",     // T1 exits
		},
	}} {
		s := runScript(t, c.body, c.script...)
		if got := s.an.Events; !slices.Equal(got, c.want) {
			t.Errorf("%s: receiving events and race sets\n%s\nwant\n%s", c.name, strings.Join(got, "\n"), strings.Join(c.want, "\n"))
		}
	}
}

// TestFig1Table3: the race table of Fig. 1's Q0 (Table 3) has a column
// for r1 and one for r3. The paper's rows are (0, 1), (1, 0), (1, 1); the
// third is not a row here: s4 is T2's call after s2, and reach's control
// structure of a call holds the step its thread took before (where s2 went
// in: weft's threads can see what their steps did, Lei and Carver 2006's do not),
// which changing r1's partner changes, so s4 is removed with it (rule 3).
// The sequence of V3 is reached in two steps instead (from Q2), and the
// exploration still takes 4 runs for the 4 sequences (TestFigures).
func TestFig1Table3(t *testing.T) {
	s := runScript(t, body("reach-fig1", nil), picks(1, 2, 3, 3, 2, 3, 4, 4)...)
	if h := s.an.Heading; !slices.Equal(h, []string{"p1.in:0", "p2.in:0"}) {
		t.Errorf("heading %v, want [p1.in:0 p2.in:0] (r1, r3)", h)
	}
	if r := fmt.Sprint(s.an.Rows); r != "[[0 1] [1 0]]" {
		t.Errorf("rows %v, want [[0 1] [1 0]]", r)
	}
}

// TestTimestamps checks the vector timestamps of §4 against the ones the
// notes derive for Figs. 2-5 (components T1, T2, T3: the body, thread 0,
// takes no part). Each step's events: a send, a receive, a call and a
// completion or entry.
func TestTimestamps(t *testing.T) {
	for _, c := range []struct {
		name   string
		body   func(*weft.T)
		script []pick
		want   []string // per step: "send/recv" ("-" for none)
	}{
		// Fig. 2: s1 [0,0,1], s2 [1,0,0], s3 [0,0,2], s4 [2,0,0]; r1
		// [0,1,1], r2 [1,2,1], r3 [1,3,2], r4 [2,4,2].
		{"fig2", fig2, picks(3, 1, 3, 1, 2, 2, 2, 2), []string{
			"[0 0 1]/-", "[1 0 0]/-", "[0 0 2]/-", "[2 0 0]/-",
			"-/[0 1 1]", "-/[1 2 1]", "-/[1 3 2]", "-/[2 4 2]"}},
		// Fig. 3 (the modified scheme): s1 [0,0,1], r1 [0,1,1]; s2 [1,0,0],
		// r2 [1,2,1]; s3 [0,1,2], r3 [1,3,2]; s4 [2,2,1], r4 [2,4,2].
		{"fig3", fig3, []pick{meet(2, 3), meet(2, 1), meet(2, 3), meet(2, 1)}, []string{
			"[0 0 1]/[0 1 1]", "[1 0 0]/[1 2 1]", "[0 1 2]/[1 3 2]", "[2 2 1]/[2 4 2]"}},
		// Fig. 4: c1 [0,1], e1 [0,1]; c2 [0,2], e2 [0,2]; c3 [1,0], e3
		// [1,2]; c4 [2,2], e4 [2,2].
		{"fig4", fig4, picks(2, 2, 1, 1), []string{
			"[0 1]/[0 1]", "[0 2]/[0 2]", "[1 0]/[1 2]", "[2 2]/[2 2]"}},
		// Fig. 5: c1 [1,0], e1 [1,0]; c2 [0,1], e2 [1,1]; T1 is signalled
		// (its clock becomes [1,1]); c3 [2,1], e3 [2,1]. Wait, Signal and
		// Exit are no events.
		{"fig5", fig5, picks(1, 1, 2, 2, 2, 1, 1), []string{
			"[1 0]/[1 0]", "-/-", "[0 1]/[1 1]", "-/-", "-/-", "[2 1]/[2 1]", "-/-"}},
	} {
		s := runScript(t, c.body, c.script...)
		var got []string
		for _, st := range s.stamps[:len(c.want)] {
			f := func(v []uint32) string {
				if v == nil {
					return "-"
				}
				return fmt.Sprint(v[1:]) // without the body's component
			}
			got = append(got, f(st.Send)+"/"+f(st.Recv))
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%s: timestamps %v, want %v", c.name, got, c.want)
		}
	}
}

// TestFigures: the number of SYN-sequences of each figure's program, each
// exercised once, and the same as exhaustive search's: Fig. 1, the paper's
// 4 sequences in 4 runs. The paper gives no count for the others (their
// figures show one execution each): Fig. 2 and Fig. 3 have 3 (r1 takes s1
// or s2, and in Fig. 3 r3 then s3 or s4, T2 waiting forever on a closed
// guard in two of them: deadlocks), Fig. 4 2 (who takes s first), Fig. 5
// 2 (if T2 enters first, T1 waits for a signal that never comes).
func TestFigures(t *testing.T) {
	for _, c := range []struct {
		name            string
		body            func(*weft.T)
		seqs, deadlocks int
	}{
		{"fig1", body("reach-fig1", nil), 4, 0},
		{"fig2", fig2, 3, 0},
		{"fig3", fig3, 3, 2},
		{"fig4", fig4, 2, 0},
		{"fig5", fig5, 2, 1},
	} {
		r, s := explore(t, c.body, reach.Options{})
		st := s.Stats()
		if r.Executions != c.seqs || st.Partial != 0 || st.Retries != 0 || r.FailureCounts[trace.Deadlock] != c.deadlocks || len(r.FailureCounts) > min(c.deadlocks, 1) {
			t.Errorf("%s: %d runs (%+v), failures %v; want %d, %d deadlocks", c.name, r.Executions, st, r.FailureCounts, c.seqs, c.deadlocks)
		}
		cmp, ok := compare(t, c.body, reach.Options{}, 0)
		if !ok || !cmp.ok() || cmp.want != c.seqs {
			t.Errorf("%s: %v", c.name, cmp)
		}
	}
}
