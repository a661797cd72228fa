// This file tests the Go semantics of the primitives in minimal programs
// explored exhaustively: exact execution counts, failure kinds and the step
// of each failure, and the replay of every failure. This file has the
// harness and the primitives of the runtime core (Var, Int, Mutex,
// WaitGroup, Chan, Select, threads); the *_sem_test.go files have the others.
//
// The exhaustive strategy counts interleavings of visible operations: every
// order of the enabled threads, and every alternative (select case, channel
// partner) of each step. A spawn is not a step: the new thread runs to its
// first operation at once. Each count is derived in the case's comment.

package weft_test

import (
	"maps"
	"runtime"
	"testing"

	"github.com/weft-go/weft"
	"github.com/weft-go/weft/trace"
)

// semCase is a minimal program and the exact outcome of its exhaustive
// exploration.
type semCase struct {
	name     string
	body     func(w *weft.T)
	execs    int
	complete int
	// fails counts the failing executions by kind; steps gives, for each
	// kind, the steps of its first failure (len of its Record.Steps).
	fails map[trace.FailureKind]int
	steps map[trace.FailureKind]int
	// finals is the number of distinct final states (0: not checked).
	finals int
}

// f builds the fails and steps maps of a case: kind, count, steps, kind,
// count, steps, ...
func f(spec ...any) (map[trace.FailureKind]int, map[trace.FailureKind]int) {
	fails, steps := map[trace.FailureKind]int{}, map[trace.FailureKind]int{}
	for i := 0; i < len(spec); i += 3 {
		k := spec[i].(trace.FailureKind)
		fails[k], steps[k] = spec[i+1].(int), spec[i+2].(int)
	}
	return fails, steps
}

// runSemCases explores each case exhaustively, checks its outcome exactly,
// replays each failure it found, and checks every execution against the
// model of the primitives (model_test.go).
func runSemCases(t *testing.T, cases []semCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r, err := weft.Explore(c.body, weft.WithStrategy("exhaustive"), weft.KeepGoing())
			if err != nil {
				t.Fatal(err)
			}
			if !r.Exhausted {
				t.Errorf("exploration not exhausted after %d executions", r.Executions)
			}
			if r.Executions != c.execs || r.Complete != c.complete {
				t.Errorf("executions %d, complete %d; want %d, %d", r.Executions, r.Complete, c.execs, c.complete)
			}
			want := c.fails
			if want == nil {
				want = map[trace.FailureKind]int{}
			}
			if !maps.Equal(r.FailureCounts, want) {
				t.Errorf("failures %v; want %v", r.FailureCounts, want)
			}
			if c.finals > 0 && r.FinalStates != c.finals {
				t.Errorf("final states %d; want %d", r.FinalStates, c.finals)
			}
			for _, fl := range r.Failures {
				if n, ok := c.steps[fl.Kind]; ok && len(fl.Record.Steps) != n {
					t.Errorf("first %v failure after %d steps; want %d\n%s", fl.Kind, len(fl.Record.Steps), n, fl.Report(""))
				}
				checkReplay(t, c.body, fl)
			}
			checkModel(t, c.name, c.body, 10000)
		})
	}
}

// checkReplay replays failure fl from its token and checks that the replay
// fails the same way at the same step.
func checkReplay(t *testing.T, body func(w *weft.T), fl *weft.Failure) {
	t.Helper()
	r, err := weft.Replay(body, fl.Token)
	if err != nil {
		t.Errorf("replay of %v: %v", fl.Kind, err)
		return
	}
	if len(r.Failures) != 1 || r.Failures[0].Kind != fl.Kind || len(r.Failures[0].Record.Steps) != len(fl.Record.Steps) {
		got := "no failure"
		if len(r.Failures) > 0 {
			got = r.Failures[0].Report("")
		}
		t.Errorf("replay of %v after %d steps gave: %s", fl.Kind, len(fl.Record.Steps), got)
	}
}

// spawn returns a body that spawns threads running fs and returns.
func spawn(fs ...func()) func(w *weft.T) {
	return func(w *weft.T) {
		for _, f := range fs {
			w.Go(f)
		}
	}
}

func TestVarSemantics(t *testing.T) {
	var x weft.Var[int]
	var n weft.Int[int]
	lostUpdate := func(w *weft.T) {
		var x weft.Var[int]
		inc := func() { x.Store(x.Load() + 1) }
		a, b := w.Go(inc), w.Go(inc)
		a.Join()
		b.Join()
		v := x.Load()
		w.Assert(v == 2, "lost update: x = %d", v)
	}
	var lf, ls = f(trace.Assertion, 6, 7)
	runSemCases(t, []semCase{
		// Two stores in two threads: 2 orders, x ends 1 or 2. x is declared
		// outside the body: it starts every execution at zero afresh.
		{name: "store-store", body: spawn(func() { x.Store(1) }, func() { x.Store(2) }),
			execs: 2, complete: 2, finals: 2},
		// Load;Store in T1 and T2, then the body's Join T1, Join T2, Load
		// (5 steps + 2 + 1). The body's chain J1 < J2 < F needs S1 < J1
		// and S2 < J2: T2's two steps merge into L1 S1 J1 in C(5,2) = 10
		// ways. The update is lost iff L2 < S1 and L1 < S2: 6 of them
		// (T1 first: L1 L2 then S1,S2,J1 with S2 anywhere after L2: 3;
		// T2 first, symmetric: 3). Each execution has 7 steps.
		{name: "lost-update", body: lostUpdate, execs: 10, complete: 4, fails: lf, steps: ls},
		// Atomic adds: A1 < J1 < J2 < F and A2 < J2: A2 before A1, between
		// A1 and J1, or between J1 and J2: 3 executions, one final value.
		// Swap returns the old value.
		{name: "swap", body: func(w *weft.T) {
			var x weft.Var[int]
			x.Store(1)
			old := x.Swap(2)
			v := x.Load()
			w.Assert(old == 1 && v == 2, "Swap gave %d, x = %d", old, v)
		}, execs: 1, complete: 1},
		{name: "atomic-add", body: func(w *weft.T) {
			a, b := w.Go(func() { n.Add(1) }), w.Go(func() { n.Add(1) })
			a.Join()
			b.Join()
			v := n.Load()
			w.Assert(v == 2, "n = %d", v)
		}, execs: 3, complete: 3, finals: 1},
		// CAS from 0 in T1 and T2: exactly one wins; the same 3 orders
		// as atomic-add, and x ends 1 or 2.
		{name: "cas", body: func(w *weft.T) {
			var x weft.Var[int]
			var ok [2]bool
			a := w.Go(func() { ok[0] = x.CompareAndSwap(0, 1) })
			b := w.Go(func() { ok[1] = x.CompareAndSwap(0, 2) })
			a.Join()
			b.Join()
			v := x.Load()
			w.Assert(ok[0] != ok[1] && (ok[0] && v == 1 || ok[1] && v == 2), "CAS results %v, x = %d", ok, v)
		}, execs: 3, complete: 3, finals: 2},
		// SetInitial gives x 2 without a step: two CASes from 2, the same
		// 3 orders as cas, one of them wins; x ends 3 or 4.
		{name: "set-initial", body: func(w *weft.T) {
			var x weft.Var[int]
			x.SetInitial(2)
			var ok [2]bool
			a := w.Go(func() { ok[0] = x.CompareAndSwap(2, 3) })
			b := w.Go(func() { ok[1] = x.CompareAndSwap(2, 4) })
			a.Join()
			b.Join()
			v := x.Load()
			w.Assert(ok[0] != ok[1] && (ok[0] && v == 3 || ok[1] && v == 4), "CAS results %v, x = %d", ok, v)
		}, execs: 3, complete: 3, finals: 2},
		// SetInitial after a use fails the execution at once.
		{name: "set-initial-late", body: func(w *weft.T) {
			var x weft.Var[int]
			x.Store(1)
			x.SetInitial(2)
		}, execs: 1, fails: map[trace.FailureKind]int{trace.Panic: 1}, steps: map[trace.FailureKind]int{trace.Panic: 1}},
	})
}

func TestMutexSemantics(t *testing.T) {
	abba := func(w *weft.T) {
		var a, b weft.Mutex
		th := w.Go(func() { b.Lock(); a.Lock(); a.Unlock(); b.Unlock() })
		a.Lock()
		b.Lock()
		b.Unlock()
		a.Unlock()
		th.Join()
	}
	dl, dls := f(trace.Deadlock, 2, 2)
	tl, tls := f(trace.Deadlock, 1, 1)
	u1, u1s := f(trace.UnlockOfUnlocked, 1, 1)
	u3, u3s := f(trace.UnlockOfUnlocked, 1, 3)
	self, selfs := f(trace.Deadlock, 1, 1)
	runSemCases(t, []semCase{
		// T0: La Lb Ub Ua J; T1: Lb La Ua Ub. T0's La first: T1's Lb
		// next deadlocks (1); else T0 holds both, unlocks b, then T0's Ua
		// and T1's Lb in either order (2). T1's Lb first: symmetric, 1
		// deadlock and 2. 6 executions; a deadlock is always after La,Lb.
		{name: "abba", body: abba, execs: 6, complete: 4, fails: dl, steps: dls},
		// T1's TryLock before T0's Lock takes the mutex and T0 blocks
		// forever (deadlock after 1 step); after it, it fails: 2.
		{name: "trylock-race", body: func(w *weft.T) {
			var mu weft.Mutex
			w.Go(func() { mu.TryLock() })
			mu.Lock()
		}, execs: 2, complete: 1, fails: tl, steps: tls},
		{name: "trylock", body: func(w *weft.T) {
			var mu weft.Mutex
			mu.Lock()
			w.Assert(!mu.TryLock(), "TryLock of a locked mutex")
			mu.Unlock()
			w.Assert(mu.TryLock(), "TryLock of an unlocked mutex")
		}, execs: 1, complete: 1},
		{name: "unlock-unlocked", body: func(w *weft.T) { var mu weft.Mutex; mu.Unlock() },
			execs: 1, fails: u1, steps: u1s},
		{name: "unlock-twice", body: func(w *weft.T) {
			var mu weft.Mutex
			mu.Lock()
			mu.Unlock()
			mu.Unlock()
		}, execs: 1, fails: u3, steps: u3s},
		// Not reentrant: the second Lock blocks forever.
		{name: "relock", body: func(w *weft.T) { var mu weft.Mutex; mu.Lock(); mu.Lock() },
			execs: 1, fails: self, steps: selfs},
	})
}

func TestWaitGroupSemantics(t *testing.T) {
	neg, negs := f(trace.NegativeWaitGroup, 1, 1)
	dl, dls := f(trace.Deadlock, 1, 1)
	runSemCases(t, []semCase{
		// Add(2) first (the threads start after it), then T1's Add, Done
		// and T2's Add, Done merge in C(4,2) = 6 ways; Wait and the Load
		// come after both Dones.
		{name: "wait", body: func(w *weft.T) {
			var wg weft.WaitGroup
			var n weft.Int[int]
			wg.Add(2)
			w.Go(func() { n.Add(1); wg.Done() })
			w.Go(func() { n.Add(1); wg.Done() })
			wg.Wait()
			v := n.Load()
			w.Assert(v == 2, "Wait returned with n = %d", v)
		}, execs: 6, complete: 6},
		{name: "negative", body: func(w *weft.T) { var wg weft.WaitGroup; wg.Done() },
			execs: 1, fails: neg, steps: negs},
		{name: "never-zero", body: func(w *weft.T) { var wg weft.WaitGroup; wg.Add(1); wg.Wait() },
			execs: 1, fails: dl, steps: dls},
	})
}

func TestChanSemantics(t *testing.T) {
	soc, socs := f(trace.SendOnClosed, 1, 2)
	coc, cocs := f(trace.CloseOfClosed, 1, 2)
	con, cons := f(trace.CloseOfNil, 1, 1)
	nilr, nilrs := f(trace.Deadlock, 1, 0)
	nils, nilss := f(trace.Leak, 1, 0)
	leak, leaks := f(trace.Leak, 1, 0)
	runSemCases(t, []semCase{
		// One thread: FIFO order, Len, Cap, and a closed channel drained
		// gives the zero value and false.
		{name: "buffered-fifo", body: func(w *weft.T) {
			c := weft.MakeChan[int](2)
			c.Send(1)
			c.Send(2)
			w.Assert(c.Len() == 2 && c.Cap() == 2, "len %d cap %d", c.Len(), c.Cap())
			c.Close()
			a, b := c.Recv(), c.Recv()
			v, ok := c.RecvOK()
			w.Assert(a == 1 && b == 2 && v == 0 && !ok, "got %d %d %d %v", a, b, v, ok)
		}, execs: 1, complete: 1},
		// T1 sends 1,2,3 into a buffer of 2, T0 receives 3: s_i < r_i and
		// r_i < s_(i+2). s1 first; then s2 r1 or r1 s2 (r1 before s3 and
		// s2 before r2 force both to come before the rest); then s3 r2 or
		// r2 s3, then r3: 2*2 = 4, all in FIFO order.
		{name: "producer-fifo", body: func(w *weft.T) {
			c := weft.MakeChan[int](2)
			w.Go(func() { c.Send(1); c.Send(2); c.Send(3) })
			for i := 1; i <= 3; i++ {
				v := c.Recv()
				w.Assert(v == i, "received %d, want %d", v, i)
			}
		}, execs: 4, complete: 4},
		// Unbuffered: the senders never move by themselves; T0's first
		// receive meets T1 or T2 (2 alternatives), its second the other.
		{name: "rendezvous-partners", body: func(w *weft.T) {
			c := weft.MakeChan[int](0)
			w.Go(func() { c.Send(1) })
			w.Go(func() { c.Send(2) })
			w.Assert(c.Recv()+c.Recv() == 3, "lost a value")
		}, execs: 2, complete: 2},
		{name: "send-on-closed", body: func(w *weft.T) { c := weft.MakeChan[int](1); c.Close(); c.Send(1) },
			execs: 1, fails: soc, steps: socs},
		{name: "close-of-closed", body: func(w *weft.T) { c := weft.MakeChan[int](0); c.Close(); c.Close() },
			execs: 1, fails: coc, steps: cocs},
		{name: "close-of-nil", body: func(w *weft.T) {
			var x weft.Var[int]
			var c *weft.Chan[int]
			x.Store(1)
			c.Close()
		}, execs: 1, fails: con, steps: cons},
		// A nil channel blocks forever: a deadlock in the body, a leak in
		// a thread once the body has returned.
		{name: "nil-recv", body: func(w *weft.T) { var c *weft.Chan[int]; c.Recv() },
			execs: 1, fails: nilr, steps: nilrs},
		{name: "nil-send", body: func(w *weft.T) {
			var c *weft.Chan[int]
			w.Go(func() { c.Send(1) })
		}, execs: 1, fails: nils, steps: nilss},
		{name: "nil-len-cap", body: func(w *weft.T) {
			var c *weft.Chan[int]
			w.Assert(c.Len() == 0 && c.Cap() == 0, "nil channel len/cap")
		}, execs: 1, complete: 1},
		// A sender nobody receives from leaks once the body returns.
		{name: "leak", body: func(w *weft.T) {
			c := weft.MakeChan[int](0)
			w.Go(func() { c.Send(1) })
		}, execs: 1, fails: leak, steps: leaks},
	})
}

func TestSelectSemantics(t *testing.T) {
	block, blocks := f(trace.Deadlock, 1, 0)
	runSemCases(t, []semCase{
		// Nothing ready: default.
		{name: "default", body: func(w *weft.T) {
			c := weft.MakeChan[int](0)
			i := weft.Select(weft.OnRecv(c, nil), weft.OnDefault(nil))
			w.Assert(i == 1, "case %d", i)
		}, execs: 1, complete: 1},
		// A pending sender makes the receive ready: default is not an
		// alternative (else T1 would leak).
		{name: "no-default-when-ready", body: func(w *weft.T) {
			c := weft.MakeChan[int](0)
			w.Go(func() { c.Send(1) })
			i := weft.Select(weft.OnRecv(c, nil), weft.OnDefault(nil))
			w.Assert(i == 0, "case %d", i)
		}, execs: 1, complete: 1},
		// Two ready cases: both are taken, in two executions; the final
		// states differ by the case recorded.
		{name: "both-ways", body: func(w *weft.T) {
			var got weft.Var[int]
			c, d := weft.MakeChan[int](1), weft.MakeChan[int](1)
			c.Send(1)
			d.Send(2)
			weft.Select(weft.OnRecv(c, func(v int, _ bool) { got.Store(v) }),
				weft.OnRecv(d, func(v int, _ bool) { got.Store(v) }), weft.OnDefault(nil))
		}, execs: 2, complete: 2, finals: 2},
		// A send case on a buffered channel with room.
		{name: "send-case", body: func(w *weft.T) {
			c, d := weft.MakeChan[int](1), weft.MakeChan[int](0)
			i := weft.Select(weft.OnSend(c, 5, nil), weft.OnRecv(d, nil))
			w.Assert(i == 0 && c.Recv() == 5, "case %d", i)
		}, execs: 1, complete: 1},
		// select {} blocks forever.
		{name: "empty", body: func(w *weft.T) { weft.Select() },
			execs: 1, fails: block, steps: blocks},
	})
}

func TestThreadFailures(t *testing.T) {
	gx, gxs := f(trace.Goexit, 1, 1)
	lk, lks := f(trace.Leak, 1, 1)
	pn, pns := f(trace.Panic, 1, 0)
	as, ass := f(trace.Assertion, 1, 1)
	runSemCases(t, []semCase{
		// runtime.Goexit in the body (what t.FailNow does): the Store is
		// the one step before it.
		{name: "goexit", body: func(w *weft.T) {
			var x weft.Var[int]
			x.Store(1)
			runtime.Goexit()
		}, execs: 1, fails: gx, steps: gxs},
		// runtime.Goexit in a thread ends it after its deferred calls, as
		// Go ends a goroutine: the Done runs, the Store after the Goexit
		// does not, and the body sees the first Store (one execution: the
		// Wait waits for the Done).
		{name: "goexit in thread", body: func(w *weft.T) {
			var x weft.Var[int]
			var wg weft.WaitGroup
			wg.Add(1)
			th := w.Go(func() {
				defer wg.Done()
				x.Store(1)
				runtime.Goexit()
				x.Store(2)
			})
			wg.Wait()
			w.Assert(x.Load() == 1, "x = %d", x.Load())
			th.Join()
		}, execs: 1, complete: 1, finals: 1},
		// Two threads that end with runtime.Goexit, joined: the executions
		// of two threads that return (the next case), each execution's
		// threads ended and their goroutines let go.
		{name: "goexit in two threads", body: func(w *weft.T) {
			var x weft.Var[int]
			a := w.Go(func() { x.Store(1); runtime.Goexit() })
			b := w.Go(func() { x.Store(2); runtime.Goexit() })
			a.Join()
			b.Join()
		}, execs: 3, complete: 3, finals: 2},
		// A thread whose Goexit blocks in a deferred call (a lock the body
		// keeps) is a leak, and unwinds at the end of the execution.
		{name: "goexit blocked in a deferred call", body: func(w *weft.T) {
			var mu weft.Mutex
			mu.Lock()
			w.Go(func() {
				defer func() { mu.Lock(); mu.Unlock() }()
				runtime.Goexit()
			})
		}, execs: 1, fails: lk, steps: lks},
		{name: "return in two threads", body: func(w *weft.T) {
			var x weft.Var[int]
			a := w.Go(func() { x.Store(1) })
			b := w.Go(func() { x.Store(2) })
			a.Join()
			b.Join()
		}, execs: 3, complete: 3, finals: 2},
		{name: "panic", body: func(w *weft.T) { w.Go(func() { panic("boom") }) },
			execs: 1, fails: pn, steps: pns},
		{name: "assert", body: func(w *weft.T) {
			var x weft.Var[int]
			w.Assert(x.Load() == 1, "x = 0")
		}, execs: 1, fails: as, steps: ass},
	})
}

// TestGoexitThreadsLetGo checks that the goroutine of a thread that ended
// with runtime.Goexit is let go once it has handed control on, not kept
// until the exploration ends: 300 executions, each with such a thread,
// leave no more goroutines than a few behind while the exploration runs.
func TestGoexitThreadsLetGo(t *testing.T) {
	before := runtime.NumGoroutine()
	most := 0
	r, err := weft.Explore(func(w *weft.T) {
		var x weft.Var[int]
		th := w.Go(func() { x.Store(1); runtime.Goexit() })
		x.Store(2)
		th.Join()
		most = max(most, runtime.NumGoroutine())
	}, weft.WithStrategy("random"), weft.WithMaxRuns(300), weft.WithWorkers(1), weft.NoReplayFiles())
	if err != nil {
		t.Fatal(err)
	}
	if r.Executions != 300 || r.Failed() {
		t.Fatalf("%d executions, failures %v; want 300 and none", r.Executions, r.FailureCounts)
	}
	if most > before+50 {
		t.Errorf("%d goroutines during the exploration, %d before it: the goroutines of the threads that called runtime.Goexit are kept", most, before)
	}
}
