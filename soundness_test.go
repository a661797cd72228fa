// This file checks every strategy that claims completeness against
// exhaustive search on hand-written programs over the operations that
// observe a primitive's state without blocking (try-operations, a select
// with default, Len, a timer's Stop and Reset) or change it in a way others
// observe (RLock, RUnlock, WaitGroup counters, a Once whose function
// panics), in every random exploration order 0-9: an outcome missed there is
// missed silently, the worst bug a tester can have (issues 17 and 18).

package weft_test

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/weft-go/weft"
	"github.com/weft-go/weft/internal/checktest"
	"github.com/weft-go/weft/internal/long"
	"github.com/weft-go/weft/strategy/optimal"
	"github.com/weft-go/weft/trace"
)

// soundnessOrders is the number of exploration orders each program is
// checked in: 0 (thread order) to soundnessOrders-1.
const soundnessOrders = 10

// soundnessCase is a program with the number of Mazurkiewicz traces (under
// CR) exhaustive search finds, maximal ones (complete, deadlocked or
// leaking) and failing ones apart, and its outcomes.
type soundnessCase struct {
	name string
	body func(w *weft.T)
	// traces is the number of distinct maximal traces; outcomes the
	// distinct final states of complete executions; kinds the failure
	// kinds, sorted.
	traces, outcomes int
	kinds            string
	// mayCut marks a program whose enabledness optimal's model cannot
	// always tell: timers (virtual time), or a w.Await that a reversal
	// moves into a state no evaluation of its condition saw. It may cut
	// executions there (never run a trace twice).
	mayCut bool
	// long marks a case checkSound runs with WEFT_LONG=1 only.
	long bool
}

var soundnessCases = []soundnessCase{
	// A failed TryLock observes the reader count that C's RLock
	// and RUnlock change; A's TryRLock succeeds or fails with B's TryLock.
	// 11 traces (the 7 counted them under the relation that had
	// the bug): B's TryLock succeeds with A's section before, during
	// (A's TryRLock fails) or after B's, and C's before or after: 6; it
	// fails where A or C holds a read lock: the readers' shared updates
	// before it are A's TryRLock alone, or with C's RLock, or with C's
	// whole section, or C's RLock alone, or with A's whole section: 5.
	// Outcomes: A=1 B=1, A=2 B=1, A=1 B=2.
	{name: "trylock-tryrlock-rlock", body: func(w *weft.T) {
		var rw weft.RWMutex
		a := weft.NewVar[int]("A")
		b := weft.NewVar[int]("B")
		ta := w.Go(func() {
			if rw.TryRLock() {
				a.Store(1)
				rw.RUnlock()
			} else {
				a.Store(2)
			}
		})
		tb := w.Go(func() {
			if rw.TryLock() {
				b.Store(1)
				rw.Unlock()
			} else {
				b.Store(2)
			}
		})
		tc := w.Go(func() { rw.RLock(); rw.RUnlock() })
		ta.Join()
		tb.Join()
		tc.Join()
	}, traces: 11, outcomes: 3},
	// TryLock against a reader: it fails while the
	// reader holds its lock, succeeds before it (then the reader blocks
	// forever: a deadlock) or after: 3 traces, 2 of them complete.
	{name: "trylock-reader", body: func(w *weft.T) {
		var rw weft.RWMutex
		got := weft.NewVar[int]("ok")
		c := w.Go(func() { rw.RLock(); rw.RUnlock() })
		if rw.TryLock() {
			got.Store(1)
		} else {
			got.Store(2)
		}
		c.Join()
	}, traces: 3, outcomes: 2, kinds: "deadlock"},
	// An RUnlock by a thread that holds no read lock
	// fails before the RLock, and succeeds after it.
	{name: "runlock-unheld", body: func(w *weft.T) {
		var rw weft.RWMutex
		a := w.Go(func() { rw.RUnlock() })
		rw.RLock()
		a.Join()
	}, traces: 1, outcomes: 1, kinds: "unlock of unlocked mutex"},
	// T3, holding no read lock, releases one while T1 holds its own (T1
	// tells it when): T1's RUnlock then fails if it comes before T2's
	// RLock. Balanced RUnlocks commute with RLocks only until a thread
	// takes a count it does not hold.
	{name: "runlock-steals", body: func(w *weft.T) {
		var rw weft.RWMutex
		c := weft.MakeChan[int](1)
		t1 := w.Go(func() { rw.RLock(); c.Send(1); rw.RUnlock() })
		t2 := w.Go(func() { rw.RLock() })
		t3 := w.Go(func() { c.Recv(); rw.RUnlock() })
		t1.Join()
		t2.Join()
		t3.Join()
	}, traces: 3, outcomes: 1, kinds: "unlock of unlocked mutex"},
	// A failed Mutex TryLock reads the lock that Lock and Unlock write.
	{name: "mutex-trylock", body: func(w *weft.T) {
		var mu weft.Mutex
		got := weft.NewVar[int]("ok")
		c := w.Go(func() { mu.Lock(); mu.Unlock() })
		if mu.TryLock() {
			got.Store(1)
			mu.Unlock()
		} else {
			got.Store(2)
		}
		c.Join()
	}, traces: 3, outcomes: 2},
	// Two readers, balanced: their RLocks and RUnlocks commute; each
	// reader's section comes before the writer's Lock, overlaps its
	// announcement (the writer waits for it) or comes after its Unlock:
	// 3 x 3 traces.
	{name: "readers-writer", body: func(w *weft.T) {
		var rw weft.RWMutex
		x := weft.NewVar[int]("x")
		r := func() { rw.RLock(); _ = x.Load(); rw.RUnlock() }
		a, b := w.Go(r), w.Go(r)
		rw.Lock()
		x.Store(1)
		rw.Unlock()
		a.Join()
		b.Join()
	}, traces: 9, outcomes: 1},
	// A select with default on a buffered channel observes its length.
	{name: "select-default-buffered", body: func(w *weft.T) {
		c := weft.MakeChan[int](1)
		got := weft.NewVar[int]("got")
		w.Go(func() { c.Send(1) })
		weft.Select(weft.OnRecv(c, func(int, bool) { got.Store(1) }), weft.OnDefault(func() { got.Store(2) }))
	}, traces: 2, outcomes: 2, kinds: ""},
	// Two selects with default never meet on an
	// unbuffered channel (neither waits for a partner): both take their
	// defaults, x is never 1. The two orders are two traces: T1's select
	// offers its send to receivers that wait, which writes the channel.
	{name: "selects-with-default", body: func(w *weft.T) {
		c := weft.MakeChan[int](0)
		x := weft.NewVar[int]("x")
		w.Go(func() { weft.Select(weft.OnSend(c, 1, nil), weft.OnDefault(nil)) })
		weft.Select(weft.OnRecv(c, func(int, bool) { x.Store(1) }), weft.OnDefault(func() { x.Store(2) }))
	}, traces: 2, outcomes: 1},
	// A select with default meets a receiver that waits: the receive
	// blocks until the select comes, or the select finds no receiver
	// and takes its default (then the receive leaks).
	{name: "select-default-meets-waiter", body: func(w *weft.T) {
		c := weft.MakeChan[int](0)
		x := weft.NewVar[int]("x")
		w.Go(func() { c.Recv(); x.Store(1) })
		weft.Select(weft.OnSend(c, 1, nil), weft.OnDefault(func() { x.Store(2) }))
	}, traces: 2, outcomes: 1, kinds: "leak"},
	// Len observes sends and receives.
	{name: "len", body: func(w *weft.T) {
		c := weft.MakeChan[int](2)
		n := weft.NewVar[int]("len")
		a := w.Go(func() { c.Send(1) })
		b := w.Go(func() { c.Send(2); c.Recv() })
		n.Store(c.Len())
		a.Join()
		b.Join()
	}, traces: 12, outcomes: 3},
	// A WaitGroup's counter: a Done before the Add makes it negative.
	{name: "waitgroup-negative", body: func(w *weft.T) {
		var wg weft.WaitGroup
		w.Go(func() { wg.Add(1) })
		w.Go(func() { wg.Done() })
	}, traces: 1, outcomes: 1, kinds: "negative WaitGroup counter"},
	// A Stop observes whether the timer fired: a Stop at 10 before the
	// select with default takes the default, after it finds the timer
	// received.
	{name: "timer-stop", body: func(w *weft.T) {
		tm := weft.NewTimer(10)
		stopped := weft.NewVar[int]("stopped")
		got := weft.NewVar[int]("got")
		w.Go(func() {
			w.Sleep(10)
			if tm.Stop() {
				stopped.Store(1)
			}
		})
		w.Sleep(10)
		weft.Select(weft.OnRecv(tm.C, func(time.Duration, bool) { got.Store(1) }), weft.OnDefault(func() { got.Store(2) }))
	}, traces: 4, outcomes: 2, mayCut: true},
	// A Reset races with the firing of the timer it re-arms: the reader's
	// select may receive the timer's value (due at 1, when the body wakes)
	// before the body's Reset, and then fails; or the Reset comes first and
	// the reader takes done. Optimal missed the failure: its model took
	// the select's receive from the timer to be enabled after the Reset
	// (it does not know the time), reversed the select's race with the
	// close alone, and dropped that reversal as infeasible when its turn
	// came, never trying it before the Reset.
	{name: "timer-reset-select", body: func(w *weft.T) {
		done := weft.MakeChan[int](0)
		tm := weft.NewTimer(1)
		r := w.Go(func() {
			var got bool
			weft.Select(weft.OnRecv(tm.C, func(time.Duration, bool) { got = true }), weft.OnRecv(done, nil))
			if got {
				w.Fail("the timer fired before the Reset")
			}
		})
		w.Sleep(1)
		tm.Reset(2)
		done.Close()
		r.Join()
	}, traces: 1, outcomes: 1, kinds: "assertion", mayCut: true},
	// A Once whose function panics counts as done: the other Do returns
	// at once after it, or runs its own function before it.
	{name: "once-panics", body: func(w *weft.T) {
		var once weft.Once
		x := weft.NewVar[int]("x")
		w.Go(func() { once.Do(func() { x.Store(1); panic("boom") }) })
		w.Go(func() { once.Do(func() { x.Store(2) }) })
	}, traces: 1, outcomes: 1, kinds: "panic"},
	// MonitorCond.Empty observes the waiters that Wait adds and Signal
	// removes: B signals only if A already waits, so A may wait forever
	// (a deadlock) when B looks first: 2 maximal traces, one complete.
	{name: "monitor-empty", body: func(w *weft.T) {
		m := weft.NewMonitor(weft.SC)
		c := m.Cond(0)
		got := weft.NewVar[int]("got")
		a := w.Go(func() { m.Enter(); c.Wait(); got.Store(1); m.Exit() })
		b := w.Go(func() {
			m.Enter()
			if !c.Empty() {
				c.Signal()
			}
			m.Exit()
		})
		a.Join()
		b.Join()
	}, traces: 2, outcomes: 1, kinds: "deadlock"},
	// Optimal and concolic-optimal never ended here (the
	// same execution again and again): the timer fires at 3, before the
	// send at 7, so the select always takes the timer's case. One trace;
	// optimal runs it and cuts the reversal of the select with the send,
	// which virtual time makes infeasible.
	{name: "timer-before-send", body: func(w *weft.T) {
		c := weft.MakeChan[int](1)
		w.Go(func() { w.Sleep(7); c.Send(1) })
		weft.Select(weft.OnRecv(c, func(int, bool) {}), weft.OnRecv(w.After(3), func(time.Duration, bool) {}))
	}, traces: 1, outcomes: 1, mayCut: true},
	// Optimal ran one trace twice on a WaitGroup with
	// selects with default (138 executions for 75 traces in the audit's
	// program, whose exact text was lost; this one has the same parts:
	// senders whose selects fall back to their defaults, a receiver that
	// waits for them or for the end, Done after the select, two Waits). It
	// must run each trace once: 24 traces, x = 0, 1 or 5 at the end.
	{name: "waitgroup-select-default", body: func(w *weft.T) {
		var wg weft.WaitGroup
		c := weft.MakeChan[int](0)
		done := weft.MakeChan[int](0)
		x := weft.NewVar[int]("x")
		wg.Add(2)
		for i := range 2 {
			w.Go(func() {
				weft.Select(weft.OnSend(c, i, func() { x.Store(i) }), weft.OnDefault(func() { x.Store(5) }))
				wg.Done()
			})
		}
		r := w.Go(func() {
			weft.Select(weft.OnRecv(c, func(int, bool) {}), weft.OnRecv(done, func(int, bool) {}))
			wg.Wait()
			x.Load()
		})
		wg.Wait()
		done.Close()
		r.Join()
	}, traces: 24, outcomes: 3},
	// A thread joins a thread it started, then sends on an unbuffered
	// channel: the join's step offers the send to T1's select, which takes
	// its receive case after it and its default before. The sleep-set
	// strategies took T2 for an initial of the reversal of the select with
	// that step, though its join waits for the child, and ran neither T2
	// nor the child first (gen v2 seeds 169, 557, 6109): they missed x =
	// 1. Two traces: the select's default, then T2's send blocked as the
	// body ends (a leak); the select receiving T2's send (x = 1).
	{name: "join-then-send-select-default", body: func(w *weft.T) {
		c := weft.MakeChan[int](0)
		x := weft.NewVar[int]("x")
		y := weft.NewVar[int]("y")
		w.Go(func() {
			weft.Select(weft.OnRecv(c, func(int, bool) { x.Store(1) }), weft.OnDefault(func() { x.Store(2) }))
		})
		w.Go(func() {
			w.Go(func() { y.Store(1) }).Join()
			c.Send(1)
		})
	}, traces: 2, outcomes: 1, kinds: "leak"},
	// A load whose step offers a send (main's) races with a select that
	// can receive it; a store the load reads sleeps where the load ran.
	// Optimal put the select first, without the load, and took that for
	// covered by the sleeping add; but the select after main's load has
	// main's send for a partner, which the add does not change (gen v2
	// seed 8165: the trace where T2 receives T1's send, then main loads 0,
	// was missed).
	{name: "load-offer-select", body: func(w *weft.T) {
		c := weft.MakeChan[int](0)
		v := &weft.Int[int]{Var: *weft.NewVar[int]("v")}
		w.Go(func() { c.Send(1) })
		w.Go(func() { weft.Select(weft.OnRecv(c, func(int, bool) {}), weft.OnSend(c, 1, func() {})) })
		w.Go(func() { v.Add(2) })
		w.Assert(v.Load() != 2, "v == 2")
		c.Send(1)
	}, traces: 3, outcomes: 0, kinds: "assertion,deadlock,leak"},
	// A failing assertion ends the execution while another thread is in
	// Once.Do: its deferred end of Do runs as the thread unwinds and must
	// not overwrite the thread's pending operation in the trace (gen v2
	// seed 661: optimal saw the wrong final operation and cut an
	// execution). v1 == 1 fails where the main thread's Add comes before
	// T3's load and T2's Add after it; every complete execution ends with
	// v1 = 4.
	{name: "once-while-failing", body: func(w *weft.T) {
		v0 := weft.NewVar[int]("v0")
		v1 := &weft.Int[int]{Var: *weft.NewVar[int]("v1")}
		var once weft.Once
		w.Go(func() { w.Assert(v0.Load() != 1, "v0") })
		w.Go(func() { once.Do(func() { v1.Add(3) }) })
		w.Go(func() { w.Assert(v1.Load() != 1, "v1 == 1") })
		v1.Add(1)
	}, traces: 5, outcomes: 1, kinds: "assertion"},
	// Adds whose result is unused (AddOnly) commute with each other and
	// with nothing else of their variable. A and B add 1 and 2; C loads:
	// it sees neither, either or both, 4 traces, r = 0..3.
	{name: "addonly-load", body: func(w *weft.T) {
		x, r := addOnlyPair(w, 1, 2)
		w.Go(func() { r.Store(x.Load()) })
	}, traces: 4, outcomes: 4},
	// C's CompareAndSwap(1, 10) succeeds after exactly one of the adds of
	// 1 (2 traces: after A's, after B's), fails before both or after
	// both: 4 traces; x = 11 or 2 at the end. A strategy that reverses
	// the CAS with one add predicts its outcome from the value after the
	// other add alone (trace.VarValue).
	{name: "addonly-cas", body: func(w *weft.T) {
		x, _ := addOnlyPair(w, 1, 1)
		w.Go(func() { x.CompareAndSwap(1, 10) })
	}, traces: 4, outcomes: 2},
	// An Add whose result is used observes the adds before it: 4 traces,
	// r = 4..7.
	{name: "addonly-add", body: func(w *weft.T) {
		x, r := addOnlyPair(w, 1, 2)
		w.Go(func() { r.Store(x.Add(4)) })
	}, traces: 4, outcomes: 4},
	// A Store overwrites the adds before it: 4 traces, x = 10..13 at the
	// end.
	{name: "addonly-store", body: func(w *weft.T) {
		x, _ := addOnlyPair(w, 1, 2)
		w.Go(func() { x.Store(10) })
	}, traces: 4, outcomes: 4},
	// A Swap returns the sum before it: 4 traces, each r = 0..3 with one
	// x = 13..10.
	{name: "addonly-swap", body: func(w *weft.T) {
		x, r := addOnlyPair(w, 1, 2)
		w.Go(func() { r.Store(x.Swap(10)) })
	}, traces: 4, outcomes: 4},
}

// addOnlyPair makes an Int x and a Var r and starts two threads that add
// a and b to x with AddOnly.
func addOnlyPair(w *weft.T, a, b int) (x *weft.Int[int], r *weft.Var[int]) {
	x = &weft.Int[int]{Var: *weft.NewVar[int]("x")}
	r = weft.NewVar[int]("r")
	w.Go(func() { x.AddOnly(a) })
	w.Go(func() { x.AddOnly(b) })
	return x, r
}

func TestSoundnessTryOperations(t *testing.T) {
	t.Parallel()
	for _, tc := range soundnessCases {
		t.Run(tc.name, func(t *testing.T) {
			checkSound(t, tc)
		})
	}
}

// checkSound compares every complete strategy, in every order, with
// exhaustive search on tc.
func checkSound(t *testing.T, tc soundnessCase) {
	t.Helper()
	if tc.long {
		long.Skip(t, "every strategy in every order on a spin lock, seconds")
	}
	refRes, ref := exploreTraces(t, tc.body, "exhaustive", 0, maxRefRuns)
	if !refRes.Exhausted {
		t.Fatalf("exhaustive search did not finish in %d executions", refRes.Executions)
	}
	refOut, err := exploreRecorded(tc.body, "exhaustive", maxRefRuns)
	if err != nil {
		t.Fatal(err)
	}
	if got := len(ref.maximal); got != tc.traces {
		t.Errorf("exhaustive: %d maximal traces, want %d", got, tc.traces)
	}
	if got := len(ref.finals); got != tc.outcomes {
		t.Errorf("exhaustive: %d outcomes %v, want %d", got, keysSorted(ref.finals), tc.outcomes)
	}
	if got := kindList(ref.kinds); got != tc.kinds {
		t.Errorf("exhaustive: failure kinds %q, want %q", got, tc.kinds)
	}
	for _, name := range append(completeStrategies(), "concolic-optimal") {
		for order := int64(0); order < soundnessOrders; order++ {
			res, got := exploreTraces(t, tc.body, name, order, 10*maxRefRuns)
			var errs []string
			if !finished(res) {
				errs = append(errs, fmt.Sprintf("did not finish in %d executions", res.Executions))
			}
			if d := diffSets(ref.maximal, got.maximal); d != "" {
				errs = append(errs, "maximal traces differ from exhaustive's: "+d)
			}
			if d := diffSets(ref.failing, got.failing); d != "" {
				errs = append(errs, "failing traces differ from exhaustive's: "+d)
			}
			if d := diffSets(ref.finals, got.finals); d != "" {
				errs = append(errs, "outcomes differ from exhaustive's: "+d)
			}
			if d := diffSets(ref.kinds, got.kinds); d != "" {
				errs = append(errs, "failure kinds differ from exhaustive's: "+d)
			}
			if name == "optimal" || name == "concolic-optimal" {
				errs = append(errs, checkOptimalCounts(tc.body, name, order, refOut, tc.mayCut)...)
			}
			if len(errs) > 0 {
				t.Errorf("%s, order %d (%d executions):\n\t%s", name, order, res.Executions, strings.Join(errs, "\n\t"))
			}
		}
	}
}

// checkOptimalCounts checks optimal's claim on body against exhaustive's
// outcome ref: one complete execution per trace, no trace twice, and none
// cut unless mayCut.
func checkOptimalCounts(body func(*weft.T), name string, order int64, ref *checktest.Outcome, mayCut bool) []string {
	s := weft.StrategyByName(name, order)
	if o, ok := s.(*optimal.Strategy); ok {
		o.SetVerify(true)
	}
	got, err := exploreWith(body, s, name, 10*maxRefRuns)
	if err != nil {
		return []string{err.Error()}
	}
	var errs []string
	if got.Cut != 0 && !mayCut {
		errs = append(errs, fmt.Sprintf("%d executions cut", got.Cut))
	}
	if got.Complete != len(ref.Forms) {
		errs = append(errs, fmt.Sprintf("%d complete executions, want %d (distinct traces among exhaustive's %d)", got.Complete, len(ref.Forms), ref.Complete))
	}
	if d := diffSets(keysOf(ref.FailForms), keysOf(got.FailForms)); d != "" {
		errs = append(errs, "failing traces differ from exhaustive's: "+d)
	}
	for _, forms := range []map[string]int{got.Forms, got.FailForms} {
		for f, n := range forms {
			if n > 1 {
				errs = append(errs, fmt.Sprintf("explored one trace %d times: %s", n, f))
			}
		}
	}
	return errs
}

// kindList lists the failure kinds of m, sorted, separated by commas.
func kindList(m map[trace.FailureKind]bool) string {
	var ks []string
	for k := range m {
		ks = append(ks, k.String())
	}
	slices.Sort(ks)
	return strings.Join(ks, ",")
}

// keysSorted returns the keys of set m, sorted.
func keysSorted(m map[string]bool) []string { return slices.Sorted(maps.Keys(m)) }
