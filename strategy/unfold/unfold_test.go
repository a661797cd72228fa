// Tests on synthetic programs (strategytest): Kähkönen et al. 2014's small examples
// with their exact numbers, threads started inside threads, and the order
// independence of the unfolding.

package unfold

import (
	"math/rand/v2"
	"testing"

	"github.com/weft-go/weft/internal/long"
	"github.com/weft-go/weft/strategy/strategytest"
	"github.com/weft-go/weft/trace"
)

// Statement shorthands.
var (
	load  = func(v int) strategytest.Stmt { return strategytest.Stmt{Kind: strategytest.Load, Obj: v} }
	store = func(v, val int) strategytest.Stmt {
		return strategytest.Stmt{Kind: strategytest.Store, Obj: v, Val: val}
	}
	spawn = func(body ...strategytest.Stmt) strategytest.Stmt {
		return strategytest.Stmt{Kind: strategytest.Spawn, Body: body}
	}
)

// run explores p with unfold and with exhaustive search, checks that the
// unfolding is the one of every interleaving, and returns unfold's
// statistics.
func run(t *testing.T, p *strategytest.Program, o Options) (*strategytest.Result, Stats) {
	t.Helper()
	obs := newObserver()
	if _, err := strategytest.Run(obs, p, 0); err != nil || obs.u.Err() != nil {
		t.Fatalf("exhaustive: %v %v", err, obs.u.Err())
	}
	s := New(o)
	r, err := strategytest.Run(s, p, 0)
	if err != nil || s.Err() != nil || !r.Exhausted {
		t.Fatalf("unfold: %v %v (exhausted %v)", err, s.Err(), r.Exhausted)
	}
	want, got := obs.u.signatures(), s.signatures()
	if d := diff(got, want, "unfold", "exhaustive"); d != "" || len(got) != len(want) {
		t.Errorf("%d events, want %d (the unfolding of every interleaving):\n%s", len(got), len(want), d)
	}
	return r, s.Stats()
}

// check compares the numbers of events and tests with the expected ones.
func check(t *testing.T, name string, st Stats, events, tests int) {
	t.Helper()
	if st.Events != events || st.Tests != tests || st.Unexpected != 0 || st.Pending != 0 {
		t.Errorf("%s: %d events, %d tests (%d unexpected, %d pending); want %d events, %d tests", name, st.Events, st.Tests, st.Unexpected, st.Pending, events, tests)
	}
}

// TestFig2: two threads read x and write y (Kähkönen et al. 2014, Fig. 2): 2 traces, 6
// events (two reads, and for each order of the writes two write events),
// 2 tests.
func TestFig2(t *testing.T) {
	p := &strategytest.Program{Vars: 2, Threads: [][]strategytest.Stmt{
		{load(0), store(1, 1)},
		{load(0), store(1, 2)},
	}}
	r, st := run(t, p, Options{})
	check(t, "fig 2", st, 6, 2)
	if len(r.Traces) != 2 {
		t.Errorf("%d traces, want 2", len(r.Traces))
	}
}

// TestFig9 is Example 2 without its input (Kähkönen et al. 2014, Fig. 9): T1 reads x;
// T2 reads x, then writes it. The first test adds events 1, 2, 3 (T1's
// read, T2's read, T2's write after T1's read) and leaves extension 4 (the
// write before T1's read); the second runs T2's two steps and adds 4 and 5
// (T1 reading the write). 5 events, 2 tests; the paper's two events of
// the symbolic branch, and its third test, need the input.
func TestFig9(t *testing.T) {
	p := &strategytest.Program{Vars: 1, Threads: [][]strategytest.Stmt{
		{load(0)},
		{load(0), store(0, 1)},
	}}
	s := New(Options{})
	r, err := strategytest.Run(s, p, 1)
	if err != nil {
		t.Fatal(err)
	}
	if st := s.Stats(); st.Events != 3 || st.Pending != 1 || r.Schedules[0] != "122" {
		t.Errorf("after the first test: %d events, %d extensions, schedule %v; want 3, 1, 122", st.Events, st.Pending, r.Schedules)
	}
	r, st := run(t, p, Options{})
	check(t, "fig 9", st, 5, 2)
	if r.Schedules[1] != "221" {
		t.Errorf("second test ran %s, want 221 (T2's read and write, then T1)", r.Schedules[1])
	}
}

// TestJCUTE: one thread writes x, two read it (Kähkönen et al. 2014, §6.1, the program
// jCUTE misses): 4 traces, 10 events, 4 tests (the four write events are
// pairwise in conflict: one per subset of the reads before it).
func TestJCUTE(t *testing.T) {
	p := &strategytest.Program{Vars: 1, Threads: [][]strategytest.Stmt{
		{store(0, 1)},
		{load(0)},
		{load(0)},
	}}
	r, st := run(t, p, Options{})
	check(t, "jcute", st, 10, 4)
	if len(r.Traces) != 4 {
		t.Errorf("%d traces, want 4", len(r.Traces))
	}
}

// TestPairsSynthetic: n reader/writer pairs (Kähkönen et al. 2014, Fig. 3): 4n events;
// 2 tests with the greedy free part, n+1 without it in thread order.
// Up to 3 pairs the unfolding is compared with that of every interleaving.
func TestPairsSynthetic(t *testing.T) {
	for n := 1; n <= 10; n++ {
		p := &strategytest.Program{Vars: n}
		for i := range n {
			p.Threads = append(p.Threads, []strategytest.Stmt{load(i)}, []strategytest.Stmt{store(i, 1)})
		}
		for _, o := range []Options{{}, {Plain: true}} {
			var st Stats
			if n <= 3 {
				_, st = run(t, p, o)
			} else {
				s := New(o)
				if _, err := strategytest.Run(s, p, 0); err != nil || s.Err() != nil {
					t.Fatal(err, s.Err())
				}
				st = s.Stats()
			}
			tests := 2
			if o.Plain {
				tests = n + 1
			}
			check(t, "pairs", st, 4*n, tests)
		}
	}
}

// TestSpawnInThreads: threads that threads start (every goroutine is
// started at run time; Kähkönen et al. 2014, §4.5 leaves it open). A thread's copy of a
// variable is made when it first wants the variable, in every write of
// the unfolding so far (the paper's first option): the unfolding is that
// of every interleaving. In the first program, the 8 events are T1's write
// before T2's and after it; T2's write before T1's, after T1's and before
// T3's read, and after both; and T3's read of T1's write with T2's not
// run, of T2's write run after T1's, and of T1's write run after T2's.
func TestSpawnInThreads(t *testing.T) {
	join := func(i int) strategytest.Stmt { return strategytest.Stmt{Kind: strategytest.Join, Obj: i} }
	spawnJoined := func(body ...strategytest.Stmt) strategytest.Stmt {
		return strategytest.Stmt{Kind: strategytest.Spawn, Body: body, Joined: true}
	}
	for _, c := range []struct {
		name          string
		p             *strategytest.Program
		events, tests int
	}{
		// T1 writes x and starts T3, which reads it; T2 writes x.
		{"read by a child", &strategytest.Program{Vars: 1, Threads: [][]strategytest.Stmt{
			{store(0, 1), spawn(load(0))},
			{store(0, 2)},
		}}, 8, 3},
		// T1 starts T3 (reads x, writes y) and reads y; T2 writes x and
		// starts T4, which reads y.
		{"children of two threads", &strategytest.Program{Vars: 2, Threads: [][]strategytest.Stmt{
			{spawn(load(0), store(1, 1)), load(1)},
			{store(0, 2), spawn(load(1))},
		}}, 23, 8},
		// Nested: T1 starts T2, which starts T3; each reads x after the
		// previous wrote it; the main thread writes x concurrently. The
		// children are joined.
		{"nested and joined", &strategytest.Program{Vars: 1, Threads: [][]strategytest.Stmt{
			{store(0, 1), spawnJoined(load(0), store(0, 2), spawnJoined(load(0))), load(0)},
		}, Main: []strategytest.Stmt{store(0, 3), join(0)}}, 91, 14},
	} {
		_, st := run(t, c.p, Options{})
		check(t, c.name, st, c.events, c.tests)
	}
}

// lockProgram returns a random program of nested critical sections,
// unreleased locks and joins: deadlock-prone, unlike the generator's.
func lockProgram(r *rand.Rand) *strategytest.Program {
	m := 2 + r.IntN(2)
	p := &strategytest.Program{Vars: 1, Mutexes: m}
	section := func(a int, body ...strategytest.Stmt) strategytest.Stmt {
		return strategytest.Stmt{Kind: strategytest.Lock, Obj: a, Body: body}
	}
	threads := 2 + r.IntN(2)
	for range threads {
		var th []strategytest.Stmt
		for range 1 + r.IntN(2) {
			a, b := r.IntN(m), r.IntN(m)
			switch r.IntN(5) {
			case 0:
				th = append(th, strategytest.Stmt{Kind: strategytest.Acquire, Obj: a})
			case 1:
				th = append(th, section(a, store(0, 1)))
			case 2:
				th = append(th, strategytest.Stmt{Kind: strategytest.TryLock, Obj: a, Val: 0, Body: []strategytest.Stmt{load(0)}})
			default:
				if a == b {
					b = (a + 1) % m
				}
				th = append(th, section(a, load(0), section(b, store(0, 2))))
			}
		}
		p.Threads = append(p.Threads, th)
	}
	for i := range threads {
		if r.IntN(2) == 0 {
			p.Main = append(p.Main, strategytest.Stmt{Kind: strategytest.Join, Obj: i})
		}
	}
	return p
}

// TestDeadlocks: every deadlock of exhaustive search (the threads blocked
// at the end of an execution that deadlocks or leaks) holds a deadlock
// unfold found, by its search of the unfolding (§4.4: a cycle of threads
// each wanting the mutex the next holds, or a thread wanting a mutex a
// finished thread holds) or by running into it; and unfold reports one
// when exhaustive search does. On Kähkönen et al. 2014's dining philosophers and on
// random programs of nested critical sections.
func TestDeadlocks(t *testing.T) {
	t.Parallel()
	section := func(a int, body ...strategytest.Stmt) strategytest.Stmt {
		return strategytest.Stmt{Kind: strategytest.Lock, Obj: a, Body: body}
	}
	dining := func(n int) *strategytest.Program {
		p := &strategytest.Program{Mutexes: n}
		for i := range n {
			p.Threads = append(p.Threads, []strategytest.Stmt{section(i, section((i+1)%n))})
		}
		return p
	}
	programs := []*strategytest.Program{dining(2), dining(3),
		// A thread ends holding m0 that the other wants.
		{Mutexes: 1, Threads: [][]strategytest.Stmt{
			{{Kind: strategytest.Acquire, Obj: 0}},
			{section(0)},
		}},
	}
	rnd := rand.New(rand.NewPCG(7, 8))
	n := 150
	if !long.Enabled() {
		n = 40
	}
	for range n {
		programs = append(programs, lockProgram(rnd))
	}
	deadlocking, checked := 0, 0
	for i, p := range programs {
		obs := newObserver()
		r, err := strategytest.Run(obs, p, 4000)
		if err != nil || obs.u.Err() != nil {
			t.Fatalf("program %d: exhaustive: %v %v", i, err, obs.u.Err())
		}
		if !r.Exhausted {
			continue // too many interleavings
		}
		checked++
		s := New(Options{})
		r2, err := strategytest.Run(s, p, 0)
		if err != nil || s.Err() != nil {
			t.Fatalf("program %d: %v %v", i, err, s.Err())
		}
		blocked := r.Failures[trace.Deadlock] + r.Failures[trace.Leak]
		found := r2.Failures[trace.Deadlock] + r2.Failures[trace.Leak]
		if blocked > 0 {
			deadlocking++
		}
		if missed, ok := covers(s.deadlockSigs(false), obs.u.deadlockSigs(false)); !ok || (blocked > 0) != (found > 0) {
			t.Errorf("program %d: exhaustive %v, unfold %v (%+v); a deadlock unfold misses: %v\n%v", i, r.Failures, r2.Failures, s.Stats(), missed, p)
		}
	}
	if deadlocking < checked/4 || checked < len(programs)/2 {
		t.Errorf("%d of %d programs checked, %d deadlock: too few to test", checked, len(programs), deadlocking)
	}
	t.Logf("%d programs checked, %d deadlock", checked, deadlocking)
}
