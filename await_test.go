// This file checks w.Await, w.Yield and w.Assume: what blocks, what a
// spin that can never end reports, what an assumption that does not hold
// does to the counts, and every complete strategy against exhaustive
// search on programs that use them.

package weft_test

import (
	"fmt"
	"maps"
	"path/filepath"
	"strings"
	"testing"

	"github.com/weft-go/weft"
	"github.com/weft-go/weft/internal/long"
	"github.com/weft-go/weft/programs"
	"github.com/weft-go/weft/trace"
)

// TestAssume checks that an assumption that does not hold ends the
// execution as assumed away, counted apart (Result.Assumed) and shown in
// the summary, and that the strategies that reduce still explore the
// other thread's steps it prevented. T1 stores x = 1; T2 loads x and
// assumes it is 1, then fails: of the two orders, the load first is
// assumed away, the store first fails. In "prefix", T1 assumes x = 1,
// which no thread writes, and T2 fails after its store: T1's load first
// is assumed away, T2's store first fails; the two steps commute, and only
// the end of the assumed execution races with T2's store.
func TestAssume(t *testing.T) {
	bodies := map[string]func(w *weft.T){
		"order": func(w *weft.T) {
			x := weft.NewVar[int]("x")
			w.Go(func() { x.Store(1) })
			w.Go(func() {
				w.Assume(x.Load() == 1)
				w.Fail("reached")
			})
		},
		"prefix": func(w *weft.T) {
			x, y := weft.NewVar[int]("x"), weft.NewVar[int]("y")
			w.Go(func() { w.Assume(x.Load() == 1) })
			w.Go(func() {
				y.Store(1)
				w.Fail("reached")
			})
		},
	}
	for name, body := range bodies {
		for _, s := range []string{"exhaustive", "optimal", "dpor", "dpor+sleep", "flip"} {
			r, err := weft.Explore(body, weft.WithStrategy(s), weft.KeepGoing())
			if err != nil {
				t.Fatal(err)
			}
			if !r.Exhausted || r.Executions != 2 || r.Complete != 0 || r.Cut != 0 || r.Assumed != 1 ||
				!maps.Equal(r.FailureCounts, map[trace.FailureKind]int{trace.Assertion: 1}) {
				t.Errorf("%s, %s: %d executions (%d complete, %d cut, %d assumed, failures %v, exhausted %v), want 2: 1 assumed away, 1 assertion",
					name, s, r.Executions, r.Complete, r.Cut, r.Assumed, r.FailureCounts, r.Exhausted)
			}
		}
	}
}

// TestAssumeSummary checks the summary line of an exploration with
// executions assumed away.
func TestAssumeSummary(t *testing.T) {
	r, err := weft.Explore(func(w *weft.T) {
		x := weft.NewVar[int]("x")
		w.Go(func() { x.Store(1) })
		w.Assume(x.Load() == 1)
	}, weft.WithStrategy("exhaustive"))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := weft.SummaryOf(r), "executions 2 (complete 1, cut 0, assumed away 1, failing 0)"; !strings.Contains(got, want) {
		t.Errorf("summary %q, want it to say %q", got, want)
	}
}

// TestAwaitMisuse checks that a condition of w.Await that does more than
// load variables fails the execution with a panic that says so.
func TestAwaitMisuse(t *testing.T) {
	for name, c := range map[string]struct {
		body func(w *weft.T)
		msg  string
	}{
		"store": {func(w *weft.T) {
			x := weft.NewVar[int]("x")
			w.Await(func() bool { x.Store(1); return true })
		}, "weft: the condition of w.Await did store x: it may only load variables"},
		"yield": {func(w *weft.T) {
			w.Await(func() bool { w.Yield(); return true })
		}, "weft: w.Yield in the condition of w.Await"},
		"await": {func(w *weft.T) {
			w.Await(func() bool { w.Await(func() bool { return true }); return true })
		}, "weft: w.Await in the condition of w.Await"},
		"lock": {func(w *weft.T) {
			var mu weft.Mutex
			w.Await(func() bool { mu.Lock(); return true })
		}, "weft: the condition of w.Await did lock mutex#0: it may only load variables"},
		"spawn": {func(w *weft.T) {
			x := weft.NewVar[int]("x")
			w.Await(func() bool { w.Go(func() { x.Store(1) }); return true })
		}, "weft: the condition of w.Await started a thread: it may only load variables"},
	} {
		r, err := weft.Explore(c.body, weft.WithStrategy("exhaustive"), weft.KeepGoing())
		if err != nil {
			t.Fatal(err)
		}
		if len(r.Failures) != 1 || r.Failures[0].Kind != trace.Panic || !strings.Contains(r.Failures[0].Message, c.msg) || r.Executions != 1 {
			t.Errorf("%s: %d executions, failures %v; want 1, a panic %q", name, r.Executions, r.FailureCounts, c.msg)
			for _, f := range r.Failures {
				t.Log(f.Message)
			}
		}
	}
}

// TestYieldTurns checks what w.Yield does after each kind of turn, in one
// thread: after loads (or a failed CompareAndSwap, which only read) that
// the thread's next operation starts again (a loop), it waits for good on
// the variables read from there (none is written: a deadlock naming
// them); after loads that the next operation does not repeat, or a step
// of another kind, it does
// nothing; after nothing at all since the previous Yield it continues
// that one's pause, as a back-off's Yields in a row do, unless the loop
// does nothing but yield (MaxIdleYields in a row): then it blocks for
// good; the first Yield of a thread that made no step does nothing.
func TestYieldTurns(t *testing.T) {
	for name, c := range map[string]struct {
		body    func(w *weft.T)
		events  int64
		blocked string // the deadlock's message, or "" for a complete execution
	}{
		"loads": {func(w *weft.T) {
			x, y := weft.NewVar[int]("x"), weft.NewVar[int]("y")
			x.Store(1)
			for x.Load()+y.Load() != 0 && x.Load() == 1 {
				w.Yield()
			}
		}, 4, "T0 blocked in a busy-wait loop (w.Yield), waiting for a write of x, y"},
		"loads before the loop": {func(w *weft.T) {
			x, y := weft.NewVar[int]("x"), weft.NewVar[int]("y")
			x.Store(1)
			y.Load()
			for x.Load() == 1 {
				w.Yield()
			}
		}, 3, "T0 blocked in a busy-wait loop (w.Yield), waiting for a write of x"},
		"loads, no loop": {func(w *weft.T) {
			x, y := weft.NewVar[int]("x"), weft.NewVar[int]("y")
			x.Load()
			w.Yield()
			y.Store(1)
		}, 2, ""},
		"store": {func(w *weft.T) {
			x := weft.NewVar[int]("x")
			x.Load()
			x.Store(1)
			w.Yield()
		}, 2, ""},
		"swaps": {func(w *weft.T) {
			x := weft.NewVar[int]("x")
			for range 3 {
				x.Swap(1)
				w.Yield()
			}
		}, 3, ""},
		"nothing": {func(w *weft.T) {
			x := weft.NewVar[int]("x")
			x.Store(1)
			w.Yield()
			w.Yield()
			w.Yield()
			x.Store(2)
		}, 2, ""},
		"only yields": {func(w *weft.T) {
			x := weft.NewVar[int]("x")
			x.Store(1)
			for {
				w.Yield()
			}
		}, 1, "T0 blocked in a busy-wait loop (w.Yield), which reads no variable (it can never move)"},
		"failed cas": {func(w *weft.T) {
			x := weft.NewVar[int]("x")
			x.Store(1)
			for !x.CompareAndSwap(0, 2) {
				w.Yield()
			}
		}, 2, "T0 blocked in a busy-wait loop (w.Yield), waiting for a write of x"},
		"first": {func(w *weft.T) {
			w.Yield()
			weft.NewVar[int]("x").Store(1)
		}, 1, ""},
	} {
		r, err := weft.Explore(c.body, weft.WithStrategy("exhaustive"), weft.KeepGoing())
		if err != nil {
			t.Fatal(err)
		}
		switch {
		case c.blocked == "" && (r.Executions != 1 || r.Complete != 1 || r.Events != c.events):
			t.Errorf("%s: %d executions (%d complete, failures %v), %d events; want 1 complete, %d events", name, r.Executions, r.Complete, r.FailureCounts, r.Events, c.events)
		case c.blocked != "" && (r.Executions != 1 || len(r.Failures) != 1 || r.Failures[0].Kind != trace.Deadlock ||
			!strings.Contains(r.Failures[0].Message, c.blocked) || r.Events != c.events):
			t.Errorf("%s: %d executions, failures %v, %d events; want 1, a deadlock %q, %d events", name, r.Executions, r.FailureCounts, r.Events, c.blocked, c.events)
			for _, f := range r.Failures {
				t.Log(f.Message)
			}
		}
	}
}

// TestYieldBackoff checks a spin lock with back-off (the loser of a
// failed CompareAndSwap yields several times before it tries again), as
// goroutine pools write theirs with runtime.Gosched: the first Yield after
// the failed CompareAndSwap waits for a write of the lock, the others in a
// row continue its pause, and every execution of two threads that take
// the lock and release it completes. Optimal's 4: either thread takes
// the lock first, and the other's first CompareAndSwap comes before or
// after the release.
func TestYieldBackoff(t *testing.T) {
	body := func(w *weft.T) {
		var lock, n weft.Int[int32]
		take := func() {
			for !lock.CompareAndSwap(0, 1) {
				for range 3 {
					w.Yield()
				}
			}
			n.Add(1)
			lock.Store(0)
		}
		th := w.Go(take)
		take()
		th.Join()
		w.Assert(n.Load() == 2, "lost update")
	}
	for strategy, want := range map[string]int{"optimal": 4, "exhaustive": 6} {
		r, err := weft.Explore(body, weft.WithStrategy(strategy), weft.KeepGoing())
		if err != nil {
			t.Fatal(err)
		}
		if len(r.Failures) != 0 || r.Executions != want {
			t.Errorf("%s: %d executions, failures %v; want %d, none", strategy, r.Executions, r.FailureCounts, want)
			for _, f := range r.Failures {
				t.Log(f.Message)
			}
		}
	}
}

// TestSpinNeverEnds checks a spin that can never end: two threads take a
// test-and-test-and-set lock that the winner never releases, and the body
// joins both. Every execution deadlocks, with the loser waiting in its
// loop (or w.Await) for a write of the lock, which the report names; with
// w.Await each is counted as blocked in an await (Result.AwaitBlocked).
// Optimal's 4 traces: either thread wins; the loser's first load reads
// the lock free (before the winner's CompareAndSwap; its own then fails
// and it loads again) or taken. Exhaustive search counts interleavings.
func TestSpinNeverEnds(t *testing.T) {
	for _, await := range []bool{false, true} {
		want := map[string]int{"exhaustive": 11, "optimal": 4, "dpor": 6, "dpor+sleep": 6}
		if await {
			// The loser's await is one event: 8 interleavings.
			want = map[string]int{"exhaustive": 8, "optimal": 4, "dpor": 6, "dpor+sleep": 4}
		}
		body := func(w *weft.T) {
			held := weft.NewVar[int]("held")
			var ths []*weft.Thread
			for range 2 {
				ths = append(ths, w.Go(func() {
					for {
						programs.WaitUntil(w, await, func() bool { return held.Load() == 0 })
						if held.CompareAndSwap(0, 1) {
							return
						}
					}
				}))
			}
			for _, th := range ths {
				th.Join()
			}
		}
		waiting := "blocked in a busy-wait loop (w.Yield), waiting for a write of held"
		if await {
			waiting = "blocked in w.Await, waiting for a write of held"
		}
		for name, n := range want {
			r, err := weft.Explore(body, weft.WithStrategy(name), weft.KeepGoing())
			if err != nil {
				t.Fatal(err)
			}
			blocked := 0 // a loop that yields is no w.Await
			if await {
				blocked = n
			}
			if r.Executions != n || !finished(r) || !maps.Equal(r.FailureCounts, map[trace.FailureKind]int{trace.Deadlock: n}) || r.AwaitBlocked != blocked {
				t.Errorf("await=%v, %s: %d executions, failures %v, %d blocked in an await; want %d deadlocks, %d blocked", await, name, r.Executions, r.FailureCounts, r.AwaitBlocked, n, blocked)
				continue
			}
			msg := r.Failures[0].Message
			if !strings.Contains(msg, "T0 blocked on join") || !(strings.Contains(msg, "T1 "+waiting) || strings.Contains(msg, "T2 "+waiting)) {
				t.Errorf("await=%v, %s: the deadlock says %q; want the body blocked on join and a thread %q", await, name, msg, waiting)
			}
		}
	}
}

// awaitCases are programs with awaits, busy-wait loops and assumptions,
// with exhaustive search's counts (soundnessCase): every complete
// strategy must find the same maximal traces, failing (and assumed-away)
// ones and outcomes, in every order, and optimal run one execution per
// trace.
var awaitCases = []soundnessCase{
	// T1 waits for both writes: its await is one event after both, which
	// commute: 1 trace. Optimal tries the await before each write, which
	// no evaluation saw, and cuts.
	{name: "await-two-writers", body: func(w *weft.T) {
		x, y := weft.NewVar[int]("x"), weft.NewVar[int]("y")
		w.Go(func() {
			w.Await(func() bool { return x.Load() == 1 && y.Load() == 1 })
			w.Assert(x.Load()+y.Load() == 2, "woken early")
		})
		w.Go(func() { x.Store(1) })
		w.Go(func() { y.Store(1) })
	}, traces: 1, outcomes: 1, mayCut: true},
	// A flag set under a lock, waited for by a loop that yields, then the
	// lock taken by the waiter: one trace, as with w.Await (a load of the
	// flag before it is set is a failed turn, assumed away).
	{name: "yield-then-lock", body: func(w *weft.T) {
		var mu weft.Mutex
		flag, v := weft.NewVar[int]("flag"), weft.NewVar[int]("v")
		w.Go(func() {
			for flag.Load() == 0 {
				w.Yield()
			}
			mu.Lock()
			w.Assert(v.Load() == 2, "v = %d", v.Load())
			mu.Unlock()
		})
		w.Go(func() {
			mu.Lock()
			v.Store(1)
			flag.Store(1)
			v.Store(2)
			mu.Unlock()
		})
	}, traces: 1, outcomes: 1},
	// A wait for a value sent over a channel, that may never come: the
	// receiver stores what it got, the waiter waits for 2.
	{name: "await-never", body: func(w *weft.T) {
		c := weft.MakeChan[int](1)
		x := weft.NewVar[int]("x")
		w.Go(func() { c.Send(1) })
		w.Go(func() { c.Send(2) })
		w.Go(func() { x.Store(c.Recv()) })
		w.Await(func() bool { return x.Load() == 2 })
	}, traces: 2, outcomes: 1, kinds: "deadlock"},
	// A spin lock that only swaps, yielding after each failed
	// CompareAndSwap (which only read: the loop waits for a write of the
	// lock), taken by two threads that each increment a counter under it:
	// either thread first, the other's CompareAndSwap after the first one's
	// release (one before it is a failed turn, assumed away).
	{name: "yield-cas", body: func(w *weft.T) {
		held, n := weft.NewVar[int]("held"), weft.NewVar[int]("n")
		var ths []*weft.Thread
		for range 2 {
			ths = append(ths, w.Go(func() {
				for !held.CompareAndSwap(0, 1) {
					w.Yield()
				}
				n.Store(n.Load() + 1)
				held.Store(0)
			}))
		}
		for _, th := range ths {
			th.Join()
		}
		w.Assert(n.Load() == 2, "n = %d", n.Load())
	}, traces: 2, outcomes: 1},
	// A loop that yields whose turn loads two variables: it ends when it
	// read x = 0 and then y = 1, which no state holds at once (the writer
	// stores x, then y) but a turn whose loads the writer's stores
	// separate sees. Its turns are steps, load by load, not one
	// evaluation: the assertion after the loop is reached (with w.Await
	// it would not be). A turn that read x = 1 waits for good: a
	// deadlock.
	{name: "yield-torn", body: func(w *weft.T) {
		x, y := weft.NewVar[int]("x"), weft.NewVar[int]("y")
		w.Go(func() {
			x.Store(1)
			y.Store(1)
		})
		for !(x.Load() == 0 && y.Load() == 1) {
			w.Yield()
		}
		w.Fail("read x = 0, then y = 1")
	}, traces: 1, outcomes: 0, kinds: "assertion,deadlock"},
	// Assumptions in two threads, one of them before a failure.
	{name: "assume-two", body: func(w *weft.T) {
		x, y := weft.NewVar[int]("x"), weft.NewVar[int]("y")
		w.Go(func() {
			x.Store(1)
			w.Assume(y.Load() == 0)
			w.Fail("y = 0 after x = 1")
		})
		w.Go(func() {
			y.Store(1)
			w.Assume(x.Load() == 1)
		})
	}, traces: 0, outcomes: 0, kinds: "assertion"},
}

// The spin locks of spinlocks_test.go for two threads, both ways: 4, 4
// and 6 traces with loops that yield as with awaits (optimal may cut
// there: spinlocks_test.go); Peterson's
// and Dekker's end with either turn. checkSound takes seconds on each: by
// default it checks Peterson's lock with awaits and the
// test-and-test-and-set lock with yields, WEFT_LONG=1 all six.
func init() {
	for _, c := range []struct {
		name             string
		traces, outcomes int
		awaitTraces      int
		quick            bool // the way of waiting checkSound checks by default (Dekker's: none)
	}{{"peterson", 4, 2, 4, true}, {"dekker", 4, 2, 4, false}, {"ttas", 6, 1, 6, false}} {
		l := programs.SpinLockNamed(c.name, 2)
		for _, await := range []bool{false, true} {
			tc := soundnessCase{name: fmt.Sprintf("%s/await=%v", c.name, await), body: l.Body(await),
				traces: c.traces, outcomes: c.outcomes, long: c.name == "dekker" || await != c.quick}
			if await {
				tc.traces, tc.mayCut = c.awaitTraces, true
			}
			awaitCases = append(awaitCases, tc)
		}
	}
}

// TestAwaitSound checks every complete strategy against exhaustive search
// on awaitCases, in every order.
func TestAwaitSound(t *testing.T) {
	t.Parallel()
	for _, tc := range awaitCases {
		t.Run(tc.name, func(t *testing.T) { checkSound(t, tc) })
	}
}

// TestAwaitModel checks the runtime against package model (model_test.go)
// on awaitCases and on the spin locks for three threads (at most 2000
// executions each, 20000 with WEFT_LONG=1). The filter lock with awaits
// and the test-and-test-and-set lock, seconds each, run with WEFT_LONG=1
// only.
func TestAwaitModel(t *testing.T) {
	t.Parallel()
	for _, c := range awaitCases {
		checkModel(t, c.name, c.body, 20000)
	}
	for _, l := range programs.SpinLocks() {
		l.Threads = 3
		for _, await := range []bool{false, true} {
			if !long.Enabled() && (l.Name == "ttas" || l.Name == "filter" && await) {
				continue
			}
			checkModel(t, fmt.Sprintf("%s3/await=%v", l.Name, await), l.Body(await), long.N(2000, 20000))
		}
	}
}

// TestAwaitLocations checks that a report shows an await's step at the
// program's w.Await, and a thread blocked in a busy-wait loop where it
// calls w.Yield, with the variables it waits for.
func TestAwaitLocations(t *testing.T) {
	var storeLine, awaitLine, loadLine, yieldLine int
	body := func(w *weft.T) {
		x, y := weft.NewVar[int]("x"), weft.NewVar[int]("y")
		storeLine = line() + 1
		w.Go(func() { x.Store(1) })
		awaitLine = line() + 1
		w.Await(func() bool { return x.Load() == 1 })
		loadLine = line() + 1
		for y.Load() == 0 {
			yieldLine = line() + 1
			w.Yield()
		}
	}
	r, err := weft.Explore(body, weft.WithStrategy("exhaustive"), weft.KeepGoing(), weft.NoReplayFiles())
	if err != nil || r.Executions != 1 || len(r.Failures) != 1 || r.Failures[0].Kind != trace.Deadlock {
		t.Fatalf("Explore: %v, %d executions, failures %v; want 1, a deadlock", err, r.Executions, r.FailureCounts)
	}
	f := r.Failures[0]
	var got []string
	for _, s := range f.Steps {
		got = append(got, fmt.Sprintf("%v %s %s:%d", s.Thread, s.Op, filepath.Base(s.File), s.Line))
	}
	for _, b := range f.Blocked {
		got = append(got, fmt.Sprintf("blocked: %v %s %s:%d", b.Thread, b.Op, filepath.Base(b.File), b.Line))
	}
	// The await is blocked until T1 stores: the only execution. Its
	// condition's loads are no steps. The loop's turn is the load of y
	// alone, after the Await returned.
	want := []string{
		fmt.Sprintf("T1 store x = 1 await_test.go:%d", storeLine),
		fmt.Sprintf("T0 await x await_test.go:%d", awaitLine),
		fmt.Sprintf("T0 load y = 0 await_test.go:%d", loadLine),
		fmt.Sprintf("blocked: T0 yield y await_test.go:%d", yieldLine),
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("report:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
